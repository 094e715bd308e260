// Package ingest is the indexing half of ragd: extract → chunk → embed → store,
// one transaction per document, idempotent by content hash.
package ingest

import (
	"errors"

	"github.com/google/uuid"
)

// Status says what Upsert did with a document.
type Status string

// Statuses.
const (
	StatusAdded     Status = "added"
	StatusUpdated   Status = "updated"
	StatusUnchanged Status = "unchanged"
)

// Errors returned by Upsert (besides the extract package's ErrUnsupportedType,
// ErrInvalidUTF8, ErrBinary, ErrEmpty, ErrNoTextLayer and ErrUnreadable,
// which pass through wrapped).
var (
	// ErrTooLarge: the content exceeds Pipeline.MaxBytes.
	ErrTooLarge = errors.New("ingest: document too large")
	// ErrInvalidSourceURI: empty, longer than 2048 bytes, or with control characters.
	ErrInvalidSourceURI = errors.New("ingest: invalid source_uri")
	// ErrInvalidMetadata: metadata is not a JSON object or too large.
	ErrInvalidMetadata = errors.New("ingest: invalid metadata")
	// ErrNotFound: delete of a document the tenant does not have.
	ErrNotFound = errors.New("ingest: document not found")
	// ErrEmbedding: the embedding model or API failed (after its retries);
	// nothing was stored and the request can be retried later.
	ErrEmbedding = errors.New("ingest: embedding failed")
)

// Document is one document to upsert.
type Document struct {
	SourceURI string
	// Title overrides the extracted title when non-empty.
	Title string
	// ContentType: text/markdown, text/html, text/plain, application/pdf, the
	// DOCX type (or markdown, html, text, pdf, docx); see extract.CanonicalType.
	ContentType string
	Content     []byte
	Metadata    map[string]any
}

// Outcome is the result of one Upsert.
type Outcome struct {
	DocumentID uuid.UUID `json:"id"`
	SourceURI  string    `json:"source_uri"`
	Status     Status    `json:"status"`
	Chunks     int       `json:"chunks"`
	// Embedded is how many chunk texts were sent to the model (cache misses).
	Embedded int `json:"embedded"`
}
