-- The audit trail has each import twice: once its body is stored (created) and once it has
-- ended (completed or failed), with its counts. Such an event is about the import, not about
-- one user: user_id is null and import holds the import's id, status and counts.
alter table audit_events alter column user_id drop not null;
alter table audit_events add column import jsonb;

-- A chunk that fails (other than by a lost claim) is retried after a pause; an import whose
-- chunks failed APP_IMPORT_MAX_FAILURES times in a row ends failed with a detail.
alter table imports add column failures int not null default 0;
