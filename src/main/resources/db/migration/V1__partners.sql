-- Partner onboarding: registrations, partners and their API keys.
-- Keys are stored as a SHA-256 hash (look-up) and a short display prefix; secrets AES-GCM encrypted.

create table registrations (
    id           uuid primary key,
    email        text        not null,
    partner_name text        not null,
    status       text        not null check (status in ('pending', 'approved', 'rejected')),
    reason       text,
    partner_id   uuid,
    created_at   timestamptz not null,
    decided_at   timestamptz
);

-- one open (pending or approved) registration per email, case-insensitive; this also settles races
create unique index registrations_open_email on registrations (lower(email)) where status in ('pending', 'approved');
create index registrations_by_status on registrations (status, created_at, id);
create index registrations_by_created on registrations (created_at, id);

create table partners (
    id               uuid primary key,
    registration_id  uuid        not null unique references registrations (id),
    partner_name     text        not null,
    email            text        not null,
    plan             text        not null,
    status           text        not null check (status in ('active', 'suspended')),
    scopes           text[]      not null,
    signing_required boolean     not null default false,
    created_at       timestamptz not null
);

create index partners_by_created on partners (created_at, id);

create table api_keys (
    id                uuid primary key,
    partner_id        uuid        not null references partners (id),
    key_hash          bytea       not null unique,
    prefix            text        not null,
    secret_ciphertext bytea       not null,
    scopes            text[]      not null,
    created_at        timestamptz not null,
    last_used_at      timestamptz,
    expires_at        timestamptz,
    revoked_at        timestamptz
);

create index api_keys_by_partner on api_keys (partner_id, created_at);
