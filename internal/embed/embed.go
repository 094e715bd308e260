// Package embed turns text into dense vectors for the vector leg of retrieval.
//
// Every Embedder is named after the model that produced its vectors; the name is
// the key of the embedding_models registry in the database, so vectors of
// different models are never compared or stored in the same index.
package embed

import (
	"context"
	"errors"
)

// ErrEmptyInput is returned when a text to embed is empty (or has no tokens
// after normalisation). An empty text has no meaning to embed; callers must
// drop it before embedding.
var ErrEmptyInput = errors.New("embed: empty input text")

// ErrModelMissing is returned by NewLocal when the model files are not on disk.
var ErrModelMissing = errors.New("embed: model files missing")

// Embedder maps a batch of texts to one vector each.
//
// Embed returns len(texts) vectors, each of length Dims(), in input order.
// Vectors are unit L2 norm, so cosine similarity equals the inner product.
// Errors: ErrEmptyInput if any text is empty; transport or model errors wrapped
// with context. Implementations are safe for concurrent use.
type Embedder interface {
	// Model is the registry name of the model, e.g. "use-lite".
	Model() string
	// Dims is the length of every returned vector.
	Dims() int
	// Embed embeds texts in one call; see the interface comment for the contract.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
