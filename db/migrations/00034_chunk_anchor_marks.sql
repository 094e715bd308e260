-- Where, inside a chunk, the anchor in effect changes (chunk.AnchorMarks):
-- each mark "<byte offset in the document's text>\t<anchor>", in document
-- order. A reference page's entries (Sphinx's dt ids, an ARM's options)
-- follow one another inside a chunk, and a citation of the third entry's
-- text linked to the first's. NULL for chunks stored before this migration
-- (the next ingest of their page fills it; the extraction version changed
-- with it). A nullable column without a default rewrites nothing.

-- +goose Up
ALTER TABLE chunks ADD COLUMN anchor_marks text[];

-- +goose Down
ALTER TABLE chunks DROP COLUMN anchor_marks;
