-- Idempotency-Key of the health-data POSTs, per partner and endpoint, kept 24 hours.
-- A row is a claim while status is null (a request holds it until claimed_until; a claim left by a
-- crashed instance can be taken over after that) and the stored first answer once status is set.

create table idempotency_keys (
    partner_id      uuid        not null references partners (id),
    endpoint        text        not null,
    idempotency_key text        not null,
    request_hash    bytea       not null,
    claim_token     uuid        not null,
    claimed_until   timestamptz,
    status          integer,
    location        text,
    body            text,
    created_at      timestamptz not null,
    expires_at      timestamptz not null,
    primary key (partner_id, endpoint, idempotency_key)
);

create index idempotency_keys_by_expiry on idempotency_keys (expires_at);
