package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/ragd-dev/ragd/internal/migrate"
)

// HealthBody is the body of GET /healthz.
type HealthBody struct {
	Status string `json:"status" enum:"ok" doc:"Always ok: the process is up and serving."`
}

// HealthOutput is the response of GET /healthz.
type HealthOutput struct {
	Body HealthBody
}

// ReadyCheck is one readiness check's result.
type ReadyCheck struct {
	Name  string `json:"name" enum:"database,migrations,embedding_model" doc:"What was checked."`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty" doc:"Why the check failed (a short phrase; details are in the server log)."`
}

// ReadyBody is the body of GET /readyz.
type ReadyBody struct {
	Status string       `json:"status" enum:"ready,not_ready"`
	Checks []ReadyCheck `json:"checks" doc:"Every check, passing or not."`
}

// ReadyOutput is the response of GET /readyz: 200 when every check passes, else 503.
type ReadyOutput struct {
	Status int
	Body   ReadyBody
}

func (s *Server) registerHealth() {
	register(s, huma.Operation{
		OperationID: "healthz", Method: http.MethodGet, Path: "/healthz", Tags: []string{"health"},
		Summary:     "Liveness",
		Description: "Always 200 while the process is up. It checks nothing else; use /readyz for traffic decisions.",
	}, opSpec{public: true}, func(context.Context, *struct{}) (*HealthOutput, error) {
		return &HealthOutput{Body: HealthBody{Status: "ok"}}, nil
	})
	register(s, huma.Operation{
		OperationID: "readyz", Method: http.MethodGet, Path: "/readyz", Tags: []string{"health"},
		Summary: "Readiness",
		Description: "200 when the database answers, its schema is at least at the migration version this binary ships, " +
			"and the embedding model is loaded; otherwise 503 with the failing checks.",
		Responses: map[string]*huma.Response{"503": {Description: "Not ready: the body lists the failing checks."}},
	}, opSpec{public: true}, s.ready)
}

func (s *Server) ready(ctx context.Context, _ *struct{}) (*ReadyOutput, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	log := logger(ctx)
	out := &ReadyOutput{Status: http.StatusOK, Body: ReadyBody{Status: "ready"}}
	add := func(name string, err error, public string) {
		c := ReadyCheck{Name: name, OK: err == nil}
		if err != nil {
			c.Error = public
			out.Status, out.Body.Status = http.StatusServiceUnavailable, "not_ready"
			log.WarnContext(ctx, "readiness check failed", "check", name, "err", err)
		}
		out.Body.Checks = append(out.Body.Checks, c)
	}
	v, dbErr := migrate.Check(ctx, s.deps.Pool)
	add("database", dbErr, "database unreachable")
	if dbErr != nil {
		add("migrations", fmt.Errorf("not checked: %w", dbErr), "not checked: database unreachable")
	} else {
		var err error
		var public string
		switch {
		case v.Pending():
			err = fmt.Errorf("database at version %d, binary expects %d", v.Database, v.Binary)
			public = fmt.Sprintf("database schema at version %d, this binary needs %d: run `ragd migrate up`", v.Database, v.Binary)
		case v.Database > v.Binary:
			// A rolling upgrade migrates before the old replicas stop;
			// taking them out of service would be an outage. Migrations
			// are written to stay compatible with the previous binary.
			log.WarnContext(ctx, "database schema is newer than this binary", "database", v.Database, "binary", v.Binary)
		}
		add("migrations", err, public)
	}
	var embErr error
	if s.deps.Embedder == nil {
		embErr = fmt.Errorf("no embedder")
	}
	add("embedding_model", embErr, "embedding model not loaded")
	return out, nil
}
