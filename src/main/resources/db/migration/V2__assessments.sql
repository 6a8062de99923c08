-- Health assessments. A partner only ever reads its own rows, so every list query starts with
-- (partner_id, user_id) and walks created_at, id in order: one index range scan, no sort.

create table assessments (
    id          uuid        primary key,
    partner_id  uuid        not null references partners (id),
    user_id     text        not null check (char_length(user_id) between 1 and 128),
    responses   jsonb       not null check (jsonb_typeof(responses) = 'object'),
    created_at  timestamptz not null
);

create index assessments_by_user on assessments (partner_id, user_id, created_at, id);
