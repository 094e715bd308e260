// Package job runs background ingestion: a job (an ingestion_batches row) is
// many documents (ingestion_items rows), each carried through the
// single-document pipeline (ingest.Pipeline.Upsert) by `ragd serve`'s
// workers, with its stage recorded: queued → extracted → chunked → embedded
// → stored, or unchanged, skipped (a type ragd does not read) or failed with
// the reason.
//
// Why it is built this way (docs/ARCHITECTURE.md, "Ingestion jobs"):
//
//   - Durable: the uploaded bytes are stored with the item (bytea) until it
//     is final, so a job survives a crash or restart of every server.
//   - Claiming across tenants without weakening isolation: every job table is
//     under the same forced row-level security as the documents. A worker
//     finds its next item through claim_ingestion_item (migration 00019), a
//     SECURITY DEFINER function that returns only (tenant, job, idx, claim
//     token); the worker then reads and writes the item in an ordinary tenant
//     transaction.
//   - Fair: the function serves the tenant with claimable work that was
//     served least recently, so one tenant's 10,000-file job and another's
//     single document alternate rather than queue.
//   - Resumable and idempotent: a claim is a lease. A worker renews it while
//     it works and every update carries the claim token, so a worker that
//     died (its lease expires) or lost its claim can never overwrite the
//     item; the next claim re-runs the document from its bytes, and Upsert's
//     content-hash check makes a document already stored "unchanged". A
//     document is written in one transaction, so a worker killed mid-document
//     leaves the old version or the new one, never a mix.
//   - Bounded: a fixed number of workers per server (RAGD_INGEST_WORKERS),
//     at most MaxAttempts claims per item, then failed with the reason.
package job
