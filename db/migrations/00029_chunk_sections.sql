-- Neighbour expansion judges whether the chunk before or after a source
-- continues it at the boundary the two share: the last section the chunk
-- before holds, the first section the chunk after holds. A chunk packing
-- several sections (short FAQ entries, an intro with its first
-- subsections, a window cut across a section's start) carries their
-- common parent's heading path, which cannot say that; one flag
-- (spans_sections, 00028) could not either: a window holding a short
-- intro and the start of a long section lost that section's next window,
-- and a page's intro with a banner before it stopped being the intro of
-- its first subsection. sections lists the heading paths of the sections
-- a chunk's text lies in, in order (without definition terms); NULL for rows written before it (the
-- heading path rules apply to them until their document is ingested
-- again).

-- +goose Up
ALTER TABLE chunks DROP COLUMN spans_sections;
ALTER TABLE chunks ADD COLUMN sections text[];

-- heading_parent is the path of the section a heading path's last heading
-- sits in: the path without its last element ('' for a top-level path).
-- A heading's own " > " is stored as " › ", so " > " separates headings.
-- +goose StatementBegin
CREATE FUNCTION heading_parent(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN strpos(p, ' > ') = 0 THEN '' ELSE regexp_replace(p, '^(.*) > .*$', '\1') END $$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION heading_parent(text);
ALTER TABLE chunks DROP COLUMN sections;
ALTER TABLE chunks ADD COLUMN spans_sections boolean NOT NULL DEFAULT false;
