-- Health metrics, one row per submitted record. List queries filter (partner_id, user_id) and a
-- recorded_at range and walk recorded_at, id in order: one index range scan, no sort.

create table metric_records (
    id          uuid        primary key,
    partner_id  uuid        not null references partners (id),
    user_id     text        not null check (char_length(user_id) between 1 and 128),
    metrics     jsonb       not null check (jsonb_typeof(metrics) = 'object'),
    recorded_at timestamptz not null,
    created_at  timestamptz not null
);

create index metric_records_by_user on metric_records (partner_id, user_id, recorded_at, id);
