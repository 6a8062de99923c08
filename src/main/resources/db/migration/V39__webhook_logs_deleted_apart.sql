-- Deleting an endpoint deleted its whole delivery log in the same statement (on delete cascade):
-- five endpoints write five rows per change, and an endpoint of a busy partner keeps hundreds of
-- thousands of them for 30 days, more than a request's time allows (measured: a DELETE of an
-- endpoint with about 600,000 deliveries answered 503 after the 2.5 s deadline, and the endpoint
-- stayed). Now the endpoint's row goes at once, its id is kept here, and DeliveryRetention
-- deletes its deliveries in batches; nothing reads them meanwhile (every read of deliveries goes
-- through an endpoint that exists).
alter table webhook_deliveries drop constraint webhook_deliveries_webhook_id_fkey;
create table webhooks_deleted (
    id         uuid        primary key,
    deleted_at timestamptz not null
);
