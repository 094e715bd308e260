// Package tenant holds the resolved tenant a request or command acts for, and
// its per-tenant retrieval settings (fusion weights, BM25 parameters, refusal
// thresholds) stored in tenants.settings.
package tenant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/store"
)

// Tenant is a tenant as loaded inside its own transaction.
type Tenant struct {
	ID       uuid.UUID
	Slug     string
	Name     string
	TSConfig string // PostgreSQL text-search configuration, e.g. "english"
	Status   string // "active" | "disabled"
	Settings Settings
	// ChunkCount is the tenant's number of chunks when it was loaded
	// (tenant_stats); search picks the vector leg's exact or HNSW plan by
	// it, and fusion weighs a page's document evidence by the page's share
	// of it (search.chanceChunks). For the plan, a stale or zero count
	// costs speed, never results: without a dedicated index both plans are
	// exact. For fusion, a count stale by a few documents moves a large
	// page's share, and its evidence, by as little; a zero count leaves
	// every page's evidence whole, as before shares were counted.
	ChunkCount int64
	// ModelID is the embedding_models id of the tenant's active embedding
	// model, whose vectors its searches read; 0 = the server's default.
	ModelID int16
	// TargetModelID is the model a switch in progress goes to (0: none):
	// writes embed with both until the flip (internal/model).
	TargetModelID int16
	// PreviousModelID is the model the last switch replaced, whose vectors
	// are kept until the grace period ends (0: none).
	PreviousModelID int16
	// ModelSwitchedAt is when the last switch flipped (zero: never).
	ModelSwitchedAt time.Time
	// ModelSwitchError is the last error of the switch in progress ("" none).
	ModelSwitchError string
}

// Settings are the per-tenant retrieval parameters; zero fields take the
// defaults of Effective. Stored as JSON in tenants.settings.
type Settings struct {
	// Fusion is how the legs are combined: "convex" (default: a convex
	// combination of normalised scores) or "rrf" (weighted Reciprocal Rank
	// Fusion).
	Fusion string `json:"fusion,omitempty"`
	// RRFK is the Reciprocal Rank Fusion constant k (Cormack et al. 2009);
	// default 60; used by "rrf" only.
	RRFK float64 `json:"rrf_k,omitempty"`
	// VectorWeight and KeywordWeight scale each leg's contribution; a weight
	// of 0 drops the leg. Defaults: the keyword leg 1, the vector leg the
	// embedding model's prior from the registry (a weak model counts less);
	// calibrated per tenant by `ragd eval tune`.
	VectorWeight  *float64 `json:"vector_weight,omitempty"`
	KeywordWeight *float64 `json:"keyword_weight,omitempty"`
	// DocumentWeight is how much the other matching chunks of a chunk's
	// document add to its keyword evidence ("convex" only; see
	// search.FuseConvex); default DefaultDocumentWeight, 0 ranks chunks
	// alone.
	DocumentWeight *float64 `json:"document_weight,omitempty"`
	// K1 and B are the Okapi BM25 parameters; defaults 0.9 and 0.4.
	K1 float64  `json:"bm25_k1,omitempty"`
	B  *float64 `json:"bm25_b,omitempty"`
	// Candidates is N, the rows each leg contributes before fusion; default
	// DefaultCandidates.
	Candidates int `json:"candidates,omitempty"`
	// RefuseBelow is the refusal threshold on the retrieval confidence, the
	// estimated probability that the documents answer the question (see
	// search.Response.Confidence); default DefaultRefuseBelow.
	RefuseBelow *float64 `json:"refuse_below,omitempty"`
	// AnswerModel is the tenant's calibrated answerability model: the bias,
	// then one weight per search.AnswerFeatures; nil = the default model
	// (search.DefaultAnswerModel). `ragd eval tune` stores one only when it
	// beats the default on held-out folds of the tenant's set; a model of
	// the wrong length (the features changed since) is ignored.
	AnswerModel []float64 `json:"answer_model,omitempty"`
	// Limits are the tenant's own request rates and storage quotas, set by
	// the operator (`ragd tenant limits`), never through the tenant's API;
	// nil fields take the server's configuration (RAGD_RATE_*,
	// RAGD_QUOTA_*).
	Limits *Limits `json:"limits,omitempty"`
	// EventQuestion is what retrieval events keep of a question: "text"
	// (the default) or "sha256" (only its hash: the tenant's privacy
	// choice; frequent questions are still counted, but cannot be read or
	// exported for labelling).
	EventQuestion string `json:"event_question,omitempty"`
	// EventRetentionDays is how long retrieval events and usage counters
	// are kept; default DefaultEventRetentionDays.
	EventRetentionDays int `json:"event_retention_days,omitempty"`
}

// Limits are a tenant's own rates (requests per second, 0 = unlimited) and
// quotas (0 = unlimited); a nil field takes the server's default.
type Limits struct {
	QueryRate    *float64 `json:"query_rate,omitempty"`
	WriteRate    *float64 `json:"write_rate,omitempty"`
	AdminRate    *float64 `json:"admin_rate,omitempty"`
	MaxDocuments *int64   `json:"max_documents,omitempty"`
	MaxChunks    *int64   `json:"max_chunks,omitempty"`
	MaxBytes     *int64   `json:"max_bytes,omitempty"`
}

// Event question modes (Settings.EventQuestion).
const (
	EventQuestionText   = "text"
	EventQuestionSHA256 = "sha256"
)

// DefaultEventRetentionDays is the retention of retrieval events when a
// tenant sets none.
const DefaultEventRetentionDays = 30

// RetentionDays is the tenant's effective event retention in days.
func (s Settings) RetentionDays() int {
	if s.EventRetentionDays > 0 {
		return s.EventRetentionDays
	}
	return DefaultEventRetentionDays
}

// KeepsQuestionText reports whether retrieval events keep the question's
// text (not only its hash).
func (s Settings) KeepsQuestionText() bool { return s.EventQuestion != EventQuestionSHA256 }

// Defaults.
const (
	DefaultFusion     = "convex"
	DefaultRRFK       = 60
	DefaultK1         = 0.9
	DefaultB          = 0.4
	DefaultCandidates = 50
	// DefaultDocumentWeight: measured on public sets (docs/EVAL.md).
	DefaultDocumentWeight = 0.2
	// DefaultRefuseBelow is the default refusal threshold on the answerability
	// probability (search.Response.Confidence): the one that refuses 5% of
	// the answerable questions of the public data the model was fitted on,
	// never a tenant's (docs/EVAL.md, "Answerability").
	DefaultRefuseBelow = 0.34
)

// Effective returns s with every unset field replaced by its default, the
// vector leg's weight by 1.
func (s Settings) Effective() Settings { return s.EffectiveFor(1) }

// EffectiveFor returns s with every unset field replaced by its default, the
// vector leg's weight by vectorPrior (the embedding model's prior).
func (s Settings) EffectiveFor(vectorPrior float64) Settings {
	f := func(p *float64, d float64) *float64 {
		if p == nil {
			return &d
		}
		return p
	}
	if s.Fusion == "" {
		s.Fusion = DefaultFusion
	}
	if s.RRFK <= 0 {
		s.RRFK = DefaultRRFK
	}
	s.VectorWeight = f(s.VectorWeight, vectorPrior)
	s.KeywordWeight = f(s.KeywordWeight, 1)
	s.DocumentWeight = f(s.DocumentWeight, DefaultDocumentWeight)
	if s.K1 <= 0 {
		s.K1 = DefaultK1
	}
	s.B = f(s.B, DefaultB)
	if s.Candidates <= 0 {
		s.Candidates = DefaultCandidates
	}
	s.RefuseBelow = f(s.RefuseBelow, DefaultRefuseBelow)
	return s
}

// ParseSettings decodes tenants.settings; empty or null JSON gives zero Settings.
func ParseSettings(raw []byte) (Settings, error) {
	var s Settings
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("tenant settings: %w", err)
	}
	return s, nil
}

// ErrNotFound is returned by Load when no active or disabled tenant has the id
// (or the id belongs to a tenant the transaction cannot see).
var ErrNotFound = errors.New("tenant: not found")

// ErrDisabled is returned by Load for a disabled tenant.
var ErrDisabled = errors.New("tenant: disabled")

// Load reads tenant id inside its own tenant transaction (so row-level
// security proves the id and the setting agree). From a pool it is one
// round trip (store.SendTenantBatch, GetTenant on a generic plan: a
// primary-key lookup, the same for every tenant); from a connection or a
// transaction, InTenant's. Errors: ErrNotFound, ErrDisabled (the Tenant is
// still returned), store errors.
func Load(ctx context.Context, db store.Beginner, id uuid.UUID) (Tenant, error) {
	var (
		row   store.GetTenantRow
		found bool
		err   error
	)
	if pool, ok := db.(*pgxpool.Pool); ok {
		b := &pgx.Batch{}
		store.QueueGetTenant(b, id, func(r store.GetTenantRow, ok bool) error {
			row, found = r, ok
			return nil
		})
		err = store.SendTenantBatch(ctx, pool, id, b, store.GenericPlans())
	} else {
		err = store.InTenant(ctx, db, id, func(tx pgx.Tx) error {
			row, err = store.New().GetTenant(ctx, tx, id)
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			found = err == nil
			return err
		})
	}
	if err != nil {
		return Tenant{}, err
	}
	if !found {
		return Tenant{}, ErrNotFound
	}
	set, err := ParseSettings(row.Settings)
	if err != nil {
		return Tenant{}, err
	}
	t := Tenant{ID: row.ID, Slug: row.Slug, Name: row.Name, TSConfig: row.TsConfig, Status: row.Status, Settings: set, ChunkCount: row.ChunkCount,
		ModelID: row.EmbeddingModelID, TargetModelID: row.TargetModelID, PreviousModelID: row.PreviousModelID,
		ModelSwitchedAt: row.ModelSwitchedAt.Time, ModelSwitchError: row.ModelSwitchError}
	if t.Status != "active" {
		return t, ErrDisabled
	}
	return t, nil
}

// SaveSettings stores s as the tenant's settings (inside its own transaction).
func SaveSettings(ctx context.Context, db store.Beginner, id uuid.UUID, s Settings) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return store.InTenant(ctx, db, id, func(tx pgx.Tx) error {
		return store.New().UpdateTenantSettings(ctx, tx, store.UpdateTenantSettingsParams{ID: id, Settings: raw})
	})
}

// UpdateSettings changes the tenant's stored settings in one transaction:
// they are read under the row's lock, passed to change, and written back, so
// that a concurrent update of other fields (a settings PATCH, `ragd tenant
// limits`) is neither lost nor overwritten with what was read before it.
// It returns the settings stored. change's error aborts the update.
func UpdateSettings(ctx context.Context, db store.Beginner, id uuid.UUID, change func(*Settings) error) (Settings, error) {
	var set Settings
	err := store.InTenant(ctx, db, id, func(tx pgx.Tx) error {
		q := store.New()
		raw, err := q.LockTenantSettings(ctx, tx, id)
		if err != nil {
			return err
		}
		if set, err = ParseSettings(raw); err != nil {
			return err
		}
		if err := change(&set); err != nil {
			return err
		}
		b, err := json.Marshal(set)
		if err != nil {
			return err
		}
		return q.UpdateTenantSettings(ctx, tx, store.UpdateTenantSettingsParams{ID: id, Settings: b})
	})
	return set, err
}

// Purge deletes tenant id and every row it owns, bottom-up and set-based in
// one transaction (postings and statistics, embeddings, chunks, documents,
// then the tenant row, whose cascade removes the rest). db must be the owner
// role's pool: the application role cannot delete tenants. Returns the number
// of tenant rows deleted (0 or 1).
//
// Writes of the tenant may run meanwhile. The tenant is first disabled, in
// a transaction of its own, so that no request starts another write (it is
// refused as a disabled tenant's). A write already under way locks
// postings, then tenant_stats, then term_stats (migration 00008); the
// purge's deletes meet those locks in another order, so one of the two can
// be chosen as a deadlock victim (store.ErrTransient). The purge is then run
// again, for up to purgeRetryFor, waiting longer each time for the writes
// under way to end: each attempt is one whole transaction, and a write that
// lost is refused as a whole (503, retryable; its tenant is gone after).
// A purge that fails leaves the tenant disabled, not half deleted.
func Purge(ctx context.Context, db store.Beginner, id uuid.UUID) (int64, error) {
	err := store.InTenant(ctx, db, id, func(tx pgx.Tx) error { return store.New().DisableTenantByID(ctx, tx, id) })
	if err != nil {
		return 0, err
	}
	var n int64
	deadline := time.Now().Add(purgeRetryFor)
	for attempt := 1; ; attempt++ {
		if n, err = purgeOnce(ctx, db, id); !errors.Is(err, store.ErrTransient) || time.Now().After(deadline) {
			return n, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(min(time.Duration(attempt)*50*time.Millisecond, time.Second)):
		}
	}
}

// purgeRetryFor bounds how long Purge retries after deadlocks with the
// writes that were under way when the tenant was disabled (each ends
// within the request timeout; none starts after).
const purgeRetryFor = time.Minute

func purgeOnce(ctx context.Context, db store.Beginner, id uuid.UUID) (int64, error) {
	var n int64
	err := store.InTenant(ctx, db, id, func(tx pgx.Tx) error {
		q := store.New()
		if err := q.UseAutoPlans(ctx, tx); err != nil {
			return err
		}
		if err := q.PurgeTenantIndex(ctx, tx, id); err != nil {
			return err
		}
		if err := q.PurgeTenantChunks(ctx, tx, id); err != nil {
			return err
		}
		if err := q.PurgeTenantDocuments(ctx, tx, id); err != nil {
			return err
		}
		var err error
		n, err = q.DeleteTenant(ctx, tx, id)
		return err
	})
	return n, err
}
