-- Who wrote a document, as far as a prune is concerned (ingest.Prune):
-- true when a `ragd ingest` run read it from a file, so a later run of the
-- same tree may delete it once the file is gone; false for every other
-- write (the API, ingestion jobs, datasets the CLI loads), which no prune
-- deletes. A prune used to delete every document under its prefix that
-- named no file of the run, so a document uploaded through the API under a
-- directory's base URI was deleted as "its file is gone". Each write sets
-- it, an unchanged one too (the last writer owns the document). NULL for
-- documents stored before this migration: nobody knows, and a prune keeps
-- them and says so. A nullable column without a default rewrites nothing.

-- +goose Up
ALTER TABLE documents ADD COLUMN from_files boolean;

-- +goose Down
ALTER TABLE documents DROP COLUMN from_files;
