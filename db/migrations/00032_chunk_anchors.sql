-- The fragment identifier of the section or definition a chunk starts in
-- (an HTML page's heading or term id, without "#"), so search results and
-- citations can link to the place on a long page: source_uri#anchor. NULL
-- when the page gives none, for formats without anchors, and for chunks
-- stored before this migration (the extraction version changed with it, so
-- the next ingest of a page re-chunks it; its embeddings come from the
-- cache). A nullable column without a default rewrites nothing.

-- +goose Up
ALTER TABLE chunks ADD COLUMN anchor text;

-- +goose Down
ALTER TABLE chunks DROP COLUMN anchor;
