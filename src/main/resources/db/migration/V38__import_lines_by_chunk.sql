-- An upload stores a row of import_lines per chunk of lines (imports/CopyRows): line is the
-- chunk's first line and body its lines joined by line feeds, the worker numbering them from
-- there (a row stored before this holds one line, which reads the same). A body of a chunk is
-- hundreds of kilobytes: it is compressed with lz4 where this PostgreSQL has it (pglz, the
-- default, costs several times the CPU), else stored out of line uncompressed.
do $$
begin
    alter table import_lines alter column body set compression lz4;
exception when feature_not_supported or invalid_parameter_value or undefined_object then
    alter table import_lines alter column body set storage external;
end
$$;
