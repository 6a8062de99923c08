-- Audit trail of health-data access: who (partner, key) read or wrote which user's records, when,
-- how many. Written in batches; read by administrators filtered by partner, user and time.

create table audit_events (
    id           uuid primary key,
    at           timestamptz not null,
    partner_id   uuid        not null,
    key_id       uuid        not null,
    user_id      text        not null,
    action       text        not null check (action in ('read', 'write')),
    resource     text        not null,
    record_count bigint      not null,
    request_id   text        not null
);

create index audit_events_by_partner_user on audit_events (partner_id, user_id, at, id);
create index audit_events_by_time on audit_events (at, id);
