-- Blobs may live outside PostgreSQL: in an object store (S3-compatible, or a directory) named
-- by the deployment's settings. The row stays as the index (hash, size, when), `data` is null
-- once the bytes live in the object store under `blobs/<first 2 hex>/<hash hex>`.
alter table blob alter column data drop not null;
alter table blob add column stored text not null default 'db' check (stored in ('db', 'object'));
alter table blob add constraint blob_data_where_stored
    check ((stored = 'db' and data is not null) or (stored = 'object' and data is null));
