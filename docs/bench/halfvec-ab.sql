-- The vector leg's HNSW walk, the index over vector(512) against the one over halfvec(512)
-- with exact re-ranking, on one tenant, as the application role (docs/BENCHMARKS.md,
-- "Vector indexes over halfvec"). Both indexes must exist: the halfvec one is
-- vindex.Ensure's, the vector one its former DDL (ce_hnsw_<model>_<tenant hex>).
-- psql "$RAGD_DATABASE_URL" -v t=<tenant uuid> -v nq=100 -v passes=3 -v n=50 -f docs/bench/halfvec-ab.sql
\set ON_ERROR_STOP on
-- One transaction, every setting transaction-local (set_config(…, true)), as
-- ragd sets the tenant: nothing outlives the run on the connection.
BEGIN;
SELECT set_config('app.tenant_id', :'t', true), set_config('app.principals', '*', true), set_config('ab.n', :'n', true), set_config('ab.nq', :'nq', true), set_config('ab.passes', :'passes', true);
DO $$
DECLARE
  t uuid := current_setting('app.tenant_id')::uuid;
  qs vector[]; q vector; t0 timestamptz; n int := current_setting('ab.n')::int; nq int := current_setting('ab.nq')::int; passes int := current_setting('ab.passes')::int;
  old_ms float8[] := '{}'; new_ms float8[] := '{}';
  rec_old float8 := 0; rec_new float8 := 0; cnt int := 0;
  a uuid[]; b uuid[]; ex uuid[]; pass int; i int; ms float8;
  sql_old text; sql_new text; sql_ex text;
BEGIN
  PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', (least(1000, greatest(100, 4*n)))::text, true),
    set_config('hnsw.max_scan_tuples', '100000', true), set_config('enable_sort', 'off', true), set_config('jit', 'off', true);
  SELECT array_agg(l2_normalize(x.e + y.e)) INTO qs FROM
    (SELECT embedding e, row_number() OVER () r FROM (SELECT embedding FROM chunk_embeddings WHERE tenant_id = t AND model_id = 1 ORDER BY hashtext(chunk_id::text) LIMIT nq) s) x
    JOIN (SELECT embedding e, row_number() OVER () r FROM (SELECT embedding FROM chunk_embeddings WHERE tenant_id = t AND model_id = 1 ORDER BY hashtext(chunk_id::text || 'x') LIMIT nq) s) y USING (r);
  sql_old := format($q$SELECT array_agg(chunk_id ORDER BY d, chunk_id) FROM (SELECT w.chunk_id, w.d FROM (
      SELECT e.chunk_id, e.embedding::vector(512) <=> $1::vector(512) AS d FROM chunk_embeddings e
      WHERE e.tenant_id = %L AND e.model_id = 1 ORDER BY e.embedding::vector(512) <=> $1::vector(512) LIMIT %s) w
      ORDER BY w.d, w.chunk_id LIMIT %s) z$q$, t, 2*n, n);
  sql_new := format($q$SELECT array_agg(chunk_id ORDER BY d, chunk_id) FROM (SELECT w.chunk_id, w.embedding <=> $1::vector(512) AS d FROM (
      SELECT e.chunk_id, e.embedding FROM chunk_embeddings e
      WHERE e.tenant_id = %L AND e.model_id = 1 ORDER BY e.embedding::halfvec(512) <=> ($1::vector(512))::halfvec(512) LIMIT %s) w
      ORDER BY 2, 1 LIMIT %s) z$q$, t, 2*n, n);
  sql_ex := format($q$SELECT array_agg(chunk_id ORDER BY d, chunk_id) FROM (SELECT e.chunk_id, e.embedding <=> $1 AS d FROM chunk_embeddings e
      WHERE e.tenant_id = %L AND e.model_id = 1 ORDER BY 2, 1 LIMIT 20) z$q$, t);
  FOR pass IN 1..passes LOOP
    old_ms := '{}'; new_ms := '{}'; rec_old := 0; rec_new := 0; cnt := 0;
    FOR i IN 1..array_length(qs, 1) LOOP
      q := qs[i];
      IF i % 2 = 0 THEN
        t0 := clock_timestamp(); EXECUTE sql_old INTO a USING q; old_ms := old_ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
        t0 := clock_timestamp(); EXECUTE sql_new INTO b USING q; new_ms := new_ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
      ELSE
        t0 := clock_timestamp(); EXECUTE sql_new INTO b USING q; new_ms := new_ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
        t0 := clock_timestamp(); EXECUTE sql_old INTO a USING q; old_ms := old_ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
      END IF;
      IF pass = 1 THEN
        PERFORM set_config('enable_sort', 'on', true);
        EXECUTE sql_ex INTO ex USING q;
        PERFORM set_config('enable_sort', 'off', true);
        rec_old := rec_old + (SELECT count(*) FROM unnest(a[1:20]) x WHERE x = ANY (ex)) / 20.0;
        rec_new := rec_new + (SELECT count(*) FROM unnest(b[1:20]) x WHERE x = ANY (ex)) / 20.0;
        cnt := cnt + 1;
      END IF;
    END LOOP;
    RAISE NOTICE 'pass % n=% old p50 % p95 % p99 % | new p50 % p95 % p99 %', pass, n,
      round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(old_ms) x)::numeric, 2),
      round((SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY x) FROM unnest(old_ms) x)::numeric, 2),
      round((SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY x) FROM unnest(old_ms) x)::numeric, 2),
      round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(new_ms) x)::numeric, 2),
      round((SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY x) FROM unnest(new_ms) x)::numeric, 2),
      round((SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY x) FROM unnest(new_ms) x)::numeric, 2);
    IF pass = 1 THEN
      RAISE NOTICE 'recall@20 vs exact: old % new %', round((rec_old / cnt)::numeric, 4), round((rec_new / cnt)::numeric, 4);
    END IF;
  END LOOP;
END $$;
COMMIT;
