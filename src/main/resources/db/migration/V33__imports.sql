-- Imports (docs/api.md, Bulk writes: imports): an NDJSON body stored line by line as it
-- arrives (COPY), then applied in file order by whichever instance claims it; the progress of
-- an import is committed with the records it applied, so a crash resumes without applying a
-- line twice.
create table imports (
    id            uuid        primary key,
    partner_id    uuid        not null references partners (id),
    key_id        uuid        not null,
    request_id    text        not null,
    resource      text        not null check (resource in ('metrics', 'assessments')),
    status        text        not null check (status in ('receiving', 'processing', 'completed', 'failed')),
    lines         bigint      not null default 0,
    processed     bigint      not null default 0,
    last_line     bigint      not null default 0,
    created       bigint      not null default 0,
    updated       bigint      not null default 0,
    unchanged     bigint      not null default 0,
    failed        bigint      not null default 0,
    detail        text,
    created_at    timestamptz not null,
    completed_at  timestamptz,
    claimed_by    uuid,
    claimed_until timestamptz,
    -- an Idempotency-Key sent with the POST: a replay answers this import
    idempotency_key text
);
create unique index imports_by_key on imports (partner_id, idempotency_key) where idempotency_key is not null;
create index imports_by_partner on imports (partner_id, created_at, id);
create index imports_to_apply on imports (created_at) where status = 'processing';

-- The lines of an import that hold something (blank lines are not stored), numbered as in
-- the file (from 1, blank lines counted); deleted once the import has ended.
create table import_lines (
    import_id uuid   not null references imports (id) on delete cascade,
    line      bigint not null,
    body      text   not null,
    primary key (import_id, line)
);

-- The refused lines of an import, each as GET /api/v1/health/imports/{id}/errors shows it.
create table import_errors (
    import_id uuid   not null references imports (id) on delete cascade,
    line      bigint not null,
    item      text   not null,
    primary key (import_id, line)
);

-- The audit trail records an import's start and end (resource metrics or assessments).
alter table audit_events drop constraint audit_events_action_check;
alter table audit_events add constraint audit_events_action_check
    check (action in ('read', 'write', 'delete', 'erase', 'import'));
