package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Evaluator runs a tenant's retrieval evaluations (admin routes under
// /v1/eval); *eval.Service implements it. While Deps.Evaluator is nil the
// routes are not registered.
type Evaluator interface {
	// LoadSet validates questions and stores them as the next version of the
	// tenant's set name (eval.ValidationError lists the problems).
	LoadSet(ctx context.Context, t tenant.Tenant, name string, questions []eval.Question, o eval.LoadOptions) (eval.SetInfo, error)
	// Run evaluates a set through the production retrieval path and stores the run.
	Run(ctx context.Context, t tenant.Tenant, o eval.RunOptions) (eval.Report, error)
	// GetRun returns a stored run of the tenant (eval.ErrRunNotFound → 404).
	GetRun(ctx context.Context, t tenant.Tenant, id uuid.UUID) (eval.Report, error)
}

// PutEvalSetInput is the input of PUT /v1/eval/sets/{name}: the questions in
// the JSONL shape of `ragd eval load`; an empty relevant list marks a question
// the corpus cannot answer.
type PutEvalSetInput struct {
	Name string `path:"name" pattern:"^[a-z0-9][a-z0-9._-]{0,99}$"`
	Body struct {
		Questions []eval.Question `json:"questions" minItems:"1" maxItems:"10000"`
		// AllowUnknown stores relevant source_uris the tenant does not have.
		AllowUnknown bool `json:"allow_unknown,omitempty" doc:"Store questions whose relevant source_uris name no document of the tenant (reported) instead of refusing the set."`
	}
}

// EvalSetOutput is the response of PUT /v1/eval/sets/{name}.
type EvalSetOutput struct{ Body eval.SetInfo }

// EvalRunRequest is the body of POST /v1/eval/runs.
type EvalRunRequest struct {
	Set     string `json:"set" minLength:"1" maxLength:"100" doc:"Name of the evaluation set."`
	Version int    `json:"version,omitempty" minimum:"0" doc:"Set version (0 = latest)."`
	TopK    int    `json:"top_k,omitempty" minimum:"0" maximum:"100" doc:"Chunks retrieved per question (default 20)."`
}

// StartEvalRunInput is the input of POST /v1/eval/runs.
type StartEvalRunInput struct{ Body EvalRunRequest }

// EvalRunIDInput addresses a run.
type EvalRunIDInput struct {
	ID string `path:"id" format:"uuid"`
}

// EvalRunOutput is a finished run: metrics of the production path, each leg
// ablated, misses, refusal calibration and the configuration snapshot.
type EvalRunOutput struct{ Body eval.Report }

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
		if err := eval.RequireRelevant(in.Body.Questions); err != nil {
			return nil, err
		}
		set, err := s.deps.Evaluator.LoadSet(ctx, t, in.Name, in.Body.Questions, eval.LoadOptions{AllowUnknown: in.Body.AllowUnknown})
		if err != nil {
			return nil, err
		}
		return &EvalSetOutput{Body: set}, nil
	})
	register(s, huma.Operation{
		OperationID: "startEvalRun", Method: http.MethodPost, Path: "/v1/eval/runs", Tags: tags,
		Summary: "Run an evaluation set (synchronously) and store the run",
		Errors:  []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, admin, func(ctx context.Context, in *StartEvalRunInput) (*EvalRunOutput, error) {
		t, err := tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		run, err := s.deps.Evaluator.Run(ctx, t, eval.RunOptions{Set: in.Body.Set, Version: in.Body.Version, TopK: in.Body.TopK})
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
