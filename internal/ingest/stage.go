package ingest

import "context"

// Stage is how far Upsert has taken a document. Background jobs record it
// per document (internal/job).
type Stage string

// Stages Upsert reports, in order, for a document it (re-)indexes. A
// document found unchanged reports none.
const (
	// StageExtracted: the text is extracted.
	StageExtracted Stage = "extracted"
	// StageChunked: the text is split into chunks.
	StageChunked Stage = "chunked"
	// StageEmbedded: every chunk has its embedding (from the cache or the model).
	StageEmbedded Stage = "embedded"
)

type stageKey struct{}

// WithStageObserver returns a context under which Upsert calls fn each time
// it reaches a Stage, synchronously, from the goroutine that called Upsert.
// fn's error aborts the Upsert with that error before anything is stored
// (a job worker that lost its claim stops this way).
func WithStageObserver(ctx context.Context, fn func(Stage) error) context.Context {
	return context.WithValue(ctx, stageKey{}, fn)
}

// reached tells ctx's stage observer, if any, that s is reached.
func reached(ctx context.Context, s Stage) error {
	if fn, ok := ctx.Value(stageKey{}).(func(Stage) error); ok && fn != nil {
		return fn(s)
	}
	return nil
}

type fileKey struct{}

// FileObserver receives each file's result in IngestFiles: the outcome, or
// the error that made it a failure.
type FileObserver func(f File, out Outcome, err error)

// WithFileObserver returns a context under which IngestFiles calls fn once
// per file when it is done, from the worker goroutine that ingested it
// (concurrently when workers > 1). `ragd ingest` records its runs this way.
func WithFileObserver(ctx context.Context, fn FileObserver) context.Context {
	return context.WithValue(ctx, fileKey{}, fn)
}

func fileDone(ctx context.Context, f File, out Outcome, err error) {
	if fn, ok := ctx.Value(fileKey{}).(FileObserver); ok && fn != nil {
		fn(f, out, err)
	}
}
