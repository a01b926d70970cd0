-- Blobs in an object store are gzip-compressed as they are written: `stored = 'object-gzip'`.
-- The object keeps its name (`blobs/<first 2 hex>/<hash hex>`): the row says how to read it.
-- Rows written before stay `object` (a raw object) and readable; `sha256` and `size` are those
-- of the raw bytes either way.
alter table blob drop constraint blob_stored_check;
alter table blob add constraint blob_stored_check check (stored in ('db', 'object', 'object-gzip'));
alter table blob drop constraint blob_data_where_stored;
alter table blob add constraint blob_data_where_stored
    check ((stored = 'db' and data is not null) or (stored in ('object', 'object-gzip') and data is null));
