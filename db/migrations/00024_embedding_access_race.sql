-- An embedding inserted after its chunk (a model switch's re-embedding,
-- bulk loaders) takes its chunk's access_id (chunk_embeddings_access,
-- migration 00017). Racing an access change of the chunk's document, it
-- could keep the old one for good: the change's documents_access_sync
-- rewrote the embeddings it could see (not the new, uncommitted one) and
-- only then the chunks, while the insert read the chunk's committed,
-- older access_id without waiting. The row then disagreed with its chunk
-- (a restricted chunk's vector marked tenant-wide, or the reverse) until
-- the next change.
--
-- Now the two take the chunk rows' locks in one order: the sync locks the
-- document's chunks (FOR UPDATE) before it rewrites anything, and the
-- insert trigger reads each restricted-or-not chunk FOR SHARE. Whichever
-- comes second waits for the first to commit and then reads (a new
-- statement, a new snapshot) what it wrote: the trigger the new access_id,
-- or the sync the new embedding. Embeddings inserted before their chunks
-- (the write path) find no chunk and take no lock.

-- +goose Up
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunk_embeddings_access() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_tenant uuid;
    v_ids uuid[];
    v_acc int[];
BEGIN
    SELECT n.tenant_id INTO v_tenant FROM new_rows n LIMIT 1;
    IF NOT EXISTS (SELECT 1 FROM access_lists a WHERE a.tenant_id = v_tenant) THEN
        RETURN NULL;
    END IF;
    SELECT array_agg(n.chunk_id), array_agg(x.access_id) INTO v_ids, v_acc
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT c.access_id FROM chunks c
                        WHERE c.tenant_id = n.tenant_id AND c.id = n.chunk_id LIMIT 1 FOR SHARE) x
    WHERE x.access_id <> 0;
    IF v_ids IS NOT NULL THEN
        UPDATE chunk_embeddings e SET access_id = x.acc
        FROM unnest(v_ids, v_acc) AS x (id, acc)
        WHERE e.tenant_id = v_tenant AND e.chunk_id = x.id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION documents_access_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    IF NEW.access_id IS NOT DISTINCT FROM OLD.access_id THEN
        RETURN NULL;
    END IF;
    PERFORM 1 FROM chunks c WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id FOR UPDATE;
    FOR r IN SELECT c.id, tsvector_to_array(c.tsv) AS lexemes FROM chunks c
             WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id LOOP
        UPDATE postings p SET access_id = NEW.access_id
        WHERE p.tenant_id = NEW.tenant_id AND p.lexeme = ANY (r.lexemes) AND p.chunk_id = r.id;
        UPDATE chunk_embeddings e SET access_id = NEW.access_id
        WHERE e.tenant_id = NEW.tenant_id AND e.chunk_id = r.id;
    END LOOP;
    UPDATE chunks c SET access_id = NEW.access_id
    WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunk_embeddings_access() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_tenant uuid;
    v_ids uuid[];
    v_acc int[];
BEGIN
    SELECT n.tenant_id INTO v_tenant FROM new_rows n LIMIT 1;
    IF NOT EXISTS (SELECT 1 FROM access_lists a WHERE a.tenant_id = v_tenant) THEN
        RETURN NULL;
    END IF;
    SELECT array_agg(n.chunk_id), array_agg(x.access_id) INTO v_ids, v_acc
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT c.access_id FROM chunks c
                        WHERE c.tenant_id = n.tenant_id AND c.id = n.chunk_id LIMIT 1) x
    WHERE x.access_id <> 0;
    IF v_ids IS NOT NULL THEN
        UPDATE chunk_embeddings e SET access_id = x.acc
        FROM unnest(v_ids, v_acc) AS x (id, acc)
        WHERE e.tenant_id = v_tenant AND e.chunk_id = x.id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION documents_access_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    IF NEW.access_id IS NOT DISTINCT FROM OLD.access_id THEN
        RETURN NULL;
    END IF;
    FOR r IN SELECT c.id, tsvector_to_array(c.tsv) AS lexemes FROM chunks c
             WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id LOOP
        UPDATE postings p SET access_id = NEW.access_id
        WHERE p.tenant_id = NEW.tenant_id AND p.lexeme = ANY (r.lexemes) AND p.chunk_id = r.id;
        UPDATE chunk_embeddings e SET access_id = NEW.access_id
        WHERE e.tenant_id = NEW.tenant_id AND e.chunk_id = r.id;
    END LOOP;
    UPDATE chunks c SET access_id = NEW.access_id
    WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
