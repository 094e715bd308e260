package store

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// The dedicated vector indexes' DDL and catalog reads (vindex.Ensure
// decides which indexes to build or drop; the static queries are in
// queries/indexes.sql). DDL takes no bind parameters, so the statements are
// templates (template.go): only a validated index name, an integer typmod,
// a model id and a uuid literal are filled in.
//
// The graph is built over the vectors cast to halfvec (16-bit floats): an
// HNSW walk reads half the index pages it reads over 32-bit vectors, the
// graph of a large tenant stays in memory at half the size, and pgvector
// indexes halfvec up to 4,000 dimensions where it indexes vector only up to
// 2,000 (API models of 3,072 dimensions could not be indexed at all). The
// stored vectors keep full precision and the vector leg re-ranks the walk's
// candidates by the exact distance (hnswVectorTemplate).
const (
	createVectorIndexTemplate = `CREATE INDEX IF NOT EXISTS /* TEMPLATE: name */ ON chunk_embeddings
    USING hnsw ((embedding::halfvec(/* TEMPLATE: dims */)) halfvec_cosine_ops) WITH (m = 16, ef_construction = 128)
    WHERE model_id = /* TEMPLATE: model_id */ AND tenant_id = /* TEMPLATE: tenant_id */`
	createVectorIndexConcurrentlyTemplate = `CREATE INDEX CONCURRENTLY IF NOT EXISTS /* TEMPLATE: name */ ON chunk_embeddings
    USING hnsw ((embedding::halfvec(/* TEMPLATE: dims */)) halfvec_cosine_ops) WITH (m = 16, ef_construction = 128)
    WHERE model_id = /* TEMPLATE: model_id */ AND tenant_id = /* TEMPLATE: tenant_id */`
	dropIndexTemplate             = `DROP INDEX IF EXISTS /* TEMPLATE: name */`
	dropIndexConcurrentlyTemplate = `DROP INDEX CONCURRENTLY IF EXISTS /* TEMPLATE: name */`

	// listVectorIndexes returns the indexes on chunk_embeddings whose name
	// starts with $1, and whether each is valid; an index that a build still
	// works on (one whose client went away: the server goes on) counts as
	// valid, so it is not rebuilt under that build. Written here because
	// sqlc's catalog has no pg_stat_progress_create_index.
	listVectorIndexes = `SELECT c.relname, i.indisvalid OR EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = c.oid)
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE i.indrelid = 'chunk_embeddings'::regclass AND starts_with(c.relname, $1)`
)

// VectorIndex is an index on chunk_embeddings and whether it is valid (or
// still being built).
type VectorIndex struct {
	Name  string
	Valid bool
}

// ListVectorIndexes returns the indexes on chunk_embeddings whose name starts
// with prefix (run as the owner role).
func ListVectorIndexes(ctx context.Context, db DBTX, prefix string) ([]VectorIndex, error) {
	rows, err := db.Query(ctx, listVectorIndexes, prefix)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[VectorIndex])
}

// MaxIndexDims is the most dimensions an HNSW index over halfvec can have
// (pgvector's limit); a model with more is searched by exact scans only.
const MaxIndexDims = 4000

// CreateVectorIndexSQL is the DDL of the partial HNSW index name over
// tenant's vectors of model modelID (dims dimensions, cast to halfvec,
// cosine), built with CREATE INDEX CONCURRENTLY when concurrently. Errors:
// ErrTemplate for a name that is not a plain identifier, dims outside
// 1-MaxIndexDims or a model id below 1.
func CreateVectorIndexSQL(name string, dims int, modelID int16, tenant uuid.UUID, concurrently bool) (string, error) {
	ident, err := TemplateIdent(name)
	if err != nil {
		return "", err
	}
	if dims < 1 || dims > MaxIndexDims {
		return "", fmt.Errorf("%w: %d dimensions", ErrTemplate, dims)
	}
	if modelID < 1 {
		return "", fmt.Errorf("%w: model id %d", ErrTemplate, modelID)
	}
	tmpl := createVectorIndexTemplate
	if concurrently {
		tmpl = createVectorIndexConcurrentlyTemplate
	}
	return renderTemplate(tmpl, map[string]TemplateValue{
		"name": ident, "dims": TemplateInt(int64(dims)), "model_id": TemplateInt(int64(modelID)), "tenant_id": TemplateUUID(tenant),
	})
}

// CreateVectorIndex runs CreateVectorIndexSQL on db (the owner role; with
// concurrently, outside any transaction).
func CreateVectorIndex(ctx context.Context, db DBTX, name string, dims int, modelID int16, tenant uuid.UUID, concurrently bool) error {
	sql, err := CreateVectorIndexSQL(name, dims, modelID, tenant, concurrently)
	if err != nil {
		return err
	}
	_, err = db.Exec(ctx, sql)
	return err
}

// DropIndex drops the index name if it exists (the owner role; with
// concurrently, DROP INDEX CONCURRENTLY, outside any transaction). Errors:
// ErrTemplate for a name that is not a plain identifier, or the server's.
func DropIndex(ctx context.Context, db DBTX, name string, concurrently bool) error {
	ident, err := TemplateIdent(name)
	if err != nil {
		return err
	}
	tmpl := dropIndexTemplate
	if concurrently {
		tmpl = dropIndexConcurrentlyTemplate
	}
	sql, err := renderTemplate(tmpl, map[string]TemplateValue{"name": ident})
	if err != nil {
		return err
	}
	_, err = db.Exec(ctx, sql)
	return err
}
