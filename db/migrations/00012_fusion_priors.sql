-- Fusion that is safe without calibration. Each embedding model carries the
-- vector leg's default fusion weight against the keyword leg's 1
-- (embedding_models.vector_weight), learned on public benchmarks, never on a
-- tenant's questions (docs/EVAL.md, "Fusion"): the local USE-lite model is
-- far weaker than BM25 outside short English text, so it counts a quarter
-- as much (a convex weight of 0.2); a model registered without a measured
-- prior counts as much as the keyword leg.
--
-- The default fusion becomes a convex combination of normalised scores.
-- Tenants that stored their own RRF weights keep them and keep RRF (their
-- settings gain "fusion": "rrf"), so nothing they calibrated changes
-- meaning. The refusal signal (search.Response.Confidence) is now an
-- answerability probability, so a threshold calibrated on the old signal
-- would refuse at random: stored refuse_below values are removed and the
-- tenant gets the default until `ragd eval tune` calibrates it again.

-- +goose Up
ALTER TABLE embedding_models ADD COLUMN vector_weight real NOT NULL DEFAULT 1
    CHECK (vector_weight > 0 AND vector_weight <= 100);
UPDATE embedding_models SET vector_weight = 0.25 WHERE name = 'use-lite';
UPDATE tenants SET settings = settings || '{"fusion": "rrf"}'::jsonb
WHERE settings ?| ARRAY['vector_weight', 'keyword_weight', 'rrf_k'] AND NOT settings ? 'fusion';
UPDATE tenants SET settings = settings - 'refuse_below' WHERE settings ? 'refuse_below';

-- +goose Down
-- Only "rrf" goes (the code before this migration always fuses by RRF and
-- ignores the key): a tenant that chose "convex" keeps that choice, so
-- migrating up again does not turn it into RRF because it stored weights.
UPDATE tenants SET settings = settings - 'fusion' WHERE settings->>'fusion' = 'rrf';
ALTER TABLE embedding_models DROP COLUMN vector_weight;
