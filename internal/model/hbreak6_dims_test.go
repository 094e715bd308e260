package model_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestRegisterModelOfMoreThan2000Dimensions (breaker h-break6):
// docs/ARCHITECTURE.md says the per-(tenant, model) index is HNSW over
// halfvec, which holds "models of up to 4,000 dimensions (an index over
// `vector` stops at 2,000)", and every vector statement casts to the
// model's dimensions. Yet `ragd model register` refuses dims above 2,000
// ("pgvector's HNSW limit", the limit of the retired vector index), and so
// does the embedding_models CHECK of migration 00001: OpenAI's
// text-embedding-3-large (3,072 dimensions) cannot be registered.
func TestRegisterModelOfMoreThan2000Dimensions(t *testing.T) {
	ctx := context.Background()
	m, err := model.Register(ctx, testdb.Owner(t), model.Registration{Name: name("text-embedding-3-large"), Provider: model.ProviderOpenAI,
		Dims: 3072, Endpoint: "http://127.0.0.1:9/v1"})
	if err != nil {
		t.Fatalf("register a 3,072-dimension model: %v (the halfvec HNSW index takes up to 4,000)", err)
	}
	if m.Dims != 3072 {
		t.Errorf("registered dims %d", m.Dims)
	}
}
