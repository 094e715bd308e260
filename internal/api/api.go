package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/followup"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/limit"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// Version is the API version in the OpenAPI document.
const Version = "1.0.0"

// Ingester writes documents for a tenant; *ingest.Pipeline implements it.
type Ingester interface {
	// Upsert adds or replaces d (idempotent by content hash).
	Upsert(ctx context.Context, t tenant.Tenant, d ingest.Document) (ingest.Outcome, error)
	// Delete removes the document id; ingest.ErrNotFound when the tenant has none.
	Delete(ctx context.Context, t tenant.Tenant, id uuid.UUID) (ingest.Outcome, error)
	// DeleteBySourceURI removes the document with that source_uri; ingest.ErrNotFound when absent.
	DeleteBySourceURI(ctx context.Context, t tenant.Tenant, uri string) (ingest.Outcome, error)
	// SetAccess replaces the access list of document id and nothing else,
	// reporting whether it changed; ingest.ErrNotFound when the caller
	// cannot read the document.
	SetAccess(ctx context.Context, t tenant.Tenant, id uuid.UUID, access []string) (bool, error)
	// SetMetadata replaces the metadata of document id and nothing else,
	// reporting whether it changed; ingest.ErrNotFound when the caller
	// cannot read the document, ingest.ErrInvalidMetadata.
	SetMetadata(ctx context.Context, t tenant.Tenant, id uuid.UUID, metadata map[string]any) (bool, error)
}

// Jobs serves the /v1/ingest/jobs routes; *job.Service implements it.
type Jobs interface {
	// Create records a job of files (202); job.ErrInvalid, job.ErrTooLarge.
	Create(ctx context.Context, t tenant.Tenant, origin, label string, files []job.File) (job.Job, error)
	// Get returns a job; job.ErrNotFound when the tenant has no such job.
	Get(ctx context.Context, tenantID, id uuid.UUID) (job.Job, error)
	// Items returns a page of a job's documents with an index above after.
	Items(ctx context.Context, tenantID, id uuid.UUID, after, limit int) ([]job.Item, error)
	// ItemsSince returns a job's documents changed after (since, after).
	ItemsSince(ctx context.Context, tenantID, id uuid.UUID, since time.Time, after, limit int) ([]job.Item, error)
	// List returns a page of the tenant's jobs, newest first.
	List(ctx context.Context, tenantID uuid.UUID, after *job.Cursor, limit int) ([]job.Job, error)
}

// Limits bound requests. Zero fields take the defaults of config.Load.
type Limits struct {
	// MaxBodyBytes is the largest request body (413 above it). Default
	// config.DefaultMaxBodyBytes (10 MiB).
	MaxBodyBytes int64
	// MaxQueryChars is the longest question (search queries are bounded by
	// the Searcher's own MaxQueryChars). Default config.DefaultMaxQueryChars.
	MaxQueryChars int
	// MaxTopK is the largest top_k of an answer request. Default
	// config.DefaultMaxTopK.
	MaxTopK int
	// RequestTimeout is each request's deadline (504 when it passes).
	// Default config.DefaultRequestTimeout.
	RequestTimeout time.Duration
	// MaxJobBytes is the largest body of POST /v1/ingest/jobs and the most
	// bytes one job stores. Default config.DefaultIngestJobMaxBytes.
	MaxJobBytes int64
	// MaxJobFiles is the most documents one job holds. Default
	// config.DefaultIngestJobMaxFiles.
	MaxJobFiles int
	// Rates are each tenant's requests per second per route class, for
	// tenants without their own (tenant.Limits); 0 = unlimited. The zero
	// Rates leave every tenant unlimited.
	Rates limit.Rates
	// RateBurst is the token bucket size in seconds of the rate. Default
	// config.DefaultRateBurst.
	RateBurst time.Duration
	// MaxInFlight /v1 requests are served at once; 0 = 4 × the pool size.
	// MaxQueued more wait for a slot, each at most QueueWait; beyond that,
	// 503 with Retry-After. Defaults config.DefaultMaxQueued and
	// config.DefaultQueueWait; MaxQueued < 0 means no queue.
	MaxInFlight int
	MaxQueued   int
	QueueWait   time.Duration
	// Quotas are the storage quotas of tenants without their own; 0 =
	// unlimited.
	QuotaDocuments, QuotaChunks, QuotaBytes int64
	// MetricsToken, when set, is the bearer token GET /metrics requires.
	MetricsToken string
}

// LimitsFromConfig takes the limits of ragd's configuration.
func LimitsFromConfig(c config.Config) Limits {
	return Limits{MaxBodyBytes: c.MaxBodyBytes, MaxQueryChars: c.MaxQueryChars, MaxTopK: c.MaxTopK, RequestTimeout: c.RequestTimeout,
		MaxJobBytes: c.IngestJobMaxBytes, MaxJobFiles: c.IngestJobMaxFiles,

		Rates: limit.Rates{Query: c.RateQuery, Write: c.RateWrite, Admin: c.RateAdmin}, RateBurst: c.RateBurst,
		MaxInFlight: c.MaxInFlight, MaxQueued: c.MaxQueued, QueueWait: c.QueueWait,
		QuotaDocuments: c.QuotaDocuments, QuotaChunks: c.QuotaChunks, QuotaBytes: c.QuotaBytes, MetricsToken: c.MetricsToken}
}

func (l *Limits) defaults() {
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = config.DefaultMaxBodyBytes
	}
	if l.MaxQueryChars <= 0 {
		l.MaxQueryChars = config.DefaultMaxQueryChars
	}
	if l.MaxTopK <= 0 {
		l.MaxTopK = config.DefaultMaxTopK
	}
	if l.RequestTimeout <= 0 {
		l.RequestTimeout = config.DefaultRequestTimeout
	}
	if l.MaxJobBytes <= 0 {
		l.MaxJobBytes = config.DefaultIngestJobMaxBytes
	}
	if l.MaxJobFiles <= 0 {
		l.MaxJobFiles = config.DefaultIngestJobMaxFiles
	}
	if l.RateBurst <= 0 {
		l.RateBurst = config.DefaultRateBurst
	}
	if l.MaxQueued == 0 {
		l.MaxQueued = config.DefaultMaxQueued
	}
	if l.QueueWait <= 0 {
		l.QueueWait = config.DefaultQueueWait
	}
}

// Deps are what the API serves with.
type Deps struct {
	// Pool is the application-role pool (row-level security applies). Required.
	Pool *pgxpool.Pool
	// Verifier checks bearer tokens. Required.
	Verifier *auth.Verifier
	// Searcher serves POST /v1/search. Required.
	Searcher *search.Searcher
	// Ingester serves document writes. Required.
	Ingester Ingester
	// Asker serves POST /v1/answer; nil leaves the route unregistered.
	Asker Asker
	// Evaluator serves the /v1/eval routes; nil leaves them unregistered.
	Evaluator Evaluator
	// Jobs serves the /v1/ingest/jobs routes; nil leaves them unregistered.
	Jobs Jobs
	// Embedder is the loaded embedding model, reported by /readyz (nil = not ready).
	Embedder embed.Embedder
	// Models and Switcher serve the tenant's embedding model in GET
	// /v1/tenant and POST /v1/tenant/model; the Switcher is kicked for
	// every request's tenant (a switch in progress proceeds). nil: the
	// route is unregistered and the tenant shows no model.
	Models   *model.Set
	Switcher *model.Switcher
	// Logger receives request logs and server-side errors (default slog.Default()).
	Logger *slog.Logger
	// Limits bound requests.
	Limits Limits
	// Rewriter makes follow-up questions of /v1/answer standalone (nil:
	// earlier turns are ignored).
	Rewriter *followup.Rewriter
	// Recorder receives retrieval events and usage counters (nil: none
	// are recorded).
	Recorder *traffic.Recorder
	// Registry receives ragd's metrics, served at /metrics (default: a new
	// registry with the Go and process collectors).
	Registry *prometheus.Registry
}

// Server is the HTTP API. It is an http.Handler.
type Server struct {
	deps    Deps
	limits  Limits
	log     *slog.Logger
	mux     *http.ServeMux
	api     huma.API
	metrics *metrics
	opIDs   map[string]string // mux pattern → operation id
	routes  []string          // every pattern registered on mux (Routes)
	handler http.Handler
	limiter *limit.Limiter
	gate    *limit.Gate
	// jobIntake bounds the bytes of submitted job files held in memory
	// at once (job.Intake): jobIntakeJobs × the per-job limit.
	jobIntake job.IntakeBudget
	// streams counts each tenant's open job event streams.
	streams streamCounts
}

// New builds the API. It does not touch the database. Errors: a missing
// required dependency.
func New(d Deps) (*Server, error) {
	switch {
	case d.Pool == nil:
		return nil, errors.New("api: no database pool")
	case d.Verifier == nil:
		return nil, errors.New("api: no token verifier")
	case d.Searcher == nil:
		return nil, errors.New("api: no searcher")
	case d.Ingester == nil:
		return nil, errors.New("api: no ingester")
	}
	return newServer(d), nil
}

func newServer(d Deps) *Server {
	d.Limits.defaults()
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	s := &Server{deps: d, limits: d.Limits, log: d.Logger, mux: http.NewServeMux()}
	inflight := d.Limits.MaxInFlight
	if inflight <= 0 {
		inflight = 16 // 4 × pgx's default pool size on up to 4 cores
		if d.Pool != nil {
			inflight = 4 * int(d.Pool.Config().MaxConns)
		}
	}
	s.limiter = limit.NewLimiter(d.Limits.RateBurst)
	s.gate = limit.NewGate(inflight, d.Limits.MaxQueued, d.Limits.QueueWait)
	s.jobIntake = job.NewIntakeBudget(jobIntakeJobs * s.limits.MaxJobBytes)
	s.metrics = newMetrics(d.Registry, d.Pool)
	s.metrics.registerTraffic(s.gate, d.Recorder)

	cfg := huma.DefaultConfig("ragd", Version)
	cfg.Info.Description = "Multi-tenant retrieval-augmented generation over your own documents, " +
		"with answers that cite their sources. Every /v1 operation needs `Authorization: Bearer <JWT>`; " +
		"the token's tenant claim selects the tenant and its role claim (reader < editor < admin) bounds what it may do. " +
		"Errors are RFC 9457 problem details."
	cfg.SchemasPath = ""  // no /schemas route ...
	cfg.CreateHooks = nil // ... and no $schema links injected into bodies
	cfg.RejectUnknownQueryParameters = true
	cfg.Formats = map[string]huma.Format{"application/json": exactJSON, "json": exactJSON}
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		securityScheme: {Type: "http", Scheme: "bearer", BearerFormat: "JWT",
			Description: "A JWT with the tenant id (tenant_id claim, a UUID) and role (role claim: reader, editor or admin)."},
	}
	s.api = humago.New(routeRecorder{s}, cfg)
	s.api.UseMiddleware(s.authorize, s.singleValuedQuery)

	s.registerHealth()
	s.registerDocuments()
	s.registerSearch()
	if d.Asker != nil {
		s.registerAnswer()
	}
	s.registerTenant()
	s.registerUsage()
	s.registerEvents()
	if d.Evaluator != nil {
		s.registerEval()
	}
	if d.Jobs != nil {
		s.registerJobs()
	}
	routeRecorder{s}.Handle("GET /metrics", s.protectMetrics(s.metrics.handler()))
	s.mux.HandleFunc("/", s.notFound) // the fallback, not a route
	s.opIDs = operationIDs(s.api.OpenAPI())
	s.handler = s.middleware(s.mux)
	s.warmSpecs()
	return s
}

// warmSpecs requests each OpenAPI document once before the server serves:
// huma renders them on their first request into variables it writes
// without a lock, so two concurrent first requests race (the race detector
// caught it under the leak fuzzer). Rendered here, before any request
// goroutine exists, every later request only reads them.
func (s *Server) warmSpecs() {
	for _, p := range []string{"/openapi.json", "/openapi-3.0.json", "/openapi.yaml", "/openapi-3.0.yaml"} {
		r, err := http.NewRequest(http.MethodGet, p, nil)
		if err != nil {
			continue
		}
		s.mux.ServeHTTP(discard{header: http.Header{}}, r)
	}
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ header http.Header }

func (d discard) Header() http.Header       { return d.header }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// notFound answers requests no route matches with a problem: 405 (and
// Allow) when the path exists for other methods, else 404.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodDelete, http.MethodPatch} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		p := newProblem(r.Context(), http.StatusMethodNotAllowed, "method not allowed")
		p.headers = http.Header{"Allow": {strings.Join(allow, ", ")}}
		writeProblem(w, p)
		return
	}
	writeProblem(w, newProblem(r.Context(), http.StatusNotFound, "no such route"))
}

// multipartMemory is how much of a multipart form's file data is held in
// memory (the rest is spooled to temporary files); Go's reader allows the
// form's headers and values 10 MB beyond it.
const multipartMemory = 16 << 20

// A job's form holds up to RAGD_INGEST_JOB_MAX_FILES parts: Go's multipart
// reader counts each part's headers against the form's memory, and about
// 7,500 small files used it up at huma's 8 KiB ("multipart: message too
// large"). Set once for the process: huma reads the package variable.
func init() { humago.MultipartMaxMemory = multipartMemory }

// routeRecorder registers on the server's mux and records each pattern:
// huma's operations and its OpenAPI and docs routes arrive through
// HandleFunc (humago's Mux), the rest through Handle.
type routeRecorder struct{ s *Server }

func (r routeRecorder) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	r.Handle(pattern, http.HandlerFunc(h))
}

func (r routeRecorder) Handle(pattern string, h http.Handler) {
	r.s.routes = append(r.s.routes, pattern)
	r.s.mux.Handle(pattern, h)
}

func (r routeRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) { r.s.mux.ServeHTTP(w, req) }

// Routes returns every route the server serves, as http.ServeMux patterns
// ("METHOD /path/{param}"), sorted: the operations of the OpenAPI document,
// huma's OpenAPI document and docs routes, and /metrics. Requests that match
// none get the 404/405 problem. Operations registered on API() later are
// included.
func (s *Server) Routes() []string {
	out := slices.Clone(s.routes)
	slices.Sort(out)
	return out
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// API returns the huma API (for tests and the OpenAPI document).
func (s *Server) API() huma.API { return s.api }

const securityScheme = "bearer"

// Operation metadata keys.
const (
	metaRole   = "ragd.role"   // auth.Role: minimum role (absent = admin)
	metaPublic = "ragd.public" // true: no principal needed (health checks)
	metaManage = "ragd.manage" // true: document management (the admin role sees every document)
)

// opSpec is how an operation is protected and described.
type opSpec struct {
	role     auth.Role // minimum role; ignored when public
	public   bool
	resource string // what a 404 did not find
	// manage marks document management (listing, reading, writing,
	// deleting documents and changing their access, the tenant's counts):
	// the admin role runs it over every document of the tenant. Every
	// other operation, and every role below admin, reads as the caller's
	// principals (visibility).
	manage bool
}

// register declares one operation: its minimum role in Metadata (enforced by
// authorize), the bearer security requirement in the OpenAPI document, the
// request limits, and the error mapping of its handler (fail).
func register[I, O any](s *Server, op huma.Operation, spec opSpec, h func(context.Context, *I) (*O, error)) {
	op.Metadata = map[string]any{}
	if spec.public {
		op.Metadata[metaPublic] = true
	} else {
		op.Metadata[metaRole] = spec.role
		op.Metadata[metaManage] = spec.manage
		op.Security = []map[string][]string{{securityScheme: {}}}
		op.Errors = append(op.Errors, http.StatusUnauthorized, http.StatusForbidden)
		op.Description = joinDesc(op.Description, "Requires the "+spec.role.String()+" role or above.")
	}
	op.Errors = append(op.Errors, http.StatusInternalServerError, http.StatusServiceUnavailable, http.StatusGatewayTimeout)
	if op.MaxBodyBytes == 0 {
		op.MaxBodyBytes = s.limits.MaxBodyBytes
	}
	op.BodyReadTimeout = s.limits.RequestTimeout
	huma.Register(s.api, op, func(ctx context.Context, in *I) (*O, error) {
		out, err := h(ctx, in)
		if err != nil {
			return nil, fail(ctx, err, spec.resource)
		}
		return out, nil
	})
}

func joinDesc(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}

// singleValuedQuery refuses a query parameter given more than once: each
// takes one value, and the operation read only the first (DELETE
// /v1/documents?source_uri=a.md&source_uri=b.md deleted a.md alone and
// answered 200).
func (s *Server) singleValuedQuery(ctx huma.Context, next func(huma.Context)) {
	u := ctx.URL()
	for k, v := range u.Query() {
		if len(v) > 1 {
			_ = huma.WriteErr(s.api, ctx, http.StatusUnprocessableEntity, fmt.Sprintf("query parameter %q is given %d times; it takes one value", k, len(v)))
			return
		}
	}
	next(ctx)
}

// authorize is the operation-level check (layer 2 in doc.go): a principal
// with at least the operation's declared role, admin when none is declared.
func (s *Server) authorize(ctx huma.Context, next func(huma.Context)) {
	op := ctx.Operation()
	if pub, _ := op.Metadata[metaPublic].(bool); pub {
		next(ctx)
		return
	}
	info := infoOf(ctx.Context())
	if info == nil || info.tenant == nil {
		ctx.SetHeader("WWW-Authenticate", `Bearer realm="ragd"`)
		_ = huma.WriteErr(s.api, ctx, http.StatusUnauthorized, "missing bearer token")
		return
	}
	min, ok := op.Metadata[metaRole].(auth.Role)
	if !ok {
		min = auth.RoleAdmin
	}
	if !info.principal.Role.Allows(min) {
		ctx.SetHeader("WWW-Authenticate", `Bearer realm="ragd", error="insufficient_scope"`)
		_ = huma.WriteErr(s.api, ctx, http.StatusForbidden, "this operation needs the "+min.String()+" role")
		return
	}
	manage, _ := op.Metadata[metaManage].(bool)
	next(huma.WithContext(ctx, store.WithVisibility(ctx.Context(), visibility(info.principal, manage))))
}

// visibility is whose documents a request's tenant transactions read: every
// document for the admin role on a management operation, else the caller's
// principals (its subject and groups; none: tenant-wide documents only).
// Search, answers and evaluation runs are always the caller's: answering as
// an admin is still answering as a person.
func visibility(p auth.Principal, manage bool) store.Visibility {
	if manage && p.Role == auth.RoleAdmin {
		return store.AllDocuments()
	}
	return store.AsPrincipals(p.Principals())
}

// callerVisibility returns the request's Visibility (set by authorize).
func callerVisibility(ctx context.Context) store.Visibility { return store.VisibilityOf(ctx) }

// errNoTenant is returned by tenantOf when no tenant was authenticated; it
// cannot happen behind the middleware and maps to 500 if it ever does.
var errNoTenant = errors.New("api: no authenticated tenant in context")

// tenantOf returns the request's authenticated tenant.
func tenantOf(ctx context.Context) (tenant.Tenant, error) {
	if info := infoOf(ctx); info != nil && info.tenant != nil {
		return *info.tenant, nil
	}
	return tenant.Tenant{}, errNoTenant
}

// exactJSON is huma's JSON format, except that a request body decoded into
// a Go value keeps the numbers inside free-form JSON (metadata and its
// filters) as written: decoded as float64, 9007199254740993 was stored as
// …992 and matched the other document's filter. Huma's schema validation
// decodes into an interface value and needs float64 there; that decoding is
// unchanged.
var exactJSON = huma.Format{
	Marshal: huma.DefaultJSONFormat.Marshal,
	Unmarshal: func(data []byte, v any) error {
		if _, generic := v.(*any); generic {
			return json.Unmarshal(data, v)
		}
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		if err := d.Decode(v); err != nil {
			return err
		}
		if d.More() {
			return errors.New("invalid character after top-level value")
		}
		return nil
	},
}
