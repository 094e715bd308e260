-- The pages of a paged document (PDF) a chunk spans, 1-based, so search
-- results and answer citations can name them ("page 12"). NULL for chunks
-- of documents without pages (HTML, Markdown, plain text, DOCX) and for
-- chunks stored before this migration (re-ingesting a PDF fills them).
-- Adding nullable columns without a default rewrites nothing; the CHECK is
-- NOT VALID so that no existing row is scanned (every existing row is NULL
-- and would pass), and it holds for every row written from now on.

-- +goose Up
ALTER TABLE chunks
    ADD COLUMN page_start int,
    ADD COLUMN page_end   int;
ALTER TABLE chunks ADD CONSTRAINT chunks_pages_check
    CHECK ((page_start IS NULL) = (page_end IS NULL) AND page_start >= 1 AND page_end >= page_start) NOT VALID;

-- +goose Down
ALTER TABLE chunks DROP CONSTRAINT chunks_pages_check;
ALTER TABLE chunks DROP COLUMN page_end, DROP COLUMN page_start;
