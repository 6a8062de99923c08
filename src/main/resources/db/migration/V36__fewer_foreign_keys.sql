-- Health records no longer reference partners by a foreign key. A partner is never deleted (it
-- is suspended), and every record's partner_id is the authenticated partner's own, so the
-- check never refused a row; but it cost every inserted record a lookup that locks the partner's
-- row FOR KEY SHARE, and with several transactions of one partner writing at once (concurrent
-- POSTs, batches, an import's chunks) those locks become MultiXacts: 16-24 % of the batch
-- throughput and a tenth of an import's database time, measured (docs/performance.md).
alter table metric_records drop constraint metric_records_partner_id_fkey;
alter table assessments drop constraint assessments_partner_id_fkey;

-- An import's stored lines no longer reference their import by a foreign key: the check cost
-- every line of an upload a lookup, half the time of storing it (105 MB: 3.8 s with it, 1.9 s
-- without). Lines are written only by the upload of a receiving import and deleted by every
-- statement that ends or drops an import (imports/ImportRepository).
alter table import_lines drop constraint import_lines_import_id_fkey;
