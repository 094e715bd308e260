package store

import "context"

// deferEmbeddingChunkFK is hand-written: sqlc cannot parse SET CONSTRAINTS.
const deferEmbeddingChunkFK = "SET CONSTRAINTS chunk_embeddings_tenant_id_chunk_id_fkey DEFERRED"

// DeferEmbeddingChunkFK lets the write transaction tx insert embeddings
// before their chunks: the foreign key from chunk_embeddings to chunks
// (DEFERRABLE since migration 00007) is then checked at COMMIT. It lasts to
// the end of the transaction. Errors: the server's, untranslated (as inside
// any InTenant callback).
func DeferEmbeddingChunkFK(ctx context.Context, tx DBTX) error {
	_, err := tx.Exec(ctx, deferEmbeddingChunkFK)
	return err
}
