-- Webhooks sent straight from the feed (docs/design.md, Webhooks): an instance leases an endpoint,
-- reads the changes after its position, sends them, and then records the outcomes and moves the
-- position in one statement that requires the lease. A delivery row is written once, with its
-- outcome, instead of made, leased and updated. leased_until: an instance is sending this
-- endpoint's changes from its position; once past, any instance may read and send them again (at
-- least once, with the same webhook-id).
alter table webhooks add column leased_until timestamptz;
