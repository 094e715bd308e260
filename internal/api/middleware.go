package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"log/slog"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// reqInfo travels in a request's context from the outermost middleware; the
// inner layers fill it in.
type reqInfo struct {
	id        string
	log       *slog.Logger
	principal auth.Principal
	tenant    *tenant.Tenant // set once the principal's tenant is loaded
}

type infoKey struct{}

func infoOf(ctx context.Context) *reqInfo {
	info, _ := ctx.Value(infoKey{}).(*reqInfo)
	return info
}

func requestID(ctx context.Context) string {
	if info := infoOf(ctx); info != nil {
		return info.id
	}
	return ""
}

// validRequestID accepts client request ids that are safe to echo and log.
var validRequestID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// statusWriter records the status for logs and metrics; Flush and Unwrap keep
// streaming (SSE) and http.ResponseController working.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// conditionalHeader names the precondition header of a write request
// (If-Match, If-None-Match, If-Unmodified-Since), or "".
func conditionalHeader(r *http.Request) string {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return ""
	}
	for _, h := range []string{"If-Match", "If-None-Match", "If-Unmodified-Since"} {
		if r.Header.Get(h) != "" {
			return h
		}
	}
	return ""
}

// middleware wraps the router (outermost first): request id, logging and
// metrics, panic recovery, deadline, body limit, then authentication of /v1.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-ID")
		if !validRequestID.MatchString(id) {
			id = uuid.NewString()
		}
		w.Header().Set("X-Request-ID", id)
		info := &reqInfo{id: id, log: s.log.With("request_id", id)}
		sw := &statusWriter{ResponseWriter: w}
		ctx, cancel := context.WithTimeout(context.WithValue(r.Context(), infoKey{}, info), s.limits.RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		op := s.operationOf(r)
		s.metrics.inflight.Inc()
		defer func() {
			s.metrics.inflight.Dec()
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				info.log.ErrorContext(ctx, "panic", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if sw.status == 0 {
					writeProblem(sw, newProblem(ctx, http.StatusInternalServerError, ""))
				}
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			elapsed := time.Since(start)
			s.metrics.observeRequest(op, status, elapsed)
			attrs := []any{"method", r.Method, "path", r.URL.Path, "operation", op, "status", status, "ms", elapsed.Milliseconds()}
			if info.tenant != nil {
				attrs = append(attrs, "tenant", info.tenant.Slug, "role", info.principal.Role.String())
			}
			level := slog.LevelInfo
			switch {
			case status >= 500:
				level = slog.LevelWarn
			case status < 400 && (op == "healthz" || op == "readyz" || op == "metrics"):
				level = slog.LevelDebug // probes and scrapes would drown the log
			}
			info.log.Log(ctx, level, "request", attrs...)
		}()

		limit := s.limits.MaxBodyBytes
		if op == opCreateJob {
			limit = s.limits.MaxJobBytes // a job's many files or archive
		}
		if r.ContentLength > limit {
			writeProblem(sw, newProblem(ctx, http.StatusRequestEntityTooLarge,
				fmt.Sprintf("request body too large: the limit is %d bytes", limit)))
			return
		}
		if r.Body != nil {
			// One byte of slack: huma's own limit (same size) answers 413
			// first for bodies it reads; this one stops everything else.
			r.Body = http.MaxBytesReader(sw, r.Body, limit+1)
		}
		if isV1(r.URL.Path) {
			if !s.authenticate(sw, r, info) {
				return
			}
			if h := conditionalHeader(r); h != "" {
				// ragd keeps no entity tags: a write guarded by a
				// precondition it ignored would be an unguarded one (the
				// lost update the client meant to prevent).
				writeProblem(sw, newProblem(ctx, http.StatusNotImplemented,
					h+" is not supported: ragd does not evaluate preconditions on writes, and nothing was changed"))
				return
			}
			// The rate limit before the body is read (a request over its
			// tenant's rate costs no body read), a JSON body read whole
			// before an admission slot is taken (a stalled body holds no
			// slot), then the slot.
			if !s.allowRate(sw, r, info, op) || !s.requireUTF8JSON(sw, r) {
				return
			}
			release, ok := s.admit(sw, r, info, op)
			if !ok {
				return
			}
			defer release()
		}
		next.ServeHTTP(sw, r)
	})
}

// requireUTF8JSON answers 422 for a JSON request body that is not valid
// UTF-8 (RFC 8259 requires UTF-8) and reports whether the request may
// proceed. encoding/json would silently turn the invalid bytes into U+FFFD
// and store a document nobody sent; the same bytes uploaded as a file get
// 422 too. A body over the size limit gets 413. Other bodies (multipart
// uploads, which are checked after charset detection) pass untouched.
func (s *Server) requireUTF8JSON(w http.ResponseWriter, r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "" && mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return true
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			writeProblem(w, newProblem(r.Context(), http.StatusRequestEntityTooLarge,
				fmt.Sprintf("request body too large: the limit is %d bytes", s.limits.MaxBodyBytes)))
		} else {
			writeProblem(w, newProblem(r.Context(), http.StatusBadRequest, "could not read the request body"))
		}
		return false
	}
	if !utf8.Valid(body) {
		writeProblem(w, newProblem(r.Context(), http.StatusUnprocessableEntity, "request body is not valid UTF-8 (JSON must be UTF-8)"))
		return false
	}
	if ingest.LoneSurrogate(body) {
		writeProblem(w, newProblem(r.Context(), http.StatusUnprocessableEntity,
			`request body escapes a lone UTF-16 surrogate (\ud800–\udfff without its pair), which is no character`))
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

func isV1(path string) bool { return path == "/v1" || strings.HasPrefix(path, "/v1/") }

// operationOf names the request's operation for metrics and logs: the id
// of the operation whose route matches, or "unmatched" (bounded cardinality).
func (s *Server) operationOf(r *http.Request) string {
	_, pattern := s.mux.Handler(r)
	if id, ok := s.opIDs[pattern]; ok {
		return id
	}
	return "unmatched"
}

// operationIDs maps each mux pattern ("GET /v1/documents") to a name.
func operationIDs(oapi *huma.OpenAPI) map[string]string {
	ids := map[string]string{
		"GET /metrics": "metrics", "GET /docs": "docs",
		"GET /openapi.json": "openapi", "GET /openapi.yaml": "openapi",
		"GET /openapi-3.0.json": "openapi", "GET /openapi-3.0.yaml": "openapi",
	}
	for path, item := range oapi.Paths {
		for method, op := range map[string]*huma.Operation{
			http.MethodGet: item.Get, http.MethodPut: item.Put, http.MethodPost: item.Post,
			http.MethodDelete: item.Delete, http.MethodPatch: item.Patch,
		} {
			if op != nil {
				ids[method+" "+path] = op.OperationID
			}
		}
	}
	return ids
}

// authenticate is layer 1 (doc.go): bearer token → principal → tenant.
// It writes the problem response and returns false when the request may not
// proceed.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request, info *reqInfo) bool {
	ctx := r.Context()
	if len(r.Header.Values("Authorization")) > 1 {
		// Two credentials: a proxy that checks or replaces one of them and
		// ragd would disagree about who the caller is (RFC 9110 §5.3 allows
		// repeating a field only where its value is a list; this one's
		// is not).
		writeProblem(w, newProblem(ctx, http.StatusBadRequest, "more than one Authorization header"))
		return false
	}
	token, err := auth.BearerToken(r.Header.Get("Authorization"))
	var p auth.Principal
	if err == nil {
		p, err = s.deps.Verifier.Verify(ctx, token)
	}
	if err != nil {
		info.log.InfoContext(ctx, "authentication failed", "err", err)
		prob := newProblem(ctx, http.StatusUnauthorized, auth.PublicReason(err))
		if errors.Is(err, auth.ErrMissingToken) {
			// RFC 6750 §3.1: no error code when no credentials were sent.
			prob.headers = http.Header{"Www-Authenticate": {`Bearer realm="ragd"`}}
		} else {
			prob.headers = http.Header{"Www-Authenticate": {`Bearer realm="ragd", error="invalid_token"`}}
		}
		writeProblem(w, prob)
		return false
	}
	t, err := tenant.Load(ctx, s.deps.Pool, p.TenantID)
	switch {
	case errors.Is(err, tenant.ErrNotFound):
		// A token for a tenant that does not exist is a bad credential, not
		// a missing resource.
		info.log.InfoContext(ctx, "authentication failed: unknown tenant", "tenant_id", p.TenantID, "sub", p.Subject)
		prob := newProblem(ctx, http.StatusUnauthorized, "unknown tenant")
		prob.headers = http.Header{"Www-Authenticate": {`Bearer realm="ragd", error="invalid_token"`}}
		writeProblem(w, prob)
		return false
	case errors.Is(err, tenant.ErrDisabled):
		info.log.InfoContext(ctx, "request for a disabled tenant", "tenant", t.Slug, "sub", p.Subject)
		writeProblem(w, newProblem(ctx, http.StatusForbidden, "tenant is disabled"))
		return false
	case err != nil:
		writeProblem(w, fail(ctx, err, "").(*Problem))
		return false
	}
	info.principal = p
	info.tenant = &t
	if s.deps.Switcher != nil {
		s.deps.Switcher.Kick(t)
	}
	return true
}
