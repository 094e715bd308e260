-- Embedding models as a lifecycle. The registry says how each model is
-- served (the local model or an OpenAI-compatible API at an endpoint; its
-- key stays in the configuration, never here), the prefixes e5/bge/nomic-
-- style models need before a query or a document, the most input tokens it
-- reads, and whether it may still be chosen (retired: no tenant may switch
-- to it; tenants already on it keep working). Each tenant has its own
-- active model (NULL: the server's default, RAGD_EMBED_MODEL or the local
-- model) and, during a switch, a target model whose vectors a background
-- re-embed writes from the stored chunks; the active model flips to the
-- target in the transaction that finds the target covering every chunk
-- (internal/model). previous_model_id and model_switched_at say whose
-- vectors the grace period keeps, and since when.

-- +goose Up
ALTER TABLE embedding_models
    ADD COLUMN provider text NOT NULL DEFAULT 'openai-compatible'
        CHECK (provider IN ('local', 'openai-compatible')),
    ADD COLUMN endpoint text NOT NULL DEFAULT ''
        CHECK (endpoint = '' OR (endpoint ~ '^https?://[^\s]+$' AND length(endpoint) <= 2048)),
    ADD COLUMN query_prefix text NOT NULL DEFAULT '' CHECK (length(query_prefix) <= 200),
    ADD COLUMN document_prefix text NOT NULL DEFAULT '' CHECK (length(document_prefix) <= 200),
    ADD COLUMN max_input_tokens int NOT NULL DEFAULT 0 CHECK (max_input_tokens BETWEEN 0 AND 1000000),
    ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
    ADD CONSTRAINT embedding_models_name_check CHECK (length(name) BETWEEN 1 AND 200 AND name !~ '\s');
-- use-lite is the only model the local provider serves; it reads the first
-- 128 tokens of a text. Models registered by hand before this migration
-- were served by RAGD_EMBED_BASE_URL (endpoint '' = that URL).
UPDATE embedding_models SET provider = 'local', max_input_tokens = 128 WHERE name = 'use-lite';

ALTER TABLE tenants
    ADD COLUMN embedding_model_id smallint REFERENCES embedding_models (id),
    ADD COLUMN target_model_id smallint REFERENCES embedding_models (id),
    ADD COLUMN previous_model_id smallint REFERENCES embedding_models (id),
    ADD COLUMN model_switched_at timestamptz,
    ADD COLUMN model_switch_error text NOT NULL DEFAULT '' CHECK (length(model_switch_error) <= 1000);

-- The server's switch worker (application role) records progress errors and
-- flips the active model; it changes no other column of tenants.
-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('GRANT UPDATE (embedding_model_id, target_model_id, previous_model_id, model_switched_at, model_switch_error) ON tenants TO %I', r);
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('REVOKE UPDATE (embedding_model_id, target_model_id, previous_model_id, model_switched_at, model_switch_error) ON tenants FROM %I', r);
END $$;
-- +goose StatementEnd
ALTER TABLE tenants
    DROP COLUMN model_switch_error,
    DROP COLUMN model_switched_at,
    DROP COLUMN previous_model_id,
    DROP COLUMN target_model_id,
    DROP COLUMN embedding_model_id;
ALTER TABLE embedding_models
    DROP CONSTRAINT embedding_models_name_check,
    DROP COLUMN status,
    DROP COLUMN max_input_tokens,
    DROP COLUMN document_prefix,
    DROP COLUMN query_prefix,
    DROP COLUMN endpoint,
    DROP COLUMN provider;
