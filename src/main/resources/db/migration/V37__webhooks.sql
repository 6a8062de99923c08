-- Webhooks (docs/api.md, Webhooks; docs/design.md, Webhooks).

-- A partner's endpoints. The secret is encrypted as partner secrets are (AES-GCM, nonce first);
-- after a rotation the previous one signs beside it until previous_until. (after_txid, after_seq)
-- is how far the dispatcher has turned the partner's change feed into deliveries for this
-- endpoint: it moves only while the endpoint is enabled, so re-enabling resumes from there.
-- failing_since is the first failed attempt since the last success (24 h of it disables).
create table webhooks (
    id              uuid        primary key,
    partner_id      uuid        not null references partners (id),
    url             text        not null,
    events          text[],
    description     text,
    status          text        not null check (status in ('enabled', 'disabled')),
    disabled_reason text,
    secret          bytea       not null,
    previous_secret bytea,
    previous_until  timestamptz,
    after_txid      xid8        not null,
    after_seq       bigint      not null,
    failing_since   timestamptz,
    created_at      timestamptz not null,
    updated_at      timestamptz not null
);
create index webhooks_by_partner on webhooks (partner_id, created_at, id);

-- One message to one endpoint and its attempts. A change of the feed has its place in it
-- (change_txid, change_seq) and its user: a user's deliveries to an endpoint go in that order,
-- one at a time. erasure.completed is about a user too: it has its user and the id of the
-- transaction that completed the erasure with change_seq 0 (no change of the feed has seq 0),
-- and goes after every change before it. webhook.test and import.completed have neither and
-- travel on their own. data is the message's data for events that are not changes of the
-- feed; a change's is read from the feed when it is sent (a delivery row stays small: five
-- endpoints write five of them per change). leased_until: an instance is sending it; once past,
-- any instance may send it again (at least once).
create table webhook_deliveries (
    id               uuid        primary key,
    webhook_id       uuid        not null references webhooks (id) on delete cascade,
    partner_id       uuid        not null,
    message_id       text        not null,
    event_type       text        not null,
    change_txid      xid8,
    change_seq       bigint,
    user_id          text,
    data             text,
    occurred_at      timestamptz not null,
    status           text        not null check (status in ('pending', 'succeeded', 'failing', 'given_up')),
    attempts         int         not null default 0,
    first_attempt_at timestamptz,
    last_attempt_at  timestamptz,
    last_status_code int,
    last_error       text,
    next_attempt_at  timestamptz,
    leased_until     timestamptz,
    created_at       timestamptz not null
);
-- what is due, oldest first
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status in ('pending', 'failing');
-- a user's earlier open delivery to the same endpoint holds back the later ones
create index webhook_deliveries_in_order on webhook_deliveries (webhook_id, user_id, change_txid, change_seq)
    where status in ('pending', 'failing');
-- the delivery log, newest first; erasure finds a user's deliveries
create index webhook_deliveries_log on webhook_deliveries (webhook_id, created_at, id);
create index webhook_deliveries_by_user on webhook_deliveries (partner_id, user_id);
