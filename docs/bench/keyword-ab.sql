-- keyword_search against another function of the same signature, on sampled
-- questions, alternated question by question, inside PostgreSQL as the
-- application role (docs/BENCHMARKS.md, "Per-term score bounds"): nq
-- questions of `terms` lexemes drawn from the tenant's term_stats at their
-- document frequency (fixed seed), three passes, top 50, k1 1.2, b 0.75;
-- p50 / p95 of each function and how many questions' top 50 differ.
-- `hashagg` is passed to the functions as the setting ks.hashagg (a variant
-- may read it; keyword_search does not).
-- psql <the bench database, as the application role> -v t=<tenant uuid> -v nq=60 -v terms=9 -v hashagg=on \
--      -v fa=keyword_search -v fb=<variant> -f docs/bench/keyword-ab.sql
\set ON_ERROR_STOP on
BEGIN;
SELECT set_config('app.tenant_id', :'t', true), set_config('app.principals', '*', true),
       set_config('ab.nq', :'nq', true), set_config('ab.fa', :'fa', true), set_config('ab.fb', :'fb', true), set_config('ab.terms', :'terms', true), set_config('ks.hashagg', :'hashagg', true);
DO $$
DECLARE
  t uuid := current_setting('app.tenant_id')::uuid;
  nq int := current_setting('ab.nq')::int; nt int := current_setting('ab.terms')::int;
  fa text := current_setting('ab.fa'); fb text := current_setting('ab.fb');
  qs text[][]; q text[]; i int; pass int; t0 timestamptz;
  ma float8[]; mb float8[]; ra uuid[]; rb uuid[]; sa float8[]; sb float8[]; diff int := 0;
BEGIN
  PERFORM setseed(0.42);
  FOR i IN 1..nq LOOP
    SELECT array_agg(lexeme) INTO q FROM (SELECT lexeme FROM term_stats WHERE tenant_id = t ORDER BY -ln(random())/df LIMIT nt) s;
    qs := qs || ARRAY[q];
  END LOOP;
  FOR pass IN 1..3 LOOP
    ma := '{}'; mb := '{}'; diff := 0;
    FOR i IN 1..nq LOOP
      q := qs[i:i][:]; q := ARRAY(SELECT unnest(q));
      t0 := clock_timestamp();
      EXECUTE format('SELECT array_agg(chunk_id ORDER BY score DESC, chunk_id), array_agg(score ORDER BY score DESC, chunk_id) FROM %I($1, $2, 1.2, 0.75, 150, 50, false, NULL, NULL)', fa) INTO ra, sa USING t, q;
      ma := ma || extract(epoch FROM clock_timestamp() - t0) * 1000;
      t0 := clock_timestamp();
      EXECUTE format('SELECT array_agg(chunk_id ORDER BY score DESC, chunk_id), array_agg(score ORDER BY score DESC, chunk_id) FROM %I($1, $2, 1.2, 0.75, 150, 50, false, NULL, NULL)', fb) INTO rb, sb USING t, q;
      mb := mb || extract(epoch FROM clock_timestamp() - t0) * 1000;
      IF ra IS DISTINCT FROM rb OR sa IS DISTINCT FROM sb THEN diff := diff + 1; END IF;
    END LOOP;
    RAISE NOTICE 'pass %: % p50 % p95 % | % p50 % p95 % | differing top-50: %', pass,
      fa, round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ma) x)::numeric, 1), round((SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY x) FROM unnest(ma) x)::numeric, 1),
      fb, round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(mb) x)::numeric, 1), round((SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY x) FROM unnest(mb) x)::numeric, 1), diff;
  END LOOP;
END $$;
ROLLBACK;
