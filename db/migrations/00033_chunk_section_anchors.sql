-- The anchors of a chunk's sections (chunks.sections), one each ('' for a
-- section whose page gives none): a citation of text in a later section of
-- a chunk that packs short ones (an FAQ's entries) links to that section,
-- not to the chunk's first. NULL for chunks stored before this migration
-- (the next ingest of their page fills it; the extraction version changed
-- with it). A nullable column without a default rewrites nothing.

-- +goose Up
ALTER TABLE chunks ADD COLUMN section_anchors text[];

-- +goose Down
ALTER TABLE chunks DROP COLUMN section_anchors;
