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
	// ErrInvalidSourceURI: empty or blank, longer than 2048 bytes, with control
	// characters, or a javascript:, vbscript: or data: URI.
	ErrInvalidSourceURI = errors.New("ingest: invalid source_uri")
	// ErrInvalidMetadata: metadata is not a JSON object or too large.
	ErrInvalidMetadata = errors.New("ingest: invalid metadata")
	// ErrInvalidTitle: a title over 1000 bytes, not UTF-8, with a control
	// character (a line break included) or only blanks.
	ErrInvalidTitle = errors.New("ingest: invalid title")
	// ErrNotFound: delete of a document the tenant does not have.
	ErrNotFound = errors.New("ingest: document not found")
	// ErrInvalidAccess: the access list is not a list of principals
	// (wraps auth.ErrInvalidAccess).
	ErrInvalidAccess = errors.New("ingest: invalid access list")
	// ErrHidden: the source_uri belongs to a document the writer's
	// principals cannot read, so it cannot be replaced by this writer.
	ErrHidden = errors.New("ingest: source_uri is taken by a document you cannot access")
	// ErrEmbedding: the embedding model or API failed (after its retries);
	// nothing was stored and the request can be retried later.
	ErrEmbedding = errors.New("ingest: embedding failed")
)

// Document is one document to upsert. A write changes only the fields it
// names; see Pipeline.Upsert.
type Document struct {
	SourceURI string
	// Title, when non-empty, names the title (kept by later writes that
	// name none); empty keeps a named title, else derives it from the
	// content.
	Title string
	// ContentType is the declared type: text/markdown, text/html,
	// text/plain (or markdown, html, text), application/pdf, the DOCX type,
	// optionally with a charset parameter; empty or
	// application/octet-stream lets the bytes and the source_uri decide
	// (extract.Detect).
	ContentType string
	Content     []byte
	// FromText marks Content as taken from a Unicode string (a JSON text
	// field): it is UTF-8 already, so no charset applies, and binary bytes
	// in it are ErrBinary rather than a file to sniff.
	FromText bool
	// Metadata replaces the stored metadata when non-nil (an empty map
	// clears it); nil keeps it ({} for a new document).
	Metadata map[string]any
	// Access is the document's access list (auth.NormalizeAccess: principals
	// "user:<id>", "group:<name>"; empty = everyone in the tenant), applied
	// only when SetAccess is true. A write that does not set it keeps the
	// stored list (a new document is then tenant-wide): a re-index never
	// changes permissions it was not told to.
	Access    []string
	SetAccess bool
	// MaxChunks, when positive, refuses (ErrTooLarge) a document of more
	// chunks: a synchronous write embeds them within its request's
	// deadline, and a document it cannot finish is better refused at once,
	// pointing to ingestion jobs, than timed out after a minute's work.
	MaxChunks int
	// FromFiles marks a file a `ragd ingest` run read: a later run's prune
	// (Prune) may delete the document once its file is gone. Every other
	// write (the API, ingestion jobs) leaves it false, and no prune deletes
	// what it stored. The last write decides, an unchanged one too.
	FromFiles bool
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
