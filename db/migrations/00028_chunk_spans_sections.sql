-- A chunk whose text lies in more than one section (short sibling sections
-- packed together, or an intro packed with its first subsections) carries
-- their common parent's heading path, the same path as that parent's intro.
-- Neighbour expansion (ChunkNeighbourhoods) joins a section's intro to its
-- subsections' chunks, and read such a packed chunk as an intro: an FAQ
-- entry's source was widened into the short entries before it. The flag
-- tells the two apart. Rows written before it read false (the previous
-- behaviour) until their document is ingested again.

-- +goose Up
ALTER TABLE chunks ADD COLUMN spans_sections boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE chunks DROP COLUMN spans_sections;
