package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Stages of a document in a job. The first five are in order; stored and
// the last four are final. skipped, refused and failed follow ingest.KindOf:
// not a document ragd reads, refused by a policy, an error.
const (
	StageQueued    = "queued"
	StageExtracted = string(ingest.StageExtracted)
	StageChunked   = string(ingest.StageChunked)
	StageEmbedded  = string(ingest.StageEmbedded)
	StageStored    = "stored"
	StageUnchanged = "unchanged"
	StageSkipped   = "skipped"
	StageRefused   = "refused"
	StageFailed    = "failed"
)

// Job statuses (Job.Status), derived from its documents' stages.
const (
	// StatusQueued: no worker has taken any document yet (those refused at
	// submission aside).
	StatusQueued = "queued"
	// StatusRunning: some documents are done or in progress, some are not.
	StatusRunning = "running"
	// StatusCompleted: every document is final and none failed (some may
	// be skipped or refused, as `ragd ingest` succeeds with them).
	StatusCompleted = "completed"
	// StatusCompletedWithFailures: every document is final, some failed.
	StatusCompletedWithFailures = "completed_with_failures"
)

// Origins of a job (Job.Origin).
const (
	// OriginAPI: POST /v1/ingest/jobs, worked by `ragd serve`.
	OriginAPI = "api"
	// OriginCLI: a `ragd ingest` run, processed by that command and recorded.
	OriginCLI = "cli"
)

// Errors.
var (
	// ErrNotFound: no such job for this tenant (also another tenant's id).
	ErrNotFound = errors.New("job: not found")
	// ErrInvalid: the job's input is refused (no files, a duplicate
	// source_uri, an unsafe archive entry path, ...); the message says why.
	ErrInvalid = errors.New("job: invalid job")
	// ErrTooLarge: the job exceeds Limits (total bytes or file count).
	ErrTooLarge = errors.New("job: too large")
)

// Upserter stores one document; *ingest.Pipeline is the production one, so
// every change to the single-document path applies to jobs as well.
type Upserter interface {
	Upsert(ctx context.Context, t tenant.Tenant, d ingest.Document) (ingest.Outcome, error)
}

// File is one document submitted in a job.
type File struct {
	// SourceURI is the document's identifier (validated by the pipeline).
	SourceURI string
	// ContentType is the type to read it as (a canonical MIME type).
	ContentType string
	// Content is the document's bytes.
	Content []byte
	// Metadata is stored with the document; nil stores none.
	Metadata map[string]any
	// Skip, Refuse and Fail, when not empty, record the file as skipped,
	// refused or failed with this reason (ingest.Kind) and store none of
	// its bytes: a `ragd ingest` walk's outcomes, a file over the size limit.
	Skip, Refuse, Fail string
	// Size is the file's size when Content does not hold it (a skipped or
	// failed file); the larger of the two is recorded.
	Size int64
	// entry is an archive entry's path in the archive (Archive).
	entry string
	// head is the start of a refused entry's bytes (its Content is not
	// kept), by which skipBuildFiles tells a build's generated page.
	head []byte
}

// Job is a job's state: what was submitted and how far its documents are.
type Job struct {
	ID        uuid.UUID  `json:"id" doc:"Job id."`
	Origin    string     `json:"origin" enum:"api,cli" doc:"api: submitted to POST /v1/ingest/jobs; cli: a ragd ingest run, recorded."`
	Label     string     `json:"label,omitempty" doc:"What was submitted: the archive's file name, or the paths of a ragd ingest run."`
	Status    string     `json:"status" enum:"queued,running,completed,completed_with_failures" doc:"Derived from the documents' stages."`
	Total     int        `json:"total" doc:"Documents in the job."`
	Done      int        `json:"done" doc:"Documents in a final stage (stored, unchanged, skipped, refused, failed)."`
	Progress  float64    `json:"progress" doc:"done / total, 0 to 1 (1 for an empty job)."`
	Queued    int        `json:"queued" doc:"Documents not started (or waiting for a retry)."`
	Running   int        `json:"running" doc:"Documents past queued and not final (extracted, chunked or embedded)."`
	Stored    int        `json:"stored" doc:"Documents added or updated."`
	Unchanged int        `json:"unchanged" doc:"Documents whose content and pipeline were unchanged: nothing re-embedded."`
	Skipped   int        `json:"skipped" doc:"Files that are not documents ragd reads (their type, e.g. an image); each has its reason."`
	Refused   int        `json:"refused" doc:"Files a policy refused (over the size limit, an invalid source_uri); each has its reason."`
	Failed    int        `json:"failed" doc:"Documents that failed (an error: not valid text, empty, the embedding model gave up); each has its reason."`
	Chunks    int64      `json:"chunks" doc:"Chunks of the stored and unchanged documents."`
	Bytes     int64      `json:"bytes" doc:"Bytes submitted."`
	CreatedAt time.Time  `json:"created_at"`
	Finished  *time.Time `json:"finished_at,omitempty" doc:"When the last document reached a final stage."`
}

// Item is one document of a job.
type Item struct {
	Index       int        `json:"index" doc:"Position in the job (0-based): the order of the upload or archive."`
	SourceURI   string     `json:"source_uri"`
	ContentType string     `json:"content_type,omitempty"`
	Size        int64      `json:"size_bytes"`
	Stage       string     `json:"stage" enum:"queued,extracted,chunked,embedded,stored,unchanged,skipped,refused,failed" doc:"queued → extracted → chunked → embedded → stored; or unchanged, skipped (not a type ragd reads), refused (a policy: too large) or failed (an error); see error."`
	Outcome     string     `json:"outcome,omitempty" enum:"added,updated,unchanged" doc:"What storing did: added (new source_uri), updated or unchanged."`
	DocumentID  *uuid.UUID `json:"document_id,omitempty"`
	Chunks      int        `json:"chunks"`
	Error       string     `json:"error,omitempty" doc:"Why the document was skipped, refused or failed; for a queued document, why its last attempt failed (it will be retried)."`
	Attempts    int        `json:"attempts" doc:"Times a worker claimed it."`
	UpdatedAt   time.Time  `json:"updated_at"`
	Finished    *time.Time `json:"finished_at,omitempty"`
}

// Final reports whether stage is final (stored, unchanged, skipped,
// refused, failed).
func Final(stage string) bool {
	switch stage {
	case StageStored, StageUnchanged, StageSkipped, StageRefused, StageFailed:
		return true
	}
	return false
}

// Options configure a Service. Zero fields take the defaults.
type Options struct {
	// Workers is how many documents one server processes at once (default
	// DefaultWorkers; RAGD_INGEST_WORKERS).
	Workers int
	// Lease is how long a claim lasts without renewal (default
	// DefaultLease; RAGD_INGEST_LEASE); a worker renews it every Lease/3
	// while it works, so it only bounds how soon a dead worker's item is
	// taken again.
	Lease time.Duration
	// MaxAttempts is how many claims an item gets before it fails (default
	// DefaultMaxAttempts).
	MaxAttempts int
	// RetryDelay is the wait before the second attempt after a transient
	// failure (the embedding provider, the database), doubling per attempt
	// (default DefaultRetryDelay).
	RetryDelay time.Duration
	// Poll is how often an idle worker looks for work (default
	// DefaultPoll); a job created through this Service wakes its workers at
	// once.
	Poll time.Duration
	// DocumentTimeout bounds one attempt at a document of a job:
	// extracting, chunking, embedding and storing it (default
	// DefaultDocumentTimeout; RAGD_INGEST_DOCUMENT_TIMEOUT). An attempt that
	// takes longer ends, and the document is retried like any transient
	// failure (the time may have gone waiting for another writer's lock or
	// a slow provider), failing with a reason that names the timeout once
	// MaxAttempts are used; the worker goes on with the next document.
	// Without it, one pathological file held a worker as long as it liked
	// while its lease kept being renewed, and every tenant's jobs waited
	// behind it.
	DocumentTimeout time.Duration
	// Tenants, when not empty, limits the workers to these tenants'
	// items (dedicated workers; tests).
	Tenants []uuid.UUID
	// Logger receives worker errors (default slog.Default()).
	Logger *slog.Logger
	// OnStored, when set, is told how many chunk texts each stored document
	// sent to the embedding model (the tenant's usage counter, as a PUT's).
	OnStored func(tenantID uuid.UUID, embedded int)
}

// Defaults of Options.
const (
	DefaultWorkers     = 2
	DefaultLease       = 2 * time.Minute
	DefaultMaxAttempts = 5
	DefaultRetryDelay  = 5 * time.Second
	DefaultPoll        = 2 * time.Second
	// DefaultDocumentTimeout: the largest document a job takes
	// (RAGD_MAX_BODY_BYTES of text, about 6,000 chunks) embeds with the
	// local model in about 4 minutes on two shared cores, at 25 chunks per
	// second; 15 minutes leaves room for a slower provider.
	DefaultDocumentTimeout = 15 * time.Minute
)

// Service creates, reads and works ingestion jobs. Safe for concurrent use.
type Service struct {
	pool *pgxpool.Pool
	up   Upserter
	opt  Options
	log  *slog.Logger
	wake chan struct{}
}

// New returns a Service on pool (the application role) that stores
// documents through up.
func New(pool *pgxpool.Pool, up Upserter, opt Options) *Service {
	if opt.Workers <= 0 {
		opt.Workers = DefaultWorkers
	}
	if opt.Lease <= 0 {
		opt.Lease = DefaultLease
	}
	if opt.MaxAttempts <= 0 {
		opt.MaxAttempts = DefaultMaxAttempts
	}
	if opt.RetryDelay <= 0 {
		opt.RetryDelay = DefaultRetryDelay
	}
	if opt.Poll <= 0 {
		opt.Poll = DefaultPoll
	}
	if opt.DocumentTimeout <= 0 {
		opt.DocumentTimeout = DefaultDocumentTimeout
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	return &Service{pool: pool, up: up, opt: opt, log: opt.Logger, wake: make(chan struct{}, 1)}
}

// itemSlice bounds one INSERT of items: rows and bytes.
const (
	itemSliceRows  = 500
	itemSliceBytes = 32 << 20
)

// Create records a job of files for tenant t in one transaction (the batch
// row and every item with its bytes) and wakes this server's workers. With
// origin OriginCLI the bytes are not stored (the command processes its own
// files; Record writes their outcomes). Errors: ErrInvalid (no files, a
// source_uri twice), store errors.
func (s *Service) Create(ctx context.Context, t tenant.Tenant, origin, label string, files []File) (Job, error) {
	if len(files) == 0 {
		return Job{}, fmt.Errorf("%w: no files", ErrInvalid)
	}
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		if seen[f.SourceURI] {
			return Job{}, fmt.Errorf("%w: source_uri %q appears twice", ErrInvalid, f.SourceURI)
		}
		seen[f.SourceURI] = true
	}
	// The label only names what was submitted (an archive's file name, as
	// the client's file system spelt it: Latin-1 from some): made valid
	// text, it never refuses the job.
	if len(label) > 2000 {
		cut := 2000
		for cut > 0 && !utf8.RuneStart(label[cut]) {
			cut-- // not inside a character
		}
		label = label[:cut]
	}
	label = strings.ReplaceAll(strings.ToValidUTF8(label, "\uFFFD"), "\x00", "")
	sub, principals := submitter(store.VisibilityOf(ctx))
	if !sub.Valid && principals != nil {
		return Job{}, fmt.Errorf("%w: a job is visible only to the user who submitted it, and this token names no user (no sub claim)", ErrInvalid)
	}
	q := store.New()
	var id uuid.UUID
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		b, err := q.CreateIngestionBatch(ctx, tx, store.CreateIngestionBatchParams{TenantID: t.ID, Origin: origin, Label: label, Total: int32(len(files)),
			Submitter: sub, Principals: principals})
		if err != nil {
			return err
		}
		id = b.ID
		p := store.InsertIngestionItemsParams{TenantID: t.ID, BatchID: b.ID, QueuedAt: b.CreatedAt}
		size := 0
		flush := func() error {
			if len(p.Idxs) == 0 {
				return nil
			}
			if _, err := q.InsertIngestionItems(ctx, tx, p); err != nil {
				return err
			}
			p = store.InsertIngestionItemsParams{TenantID: t.ID, BatchID: b.ID, QueuedAt: b.CreatedAt}
			size = 0
			return nil
		}
		for i, f := range files {
			stage, content, reason := StageQueued, f.Content, ""
			switch {
			case f.Fail != "":
				stage, content, reason = StageFailed, nil, f.Fail
			case f.Refuse != "":
				stage, content, reason = StageRefused, nil, f.Refuse
			case f.Skip != "":
				stage, content, reason = StageSkipped, nil, f.Skip
			}
			if origin == OriginCLI {
				content = nil
			} else if content == nil && stage == StageQueued {
				content = []byte{} // an empty upload is still the worker's to fail
			}
			var meta []byte
			if f.Metadata != nil {
				if meta, err = json.Marshal(f.Metadata); err != nil {
					return fmt.Errorf("%w: metadata of %s: %v", ErrInvalid, f.SourceURI, err)
				}
			}
			p.Idxs = append(p.Idxs, int32(i))
			p.SourceUris = append(p.SourceUris, f.SourceURI)
			p.ContentTypes = append(p.ContentTypes, f.ContentType)
			p.Metadatas = append(p.Metadatas, meta)
			p.Contents = append(p.Contents, content)
			p.Sizes = append(p.Sizes, max(f.Size, int64(len(f.Content))))
			p.Stages = append(p.Stages, stage)
			p.Errors = append(p.Errors, reason)
			size += len(content)
			if len(p.Idxs) >= itemSliceRows || size >= itemSliceBytes {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
		return q.StampFinalIngestionItems(ctx, tx, store.StampFinalIngestionItemsParams{TenantID: t.ID, BatchID: b.ID})
	})
	if err != nil {
		return Job{}, err
	}
	if origin == OriginAPI {
		s.Wake()
	}
	return s.Get(ctx, t.ID, id)
}

// submitter is who a job created under visibility v belongs to (migration
// 00023): nobody when v sees every document (the job is then visible only
// to such callers), else v's user principal, if any, with all of v's
// principals, as which the worker writes the job's documents (a caller
// with no principals gets an empty, non-NULL list: tenant-wide documents
// only).
func submitter(v store.Visibility) (pgtype.Text, []string) {
	if v.All() {
		return pgtype.Text{}, nil
	}
	ps := append([]string{}, v.Principals()...)
	for _, p := range ps {
		if strings.HasPrefix(p, "user:") {
			return pgtype.Text{String: p, Valid: true}, ps
		}
	}
	return pgtype.Text{}, ps
}

// Wake makes an idle worker of this Service look for work now.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Get returns the tenant's job id. Errors: ErrNotFound, store errors.
func (s *Service) Get(ctx context.Context, tenantID, id uuid.UUID) (Job, error) {
	var row store.GetIngestionBatchRow
	err := store.InTenant(ctx, s.pool, tenantID, func(tx pgx.Tx) error {
		var err error
		row, err = store.New().GetIngestionBatch(ctx, tx, store.GetIngestionBatchParams{TenantID: tenantID, ID: id})
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return Job{}, ErrNotFound
	}
	if err != nil {
		return Job{}, err
	}
	return toJob(row), nil
}

func toJob(row store.GetIngestionBatchRow) Job {
	j := Job{ID: row.ID, Origin: row.Origin, Label: row.Label, Total: int(row.Total), Queued: int(row.Queued), Running: int(row.Running),
		Stored: int(row.Stored), Unchanged: int(row.Unchanged), Skipped: int(row.Skipped), Refused: int(row.Refused), Failed: int(row.Failed),
		Chunks: row.Chunks, Bytes: row.Bytes, CreatedAt: row.CreatedAt.Time, Finished: timePtr(row.FinishedAt)}
	j.Done = j.Stored + j.Unchanged + j.Skipped + j.Refused + j.Failed
	switch {
	case j.Done >= j.Total && j.Failed > 0:
		j.Status = StatusCompletedWithFailures
	case j.Done >= j.Total:
		j.Status = StatusCompleted
	case row.Worked == 0:
		j.Status = StatusQueued
	default:
		j.Status = StatusRunning
	}
	j.Progress = progress(j.Done, j.Total)
	return j
}

func progress(done, total int) float64 {
	if total == 0 {
		return 1
	}
	return float64(done) / float64(total)
}

func timePtr(t pgtype.Timestamptz) *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time
	return &v
}

func uuidPtr(u pgtype.UUID) *uuid.UUID {
	if !u.Valid {
		return nil
	}
	v := uuid.UUID(u.Bytes)
	return &v
}

// Items returns up to limit documents of the tenant's job id with an index
// above after (-1 for the first page), in index order. Errors: ErrNotFound
// when the job does not exist, store errors.
func (s *Service) Items(ctx context.Context, tenantID, id uuid.UUID, after, limit int) ([]Item, error) {
	var rows []store.ListIngestionItemsRow
	err := store.InTenant(ctx, s.pool, tenantID, func(tx pgx.Tx) error {
		var err error
		rows, err = store.New().ListIngestionItems(ctx, tx, store.ListIngestionItemsParams{TenantID: tenantID, BatchID: id,
			AfterIdx: int32(after), PageSize: int32(limit)})
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]Item, len(rows))
	for i, r := range rows {
		out[i] = Item{Index: int(r.Idx), SourceURI: r.SourceUri, ContentType: r.ContentType, Size: r.SizeBytes, Stage: r.Stage, Outcome: r.Outcome,
			DocumentID: uuidPtr(r.DocumentID), Chunks: int(r.Chunks), Error: r.Error, Attempts: int(r.Attempts), UpdatedAt: r.UpdatedAt.Time,
			Finished: timePtr(r.FinishedAt)}
	}
	return out, nil
}

// ItemsSince returns up to limit documents of the tenant's job id whose
// state changed after (since, after) in (UpdatedAt, Index) order (the
// events stream; the last item is the next page's cursor).
func (s *Service) ItemsSince(ctx context.Context, tenantID, id uuid.UUID, since time.Time, after, limit int) ([]Item, error) {
	var rows []store.ListIngestionItemsUpdatedSinceRow
	err := store.InTenant(ctx, s.pool, tenantID, func(tx pgx.Tx) error {
		var err error
		rows, err = store.New().ListIngestionItemsUpdatedSince(ctx, tx, store.ListIngestionItemsUpdatedSinceParams{TenantID: tenantID, BatchID: id,
			Since: pgtype.Timestamptz{Time: since, Valid: true}, AfterIdx: int32(after), PageSize: int32(limit)})
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]Item, len(rows))
	for i, r := range rows {
		out[i] = Item{Index: int(r.Idx), SourceURI: r.SourceUri, ContentType: r.ContentType, Size: r.SizeBytes, Stage: r.Stage, Outcome: r.Outcome,
			DocumentID: uuidPtr(r.DocumentID), Chunks: int(r.Chunks), Error: r.Error, Attempts: int(r.Attempts), UpdatedAt: r.UpdatedAt.Time,
			Finished: timePtr(r.FinishedAt)}
	}
	return out, nil
}

// Cursor is a position in the job list (the last job of a page).
type Cursor struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// List returns up to limit of the tenant's jobs, newest first, after cursor
// (nil for the first page).
func (s *Service) List(ctx context.Context, tenantID uuid.UUID, after *Cursor, limit int) ([]Job, error) {
	p := store.ListIngestionBatchesParams{TenantID: tenantID, PageSize: int32(limit)}
	if after != nil {
		p.HasCursor, p.BeforeTime, p.BeforeID = true, pgtype.Timestamptz{Time: after.CreatedAt, Valid: true}, after.ID
	}
	var rows []store.ListIngestionBatchesRow
	err := store.InTenant(ctx, s.pool, tenantID, func(tx pgx.Tx) error {
		var err error
		rows, err = store.New().ListIngestionBatches(ctx, tx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]Job, len(rows))
	for i, r := range rows {
		out[i] = toJob(store.GetIngestionBatchRow(r))
	}
	return out, nil
}

// Record writes the result of document idx of a job created with OriginCLI
// (processed by that command, not by workers): stored or unchanged with the
// outcome, or skipped, refused or failed (ingest.KindOf) with the reason.
// Errors: store errors.
func (s *Service) Record(ctx context.Context, tenantID, id uuid.UUID, idx int, out ingest.Outcome, err error) error {
	p := store.RecordIngestionItemParams{TenantID: tenantID, BatchID: id, Idx: int32(idx)}
	switch {
	case err == nil && out.Status == ingest.StatusUnchanged:
		p.Stage = StageUnchanged
	case err == nil:
		p.Stage = StageStored
	default:
		p.Stage, p.Error = kindStage(ingest.KindOf(err)), reason(err)
	}
	if err == nil {
		p.Outcome, p.Chunks = string(out.Status), int32(out.Chunks)
		p.DocumentID = pgtype.UUID{Bytes: out.DocumentID, Valid: true}
	}
	q := store.New()
	return store.InTenant(ctx, s.pool, tenantID, func(tx pgx.Tx) error {
		return q.RecordIngestionItem(ctx, tx, p)
	})
}

// kindStage is the final stage of a document ingest.KindOf classified.
func kindStage(k ingest.Kind) string {
	switch k {
	case ingest.KindSkipped:
		return StageSkipped
	case ingest.KindRefused:
		return StageRefused
	}
	return StageFailed
}
