-- +goose NO TRANSACTION
-- The keyword leg completes each candidate's score with its postings of the
-- truncated (common) query terms, one lookup per (term, candidate). The
-- primary key (tenant_id, lexeme, chunk_id) answers that with one entry but
-- needs a heap fetch for tf and dl; postings_impact (tenant_id, lexeme,
-- impact) INCLUDE (chunk_id, tf, dl) is index-only but holds the whole
-- posting list of the term. On the 1M-chunk bench the planner took the
-- latter for 10,000-chunk tenants (its estimate of a list's length was 29
-- rows, the truth ~800): 1.3 M index entries read and filtered for ~1,700
-- lookups, 130–270 ms per query. With tf and dl in the primary key the exact
-- lookup is index-only too (and migration 00011 makes it the only plan).
--
-- Outside a transaction, so the new key is built CONCURRENTLY (postings is
-- the largest table: ~4 minutes for 69 M rows here) and then swapped in; a
-- failure between the two statements leaves the old key in place and the
-- rerun completes the swap.

-- +goose Up
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS postings_pkey_covering ON postings (tenant_id, lexeme, chunk_id) INCLUDE (tf, dl);
ALTER TABLE postings DROP CONSTRAINT postings_pkey, ADD CONSTRAINT postings_pkey PRIMARY KEY USING INDEX postings_pkey_covering;

-- +goose Down
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS postings_pkey_plain ON postings (tenant_id, lexeme, chunk_id);
ALTER TABLE postings DROP CONSTRAINT postings_pkey, ADD CONSTRAINT postings_pkey PRIMARY KEY USING INDEX postings_pkey_plain;
