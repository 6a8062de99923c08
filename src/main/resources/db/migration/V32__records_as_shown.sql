-- Each health record keeps its view: the JSON object partners see of it (MetricView,
-- AssessmentView), rendered by the statement that writes the record with the same SQL
-- functions as the change feed's items (V31), and re-rendered by the statement that updates
-- it. A page of a list reads each record's view and passes it through as it is; an export
-- streams one view a record.

alter table metric_records add column view text;
update metric_records set view = metric_view(id, user_id, client_record_id, client_record_version, metrics,
    api_time(recorded_at), api_time(created_at), api_time(coalesce(updated_at, created_at)));
alter table metric_records alter column view set not null;

alter table assessments add column view text;
update assessments set view = assessment_view(id, user_id, client_record_id, client_record_version, responses,
    api_time(created_at), api_time(coalesce(updated_at, created_at)));
alter table assessments alter column view set not null;
