package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TenantSettings are a tenant's effective retrieval settings (defaults filled in).
type TenantSettings struct {
	Fusion         string  `json:"fusion" enum:"convex,rrf" doc:"How the legs are fused: convex (a convex combination of normalised scores, the default) or rrf (weighted Reciprocal Rank Fusion)."`
	RRFK           float64 `json:"rrf_k" doc:"Reciprocal Rank Fusion constant k (rrf only)."`
	VectorWeight   float64 `json:"vector_weight" doc:"Weight of the vector leg in fusion (0 drops it); by default the embedding model's prior."`
	KeywordWeight  float64 `json:"keyword_weight" doc:"Weight of the keyword leg in fusion (0 drops it)."`
	DocumentWeight float64 `json:"document_weight" doc:"How much the other matching chunks of a chunk's document add to its keyword evidence (convex only; 0 ranks chunks alone)."`
	BM25K1         float64 `json:"bm25_k1" doc:"Okapi BM25 k1."`
	BM25B          float64 `json:"bm25_b" doc:"Okapi BM25 b."`
	Candidates     int     `json:"candidates" doc:"Candidates each leg contributes before fusion."`
	RefuseBelow    float64 `json:"refuse_below" doc:"Answers are refused when the retrieval confidence (the estimated probability that the documents answer the question) is below this."`
	EventQuestion  string  `json:"event_question" enum:"text,sha256" doc:"What retrieval events keep of a question: its text, or only its sha256."`
	EventRetention int     `json:"event_retention_days" doc:"Days retrieval events and usage counters are kept."`
}

func (s *Server) effective(t tenant.Tenant) TenantSettings {
	set := t.Settings
	e := s.deps.Searcher.Settings(t, nil)
	out := TenantSettings{Fusion: e.Fusion, RRFK: e.RRFK, VectorWeight: *e.VectorWeight, KeywordWeight: *e.KeywordWeight, DocumentWeight: *e.DocumentWeight, BM25K1: e.K1,
		BM25B: *e.B, Candidates: e.Candidates, RefuseBelow: *e.RefuseBelow, EventQuestion: tenant.EventQuestionText, EventRetention: set.RetentionDays()}
	if !set.KeepsQuestionText() {
		out.EventQuestion = tenant.EventQuestionSHA256
	}
	return out
}

// TenantInfo describes the caller's tenant.
type TenantInfo struct {
	ID        uuid.UUID      `json:"id"`
	Slug      string         `json:"slug"`
	Name      string         `json:"name"`
	Status    string         `json:"status" enum:"active,disabled"`
	Language  string         `json:"language" doc:"PostgreSQL text-search configuration of the keyword leg, e.g. english."`
	Role      string         `json:"role" enum:"reader,editor,admin" doc:"The caller's role (from its token)."`
	Documents int64          `json:"documents"`
	Chunks    int64          `json:"chunks"`
	Tokens    int64          `json:"tokens" doc:"Indexed words across the tenant's chunks."`
	Settings  TenantSettings `json:"settings"`
	// Model is the embedding model serving the tenant and its coverage.
	Model *model.Status `json:"model,omitempty" doc:"The embedding model the tenant's searches use, the share of its chunks that have a vector of it, and a switch in progress."`
}

// ModelSwitchInput is the body of POST /v1/tenant/model.
type ModelSwitchInput struct {
	Body struct {
		Model string `json:"model" minLength:"1" maxLength:"200" doc:"A registered embedding model (ragd model list). The tenant's active model cancels a switch in progress; the previous model rolls back."`
	}
}

// ModelSwitchOutput is the response of POST /v1/tenant/model.
type ModelSwitchOutput struct {
	Body model.Status
}

// TenantOutput is the response of GET /v1/tenant.
type TenantOutput struct {
	Body TenantInfo
}

// SettingsPatch is the body of PATCH /v1/tenant/settings: the fields present
// replace the stored ones; absent fields keep theirs.
type SettingsPatch struct {
	Fusion         *string  `json:"fusion,omitempty" enum:"convex,rrf"`
	RRFK           *float64 `json:"rrf_k,omitempty" exclusiveMinimum:"0" maximum:"1000"`
	VectorWeight   *float64 `json:"vector_weight,omitempty" minimum:"0" maximum:"100"`
	KeywordWeight  *float64 `json:"keyword_weight,omitempty" minimum:"0" maximum:"100"`
	DocumentWeight *float64 `json:"document_weight,omitempty" minimum:"0" maximum:"10"`
	BM25K1         *float64 `json:"bm25_k1,omitempty" exclusiveMinimum:"0" maximum:"10"`
	BM25B          *float64 `json:"bm25_b,omitempty" minimum:"0" maximum:"1"`
	Candidates     *int     `json:"candidates,omitempty" minimum:"1" maximum:"1000"`
	RefuseBelow    *float64 `json:"refuse_below,omitempty" minimum:"0" maximum:"1"`
	EventQuestion  *string  `json:"event_question,omitempty" enum:"text,sha256"`
	EventRetention *int     `json:"event_retention_days,omitempty" minimum:"1" maximum:"3650"`
}

// SettingsPatchInput is the input of PATCH /v1/tenant/settings.
type SettingsPatchInput struct {
	Body SettingsPatch
}

// SettingsOutput is the response of PATCH /v1/tenant/settings.
type SettingsOutput struct {
	Body TenantSettings
}

func (s *Server) registerTenant() {
	tags := []string{"tenant"}
	register(s, huma.Operation{
		OperationID: "getTenant", Method: http.MethodGet, Path: "/v1/tenant", Tags: tags,
		Summary: "The caller's tenant",
	}, opSpec{role: auth.RoleReader, resource: "tenant", manage: true}, s.getTenant)
	register(s, huma.Operation{
		OperationID: "updateTenantSettings", Method: http.MethodPatch, Path: "/v1/tenant/settings", Tags: tags,
		Summary: "Change retrieval settings",
		Errors:  []int{http.StatusUnprocessableEntity},
	}, opSpec{role: auth.RoleAdmin, resource: "tenant"}, s.patchSettings)
	if s.deps.Models != nil && s.deps.Switcher != nil {
		register(s, huma.Operation{
			OperationID: "switchTenantModel", Method: http.MethodPost, Path: "/v1/tenant/model", Tags: tags,
			Summary: "Switch the tenant's embedding model",
			Description: "Records the target model and starts re-embedding the stored chunks in the background (rate-limited). " +
				"Searches keep the current model until the target covers every chunk (and, for a tenant past the exact-search " +
				"threshold, its HNSW index is built by `ragd tenant index`), then flip at once. GET /v1/tenant shows the progress.",
			DefaultStatus: http.StatusAccepted,
			Errors:        []int{http.StatusUnprocessableEntity},
		}, opSpec{role: auth.RoleAdmin, resource: "tenant"}, s.switchModel)
	}
}

func (s *Server) switchModel(ctx context.Context, in *ModelSwitchInput) (*ModelSwitchOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	if _, _, err := s.deps.Models.SetTarget(ctx, s.deps.Pool, t.ID, in.Body.Model); err != nil {
		if errors.Is(err, model.ErrNotRegistered) || errors.Is(err, model.ErrRetired) {
			return nil, invalidf("%v", err)
		}
		return nil, err
	}
	now, err := tenant.Load(ctx, s.deps.Pool, t.ID)
	if err != nil {
		return nil, err
	}
	s.deps.Switcher.Kick(now)
	st, err := s.deps.Models.StatusOf(ctx, s.deps.Pool, now, s.deps.Switcher.Grace())
	if err != nil {
		return nil, err
	}
	return &ModelSwitchOutput{Body: st}, nil
}

func (s *Server) getTenant(ctx context.Context, _ *struct{}) (*TenantOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	var st store.GetTenantStatsRow
	err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		if !callerVisibility(ctx).All() {
			// Counts over what the caller can read: the tenant-wide
			// statistics would count hidden documents.
			v, err := store.New().VisibleTenantStats(ctx, tx, t.ID)
			st = store.GetTenantStatsRow{ChunkCount: v.ChunkCount, TokenCount: v.TokenCount, DocumentCount: v.DocumentCount}
			return err
		}
		st, err = store.New().GetTenantStats(ctx, tx, t.ID) // an aggregate: always one row
		return err
	})
	if err != nil {
		return nil, err
	}
	out := &TenantOutput{Body: TenantInfo{ID: t.ID, Slug: t.Slug, Name: t.Name, Status: t.Status, Language: t.TSConfig,
		Role: infoOf(ctx).principal.Role.String(), Documents: st.DocumentCount, Chunks: st.ChunkCount, Tokens: st.TokenCount,
		Settings: s.effective(t)}}
	if s.deps.Models != nil && s.deps.Switcher != nil {
		ms, err := s.deps.Models.StatusOf(ctx, s.deps.Pool, t, s.deps.Switcher.Grace())
		if err != nil {
			return nil, err
		}
		if !callerVisibility(ctx).All() {
			// The model's counts are over every chunk of the tenant; a
			// caller below the management view gets the chunks it reads
			// (as in chunks above) and the coverage shares, no count of
			// hidden chunks.
			ms.Chunks, ms.TargetEmbedded = st.ChunkCount, 0
		}
		out.Body.Model = &ms
	}
	return out, nil
}

func (s *Server) patchSettings(ctx context.Context, in *SettingsPatchInput) (*SettingsOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	// Read the stored settings locked, in the write's own transaction, so the
	// patch applies to what is stored now and concurrent patches serialise.
	var set tenant.Settings
	err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		q := store.New()
		raw, err := q.LockTenantSettings(ctx, tx, t.ID)
		if errors.Is(err, store.ErrNotFound) {
			return tenant.ErrNotFound // deleted since the request was authenticated
		}
		if err != nil {
			return err
		}
		if set, err = tenant.ParseSettings(raw); err != nil {
			return err
		}
		p := in.Body
		if p.Fusion != nil {
			set.Fusion = *p.Fusion
		}
		if p.RRFK != nil {
			set.RRFK = *p.RRFK
		}
		if p.VectorWeight != nil {
			set.VectorWeight = p.VectorWeight
		}
		if p.KeywordWeight != nil {
			set.KeywordWeight = p.KeywordWeight
		}
		if p.DocumentWeight != nil {
			set.DocumentWeight = p.DocumentWeight
		}
		if p.BM25K1 != nil {
			set.K1 = *p.BM25K1
		}
		if p.BM25B != nil {
			set.B = p.BM25B
		}
		if p.Candidates != nil {
			set.Candidates = *p.Candidates
		}
		if p.RefuseBelow != nil {
			set.RefuseBelow = p.RefuseBelow
		}
		if p.EventQuestion != nil {
			set.EventQuestion = *p.EventQuestion
		}
		if p.EventRetention != nil {
			set.EventRetentionDays = *p.EventRetention
		}
		if e := set.Effective(); *e.VectorWeight == 0 && *e.KeywordWeight == 0 {
			return invalidf("vector_weight and keyword_weight cannot both be 0")
		}
		updated, err := json.Marshal(set)
		if err != nil {
			return err
		}
		return q.UpdateTenantSettings(ctx, tx, store.UpdateTenantSettingsParams{ID: t.ID, Settings: updated})
	})
	if err != nil {
		return nil, err
	}
	now := t
	now.Settings = set
	return &SettingsOutput{Body: s.effective(now)}, nil
}
