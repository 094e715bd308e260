-- An extractive answer quotes code as code and prose as sentences. The
-- extractor knows which text is code (HTML pre, Markdown code blocks, DOCX
-- code styles, a PDF's monospaced lines); read back from the plain text,
-- code had to be guessed, and a server's start-up banner after a blank
-- line in its <pre> was quoted as a run-on sentence. code_spans holds the
-- byte ranges of the document's code blocks in body, as start, end pairs
-- in document order; NULL for documents written before it (their code is
-- recognised from its shape until they are ingested again).

-- +goose Up
ALTER TABLE documents ADD COLUMN code_spans integer[];

-- +goose Down
ALTER TABLE documents DROP COLUMN code_spans;
