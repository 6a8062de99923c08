-- No statement looks an audit event up by its id alone: the administrators' list reads events in the
-- order (at, id), all of them or one partner's and user's (audit_events_by_partner_user). The primary
-- key on id and the index on (at, id) were one index too many: every event, a write's or a read's,
-- cost PostgreSQL three B-tree entries, and the third was about a quarter of the event's insert
-- (docs/performance.md).
-- The primary key is now (at, id), on the index V41 built, so an event costs two entries; a batch of
-- read events written again still skips those already stored (on conflict (at, id) do nothing).
-- Each statement takes the table's lock for a moment only: nothing is built or scanned here.
alter table audit_events drop constraint audit_events_pkey;
alter table audit_events add constraint audit_events_pkey primary key using index audit_events_at_id;
drop index audit_events_by_time;
