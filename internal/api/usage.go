package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/store"
)

// UsageInput is the input of GET /v1/tenant/usage.
type UsageInput struct {
	Days int `query:"days" minimum:"1" maximum:"3650" default:"30" doc:"Count the last this many days (UTC), today included."`
}

// UsageRequests counts requests per route class.
type UsageRequests struct {
	Query int64 `json:"query" doc:"Search and answer requests admitted."`
	Write int64 `json:"write" doc:"Document writes admitted."`
	Admin int64 `json:"admin" doc:"Every other /v1 request admitted."`
}

// UsageStorage is what the tenant stores now, and its quotas.
type UsageStorage struct {
	Documents      int64 `json:"documents"`
	Chunks         int64 `json:"chunks"`
	Bytes          int64 `json:"bytes" doc:"Bytes of extracted text stored."`
	QuotaDocuments int64 `json:"quota_documents" doc:"0 = unlimited."`
	QuotaChunks    int64 `json:"quota_chunks" doc:"0 = unlimited."`
	QuotaBytes     int64 `json:"quota_bytes" doc:"0 = unlimited."`
}

// UsageRates are the tenant's request rates per route class.
type UsageRates struct {
	Query float64 `json:"query" doc:"Search and answer requests per second; 0 = unlimited."`
	Write float64 `json:"write" doc:"Document writes per second; 0 = unlimited."`
	Admin float64 `json:"admin" doc:"Other requests per second; 0 = unlimited."`
}

// Usage is the response of GET /v1/tenant/usage.
type Usage struct {
	Since          string        `json:"since" format:"date" doc:"First day counted (UTC)."`
	Requests       UsageRequests `json:"requests"`
	RateLimited    int64         `json:"rate_limited" doc:"Requests refused with 429 by the tenant's rate limit."`
	Shed           int64         `json:"shed" doc:"Requests refused with 503 by the server's admission control (overload)."`
	EmbeddedChunks int64         `json:"embedded_chunks" doc:"Chunk texts sent to the embedding model by document writes."`
	ProviderTokens int64         `json:"provider_tokens" doc:"Tokens the LLM provider reported for answers."`
	Storage        UsageStorage  `json:"storage"`
	Rates          UsageRates    `json:"rates"`
}

// UsageOutput is the response of GET /v1/tenant/usage.
type UsageOutput struct {
	Body Usage
}

func (s *Server) registerUsage() {
	register(s, huma.Operation{
		OperationID: "getTenantUsage", Method: http.MethodGet, Path: "/v1/tenant/usage", Tags: []string{"tenant"},
		Summary: "The tenant's usage, quotas and rate limits",
		Description: "Request counters per route class over the last `days` days, requests refused by the rate limit (429) and " +
			"by admission control (503), chunks embedded and provider tokens, and the storage used against the quotas. " +
			"Counters reach the database within about a second of the requests.",
		Errors: []int{http.StatusUnprocessableEntity},
	}, opSpec{role: auth.RoleAdmin, resource: "tenant", manage: true}, s.usage)
}

func (s *Server) usage(ctx context.Context, in *UsageInput) (*UsageOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	days := in.Days
	if days <= 0 {
		days = 30
	}
	since := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -(days - 1))
	var u store.SumTenantUsageRow
	var st store.GetTenantStorageRow
	err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		q := store.New()
		var err error
		if u, err = q.SumTenantUsage(ctx, tx, store.SumTenantUsageParams{TenantID: t.ID, SinceDay: pgtype.Date{Time: since, Valid: true}}); err != nil {
			return err
		}
		st, err = q.GetTenantStorage(ctx, tx, store.GetTenantStorageParams{TenantID: t.ID})
		return err
	})
	if err != nil {
		return nil, err
	}
	qd, qc, qb := s.quotas(t)
	r := s.rates(t)
	return &UsageOutput{Body: Usage{Since: since.Format(time.DateOnly),
		Requests:    UsageRequests{Query: u.QueryRequests, Write: u.WriteRequests, Admin: u.AdminRequests},
		RateLimited: u.RateLimited, Shed: u.Shed, EmbeddedChunks: u.EmbeddedChunks, ProviderTokens: u.ProviderTokens,
		Storage: UsageStorage{Documents: st.Documents, Chunks: st.Chunks, Bytes: st.Bytes, QuotaDocuments: qd, QuotaChunks: qc, QuotaBytes: qb},
		Rates:   UsageRates{Query: r.Query, Write: r.Write, Admin: r.Admin}}}, nil
}
