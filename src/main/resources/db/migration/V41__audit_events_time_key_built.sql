-- The audit trail's primary key moves from id to (at, id), the order the administrators' list reads
-- events in (V42 says why). Its unique index is built here beforehand, concurrently: the table is the
-- largest one and only grows, and a plain build would hold every write (each writes its event) until
-- it ended. Flyway runs this statement outside a transaction (PostgreSQL refuses it in one), so it is
-- the only statement of this migration. A build that failed leaves an invalid index behind: drop it
-- (drop index audit_events_at_id) and start again.
create unique index concurrently audit_events_at_id on audit_events (at, id);
