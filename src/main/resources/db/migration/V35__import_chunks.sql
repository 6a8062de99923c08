-- An import is applied in chunks, several at once: the upload cuts its lines into chunks of
-- at most APP_IMPORT_CHUNK_LINES lines and about APP_IMPORT_CHUNK_BYTES bytes, whose first
-- lines it keeps in chunk_starts (a chunk runs to the line before the next one's first). A
-- chunk's row in import_chunks commits with its records, so a crash resumes with the chunks
-- that have none, and a restart with other settings keeps the same chunks.
create table import_chunks (
    import_id  uuid   not null references imports (id) on delete cascade,
    first_line bigint not null,
    primary key (import_id, first_line)
);
alter table imports add column chunk_starts bigint[];
alter table imports drop column last_line;
