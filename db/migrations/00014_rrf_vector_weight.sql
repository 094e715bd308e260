-- Tenants that migration 00012 kept on Reciprocal Rank Fusion (they had
-- stored vector_weight, keyword_weight or rrf_k) calibrated those against
-- the RRF era's default vector weight, 1. Since 00012 an unset vector
-- weight is the embedding model's prior (0.25 for use-lite), so a tenant
-- that stored only rrf_k or keyword_weight changed meaning: its vector leg
-- counted a quarter of what it did. The RRF era's default is stored
-- explicitly for them. (A tenant that chose rrf after 00012 without a
-- vector weight gets 1 as well, the weight RRF was measured with.)

-- +goose Up
UPDATE tenants SET settings = settings || '{"vector_weight": 1}'::jsonb
WHERE settings->>'fusion' = 'rrf' AND coalesce(settings->'vector_weight', 'null'::jsonb) = 'null'::jsonb;

-- +goose Down
-- The stored weight is the one the code before 00012 used anyway: nothing
-- to undo.
SELECT 1;
