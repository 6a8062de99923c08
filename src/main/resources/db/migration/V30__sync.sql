-- Keeping a partner's copy in sync (contract section 9): client record ids with versions,
-- deletion, erasure of a user, and a change feed. The design is in docs/design.md ("Sync").

-- Client record ids. updated_at is null until a record is updated (reads show created_at then,
-- so that rows written before this migration, or by SQL, need no rewrite). A record keeps the transaction that created it (created_txid): an
-- erasure hides and deletes exactly the records of transactions below its cut-off.
alter table metric_records
    add column client_record_id      text check (char_length(client_record_id) between 1 and 128),
    add column client_record_version bigint check (client_record_version between 0 and 9007199254740991),
    add column updated_at            timestamptz,
    add column created_txid          xid8 not null default pg_current_xact_id();
-- one record per client record id and partner; a deleted record's row is gone, so its id is free
create unique index metric_records_by_client_id on metric_records (partner_id, client_record_id)
    where client_record_id is not null;

alter table assessments
    add column client_record_id      text check (char_length(client_record_id) between 1 and 128),
    add column client_record_version bigint check (client_record_version between 0 and 9007199254740991),
    add column updated_at            timestamptz,
    add column created_txid          xid8 not null default pg_current_xact_id();
create unique index assessments_by_client_id on assessments (partner_id, client_record_id)
    where client_record_id is not null;

-- Erasures of a user. While one is pending, every read hides the user's records whose
-- created_txid is below its cut-off (the first transaction id not yet started when it was
-- requested); the worker deletes them in batches and completes it.
create table user_erasures (
    id                  uuid primary key,
    partner_id          uuid        not null references partners (id),
    user_id             text        not null,
    status              text        not null check (status in ('pending', 'completed')),
    cutoff              xid8        not null,
    requested_at        timestamptz not null,
    completed_at        timestamptz,
    metrics_deleted     bigint      not null default 0,
    assessments_deleted bigint      not null default 0
);
create index user_erasures_pending on user_erasures (partner_id, user_id, cutoff) where status = 'pending';

-- The change feed. Each change is written in the transaction of the write it records and
-- carries that transaction's id; the feed lists changes in (txid, seq) order, only below the
-- visibility horizon pg_snapshot_xmin(pg_current_snapshot()), so no change can ever appear
-- behind a cursor. A created or updated change keeps the record as it was then.
create table changes (
    partner_id            uuid        not null,
    txid                  xid8        not null default pg_current_xact_id(),
    seq                   bigint      generated always as identity,
    kind                  text        not null check (kind in ('created', 'updated', 'deleted', 'user_erased')),
    resource              text        check (resource in ('metrics', 'assessments')),
    record_id             uuid,
    user_id               text        not null,
    client_record_id      text,
    client_record_version bigint,
    data                  jsonb,
    recorded_at           timestamptz,
    created_at            timestamptz,
    updated_at            timestamptz,
    changed_at            timestamptz not null,
    primary key (partner_id, txid, seq)
);
create index changes_by_user on changes (partner_id, user_id, txid);
create index changes_by_txid on changes (txid);

-- Changes with a txid below kept_from may have been deleted by retention: an older cursor is 410.
create table changes_kept (
    only_row  boolean primary key default true check (only_row),
    kept_from xid8    not null
);
insert into changes_kept (kept_from) values ('0');

-- The feed covers the records stored before it existed: one created change each.
insert into changes (partner_id, kind, resource, record_id, user_id, data, recorded_at, created_at, updated_at, changed_at)
select partner_id, 'created', 'metrics', id, user_id, metrics, recorded_at, created_at, created_at, created_at
from metric_records order by created_at, id;
insert into changes (partner_id, kind, resource, record_id, user_id, data, created_at, updated_at, changed_at)
select partner_id, 'created', 'assessments', id, user_id, responses, created_at, created_at, created_at
from assessments order by created_at, id;

-- Idempotent writes replay the outcome of the first answer (created, updated, unchanged).
alter table idempotency_keys add column record_outcome text;

-- Audit: deletions and erasures (resource users) are recorded too.
alter table audit_events drop constraint audit_events_action_check;
alter table audit_events add constraint audit_events_action_check
    check (action in ('read', 'write', 'delete', 'erase'));
