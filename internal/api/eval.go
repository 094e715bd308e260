package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Evaluator runs retrieval/answer evaluations for a tenant (admin routes
// under /v1/eval). It is provided by the evaluation work; while Deps.Evaluator
// is nil the routes are not registered. The shapes below are the API's side
// of the contract and may grow with it.
type Evaluator interface {
	// PutSet creates or replaces the tenant's evaluation set name.
	PutSet(ctx context.Context, t tenant.Tenant, name string, cases []EvalCase) (EvalSet, error)
	// StartRun starts a run over a set and returns it (usually queued or running).
	StartRun(ctx context.Context, t tenant.Tenant, req EvalRunRequest) (EvalRun, error)
	// GetRun returns a run of the tenant; a not-found error (ingest.ErrNotFound
	// or pgx.ErrNoRows) → 404.
	GetRun(ctx context.Context, t tenant.Tenant, id uuid.UUID) (EvalRun, error)
}

// EvalCase is one question of an evaluation set.
type EvalCase struct {
	Question      string   `json:"question" minLength:"1" maxLength:"4000"`
	Relevant      []string `json:"relevant_source_uris,omitempty" maxItems:"100" doc:"source_uris that answer the question (retrieval metrics)."`
	ExpectRefusal bool     `json:"expect_refusal,omitempty" doc:"True when the documents do not answer the question."`
}

// EvalSet describes a stored evaluation set.
type EvalSet struct {
	Name      string    `json:"name"`
	Cases     int       `json:"cases"`
	UpdatedAt time.Time `json:"updated_at"`
}

// EvalRunRequest starts a run.
type EvalRunRequest struct {
	Set  string `json:"set" minLength:"1" maxLength:"100" doc:"Name of the evaluation set."`
	TopK int    `json:"top_k,omitempty" minimum:"1" maximum:"1000" doc:"Retrieval depth (default: the server's)."`
}

// EvalRun is an evaluation run and, once done, its metrics.
type EvalRun struct {
	ID         uuid.UUID          `json:"id"`
	Set        string             `json:"set"`
	Status     string             `json:"status" enum:"queued,running,done,failed"`
	Metrics    map[string]float64 `json:"metrics,omitempty" doc:"e.g. recall@5, mrr, refusal accuracy."`
	CreatedAt  time.Time          `json:"created_at"`
	FinishedAt *time.Time         `json:"finished_at,omitempty"`
}

// PutEvalSetInput is the input of PUT /v1/eval/sets/{name}.
type PutEvalSetInput struct {
	Name string `path:"name" pattern:"^[a-z0-9][a-z0-9_-]{0,99}$"`
	Body struct {
		Cases []EvalCase `json:"cases" minItems:"1" maxItems:"10000"`
	}
}

// EvalSetOutput is the response of PUT /v1/eval/sets/{name}.
type EvalSetOutput struct{ Body EvalSet }

// StartEvalRunInput is the input of POST /v1/eval/runs.
type StartEvalRunInput struct{ Body EvalRunRequest }

// EvalRunIDInput addresses a run.
type EvalRunIDInput struct {
	ID string `path:"id" format:"uuid"`
}

// EvalRunOutput is a run.
type EvalRunOutput struct{ Body EvalRun }

func (s *Server) registerEval() {
	tags := []string{"eval"}
	admin := opSpec{role: auth.RoleAdmin, resource: "evaluation set"}
	register(s, huma.Operation{
		OperationID: "putEvalSet", Method: http.MethodPut, Path: "/v1/eval/sets/{name}", Tags: tags,
		Summary: "Create or replace an evaluation set", Errors: []int{http.StatusUnprocessableEntity},
	}, admin, func(ctx context.Context, in *PutEvalSetInput) (*EvalSetOutput, error) {
		t, err := tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		set, err := s.deps.Evaluator.PutSet(ctx, t, in.Name, in.Body.Cases)
		if err != nil {
			return nil, err
		}
		return &EvalSetOutput{Body: set}, nil
	})
	register(s, huma.Operation{
		OperationID: "startEvalRun", Method: http.MethodPost, Path: "/v1/eval/runs", Tags: tags,
		Summary: "Start an evaluation run", DefaultStatus: http.StatusAccepted,
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, admin, func(ctx context.Context, in *StartEvalRunInput) (*EvalRunOutput, error) {
		t, err := tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		run, err := s.deps.Evaluator.StartRun(ctx, t, in.Body)
		if err != nil {
			return nil, err
		}
		return &EvalRunOutput{Body: run}, nil
	})
	register(s, huma.Operation{
		OperationID: "getEvalRun", Method: http.MethodGet, Path: "/v1/eval/runs/{id}", Tags: tags,
		Summary: "Get an evaluation run", Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, opSpec{role: auth.RoleAdmin, resource: "evaluation run"}, func(ctx context.Context, in *EvalRunIDInput) (*EvalRunOutput, error) {
		t, err := tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		id, err := uuid.Parse(in.ID)
		if err != nil {
			return nil, invalidf("id must be a UUID")
		}
		run, err := s.deps.Evaluator.GetRun(ctx, t, id)
		if err != nil {
			return nil, err
		}
		return &EvalRunOutput{Body: run}, nil
	})
}
