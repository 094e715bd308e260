-- name: SetVectorSearchSettings :exec
-- The HNSW walk's transaction-local settings (retrieve.go explains them and
-- queues every retrieval statement); they last to the end of the batch's transaction, so they are
-- queued after every other statement. The walk needs a custom plan (its
-- index's predicate names the tenant), also after statements run on
-- generic plans (store.GenericPlans).
SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
	set_config('hnsw.ef_search', @ef_search::text, true), set_config('hnsw.max_scan_tuples', '100000', true),
	set_config('enable_sort', 'off', true), set_config('jit', 'off', true),
	set_config('plan_cache_mode', 'force_custom_plan', true);

-- name: KeywordTerms :many
-- Each lexeme of the query text (@ts_config always explicit, never
-- default_text_search_config; stop words yield none) with its document
-- frequency in the tenant (0 when no chunk has it) and the tenant's chunk
-- count: the inputs of the keyword leg's idf-based confidence. readable
-- says whether a chunk the caller can read has the lexeme (the postings
-- policy filters by the caller's principals; term_stats counts hidden
-- chunks too): the words a refusal names as in no document must not reveal
-- that a hidden document has them. optional says the lexeme is not one of
-- @required's (the question's own terms; the rest are alternatives the
-- search adds, the alternative forms of analyze.Alternates; a sub-select, so parsed once per
-- statement, not once per lexeme).
SELECT q.lexeme, coalesce(t.df, 0)::int8 AS df, coalesce(s.chunk_count, 0)::int8 AS chunk_count,
       EXISTS (SELECT 1 FROM postings p WHERE p.tenant_id = @tenant_id AND p.lexeme = q.lexeme) AS readable,
       q.lexeme <> ALL ((SELECT tsvector_to_array(to_tsvector(CAST(@ts_config::text AS regconfig), @required::text)))::text[]) AS optional
FROM unnest(tsvector_to_array(to_tsvector(CAST(@ts_config::text AS regconfig), @query::text))) AS q (lexeme)
LEFT JOIN term_stats t ON t.tenant_id = @tenant_id AND t.lexeme = q.lexeme
LEFT JOIN tenant_stats s ON s.tenant_id = @tenant_id;
