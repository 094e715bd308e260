-- Whether a document's title was named by a write (the API's title, the
-- upload form's) rather than derived from its content. A later write that
-- names no title keeps a named one even when its content changes (an update
-- changes only what it names); a derived title follows the content. Rows
-- written before this migration count as derived, which is what they were
-- treated as. Adding a column with a constant default rewrites no rows.

-- +goose Up
ALTER TABLE documents ADD COLUMN title_given boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE documents DROP COLUMN title_given;
