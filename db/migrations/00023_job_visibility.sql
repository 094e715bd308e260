-- Ingestion jobs are read like the documents they write: a job is visible
-- to the principal who submitted it and to callers who see every document
-- (the admin role on management routes, operator commands), never to other
-- users of the tenant. A job's source_uris name documents whose access
-- lists may hide them (a `ragd ingest --access` run is recorded as a job),
-- so a tenant-wide job listing would reveal them.
--
-- submitter is the submitting user's principal (user:<subject>); NULL for
-- jobs submitted while every document was visible (an admin, an operator's
-- `ragd ingest` run). principals are the submitter's principals (subject
-- and groups at submission): the worker writes the job's documents as the
-- submitter, so a job can neither read nor replace a document its
-- submitter cannot see. The policies are restrictive and apply to the
-- application role only: the claim function (owner) still finds work
-- across tenants.

-- +goose Up
ALTER TABLE ingestion_batches ADD COLUMN submitter text, ADD COLUMN principals text[];
-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('CREATE POLICY job_visibility ON ingestion_batches AS RESTRICTIVE FOR SELECT TO %I '
                   'USING (sees_all_documents() OR submitter = ANY (current_principals()))', r);
    EXECUTE format('CREATE POLICY job_visibility ON ingestion_items AS RESTRICTIVE FOR SELECT TO %I '
                   'USING (sees_all_documents() OR EXISTS (SELECT 1 FROM ingestion_batches b '
                   'WHERE b.tenant_id = ingestion_items.tenant_id AND b.id = ingestion_items.batch_id))', r);
END $$;
-- +goose StatementEnd

-- +goose Down
DROP POLICY IF EXISTS job_visibility ON ingestion_items;
DROP POLICY IF EXISTS job_visibility ON ingestion_batches;
ALTER TABLE ingestion_batches DROP COLUMN principals, DROP COLUMN submitter;
