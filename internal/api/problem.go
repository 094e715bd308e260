package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Problem is an RFC 9457 problem details object: the body of every error
// response (Content-Type application/problem+json).
type Problem struct {
	Type      string              `json:"type,omitempty" format:"uri-reference" doc:"A URI identifying the problem type; absent means about:blank (the status says it all)."`
	Title     string              `json:"title" doc:"Short summary of the problem type (the HTTP status text)." example:"Not Found"`
	Status    int                 `json:"status" doc:"HTTP status code." example:"404"`
	Detail    string              `json:"detail,omitempty" doc:"What went wrong in this occurrence. For 5xx it is generic and quotes the request id." example:"document not found"`
	RequestID string              `json:"request_id,omitempty" doc:"The request id (also in the X-Request-ID response header); quote it when reporting a problem."`
	Errors    []*huma.ErrorDetail `json:"errors,omitempty" doc:"Individual validation errors, with the location of each."`

	headers http.Header
}

// Error returns the detail.
func (p *Problem) Error() string { return p.Detail }

// GetStatus returns the HTTP status (huma.StatusError).
func (p *Problem) GetStatus() int { return p.Status }

// GetHeaders returns extra response headers such as Retry-After
// (huma.HeadersError).
func (p *Problem) GetHeaders() http.Header { return p.headers }

// ContentType makes huma send application/problem+json (huma.ContentTypeFilter).
func (p *Problem) ContentType(ct string) string {
	if ct == "application/json" {
		return "application/problem+json"
	}
	return ct
}

// newProblem builds a problem for ctx's request. For status ≥ 500 the
// detail is replaced by a generic message quoting the request id (the caller
// logs the real cause).
func newProblem(ctx context.Context, status int, detail string) *Problem {
	title := http.StatusText(status)
	if status == StatusClientClosedRequest {
		title = "Client Closed Request"
	}
	p := &Problem{Title: title, Status: status, Detail: detail, RequestID: requestID(ctx)}
	if status >= 500 {
		p.Detail = genericDetail(status, p.RequestID)
	}
	return p
}

func genericDetail(status int, id string) string {
	what := "internal error"
	switch status {
	case http.StatusServiceUnavailable:
		what = "service temporarily unavailable; retry later"
	case http.StatusGatewayTimeout:
		what = "the request took longer than the server's time limit"
	}
	if id == "" {
		return what
	}
	return what + " (request id " + id + ")"
}

func init() {
	// A body's field names are matched as written: with huma's default,
	// {"Question": …} was validated as "question" (and encoding/json
	// decoded it so), and a body naming a field twice in two casings was
	// read by one rule in validation and another in decoding. Unknown
	// fields are refused; so is a known one in other capitals.
	huma.ValidateStrictCasing = true
	// Replace huma's error constructor (its documented extension point) so
	// that every error huma itself produces — validation, body limits,
	// negotiation — is a *Problem, and a 5xx never carries Go error text.
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		return humaProblem(context.Background(), status, msg, errs...)
	}
	huma.NewErrorWithContext = func(hctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
		ctx := context.Background()
		if hctx != nil {
			ctx = hctx.Context()
		}
		return humaProblem(ctx, status, msg, errs...)
	}
}

func humaProblem(ctx context.Context, status int, msg string, errs ...error) *Problem {
	for _, err := range errs {
		if tooLarge(err) {
			return newProblem(ctx, http.StatusRequestEntityTooLarge, "request body too large")
		}
	}
	if status == http.StatusInternalServerError && msg == "cannot read request body" {
		// The client went away or sent less than its Content-Length: its
		// fault, not the server's (and not a 5xx in the metrics).
		for _, err := range errs {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return newProblem(ctx, http.StatusBadRequest, "incomplete request body")
			}
		}
	}
	if status >= 500 {
		logger(ctx).ErrorContext(ctx, "internal error", "status", status, "msg", msg, "err", errors.Join(errs...))
		return newProblem(ctx, status, "")
	}
	if status == http.StatusBadRequest && msg == "validation failed" && slices.ContainsFunc(errs, bodyUnparsed) {
		// huma says "validation failed" of a body it could not even parse
		// (a new user's truncated JSON): say what is wrong with it.
		msg = "the request body is not valid JSON"
	}
	p := newProblem(ctx, status, msg)
	for _, err := range errs {
		if err == nil {
			continue
		}
		var d huma.ErrorDetailer
		if errors.As(err, &d) {
			p.Errors = append(p.Errors, boundedDetail(d.ErrorDetail()))
		} else {
			p.Errors = append(p.Errors, &huma.ErrorDetail{Message: err.Error()})
		}
	}
	return p
}

// bodyUnparsed reports huma's error for a body its JSON decoder refused.
func bodyUnparsed(err error) bool {
	var d huma.ErrorDetailer
	return errors.As(err, &d) && d.ErrorDetail() != nil && d.ErrorDetail().Location == "body"
}

// maxEchoBytes bounds the offending value huma echoes in a validation error
// (it would otherwise echo a whole document body back).
const maxEchoBytes = 256

func boundedDetail(d *huma.ErrorDetail) *huma.ErrorDetail {
	if d == nil || d.Value == nil {
		return d
	}
	if b, err := json.Marshal(d.Value); err == nil && len(b) <= maxEchoBytes {
		return d
	}
	c := *d
	c.Value = nil
	return &c
}

// tooLarge recognises the body-limit error however it reached huma (the
// multipart reader only passes on its text).
func tooLarge(err error) bool {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return true
	}
	var d huma.ErrorDetailer
	if errors.As(err, &d) && strings.Contains(d.ErrorDetail().Message, "request body too large") {
		return true
	}
	return err != nil && strings.Contains(err.Error(), "http: request body too large")
}

// StatusClientClosedRequest is the status recorded (metrics, request log)
// for a request whose client hung up before the answer was ready: the
// nginx convention, outside the 5xx range because the server did not fail.
// No client reads it.
const StatusClientClosedRequest = 499

// errNotFound: a handler's own lookup found no row. Store lookups return
// store.ErrNotFound for any missing row, which is not always the caller's
// "not found" (a missing embedding_models row is a server fault), so each
// handler translates the ones that are, as domain packages do with their own
// ErrNotFound.
var errNotFound = errors.New("not found")

// Messages for 4xx responses.
const (
	msgNotFound = "not found"
	msgNUL      = "text must be valid UTF-8 without the NUL character (U+0000)"
)

// classify maps an error from a handler to a status and a client-facing
// detail. It is the one place where Go errors become HTTP statuses.
// context.Canceled that is not the client's hang-up (fail checks that first)
// is a server fault: 500.
func classify(err error) (int, string) {
	switch {
	case errors.Is(err, ingest.ErrEmbedding):
		// The embedding provider is down or timing out: retryable, nothing stored.
		return http.StatusServiceUnavailable, "the embedding model is unavailable; nothing was stored, retry later"
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, ""
	case store.IsUnavailable(err):
		return http.StatusServiceUnavailable, ""
	case errors.Is(err, job.ErrBusy):
		return http.StatusServiceUnavailable, "the server is taking in other ingestion jobs' files; nothing was stored, retry"
	case errors.Is(err, store.ErrTransient):
		// A deadlock or serialization failure rolled the whole request back:
		// nothing was stored, and a retry may succeed.
		return http.StatusServiceUnavailable, "the request lost a race with a concurrent change; nothing was stored, retry"
	case errors.Is(err, store.ErrReferenceGone):
		// The tenant or document the write refers to was deleted meanwhile.
		return http.StatusConflict, "what the request refers to was deleted meanwhile; nothing was stored"
	case errors.Is(err, errNotFound), errors.Is(err, ingest.ErrNotFound), errors.Is(err, tenant.ErrNotFound),
		errors.Is(err, eval.ErrRunNotFound), errors.Is(err, eval.ErrSetNotFound), errors.Is(err, job.ErrNotFound):
		return http.StatusNotFound, msgNotFound
	case errors.Is(err, tenant.ErrDisabled):
		return http.StatusForbidden, "tenant is disabled"
	case errors.Is(err, ingest.ErrTooLarge), errors.Is(err, job.ErrTooLarge):
		return http.StatusRequestEntityTooLarge, clientText(err)
	case errors.Is(err, extract.ErrUnsupportedType), errors.Is(err, extract.ErrBinary), errors.Is(err, extract.ErrTypeMismatch):
		// Binary bytes are a media type ragd does not read as text.
		return http.StatusUnsupportedMediaType, clientText(err)
	case errors.Is(err, search.ErrEmptyQuery), errors.Is(err, search.ErrQueryTooLong), errors.Is(err, search.ErrBadTopK),
		errors.Is(err, search.ErrInvalidFilter), errors.Is(err, ingest.ErrInvalidSourceURI), errors.Is(err, ingest.ErrInvalidMetadata),
		errors.Is(err, ingest.ErrInvalidAccess), errors.Is(err, ingest.ErrQuotaExceeded), errors.Is(err, ingest.ErrInvalidTitle),
		errors.Is(err, extract.ErrInvalidUTF8), errors.Is(err, extract.ErrEmpty),
		errors.Is(err, extract.ErrNoTextLayer), errors.Is(err, extract.ErrUnreadable),
		errors.Is(err, embed.ErrEmptyInput), errors.Is(err, errInvalidInput), errors.Is(err, job.ErrInvalid),
		errors.Is(err, eval.ErrInvalidName), errors.Is(err, eval.ErrNoAnswerable), errors.As(err, new(*eval.ValidationError)):
		return http.StatusUnprocessableEntity, clientText(err)
	case errors.Is(err, ingest.ErrHidden):
		return http.StatusConflict, "source_uri is taken by a document you cannot access"
	case errors.Is(err, store.ErrConflict):
		return http.StatusConflict, "conflicts with an existing resource"
	case errors.Is(err, store.ErrInvalidValue):
		return http.StatusUnprocessableEntity, "a value is out of the allowed range"
	case errors.Is(err, store.ErrInvalidText):
		// PostgreSQL text and jsonb cannot hold U+0000 or invalid UTF-8: a
		// NUL in a query, title, prefix or metadata string, or a query
		// parameter's percent-escape that is not UTF-8 (?source_uri_prefix=%ff),
		// is the client's input, not a fault (invalid byte sequence 0x00 /
		// unsupported Unicode escape \u0000 / invalid byte sequence for
		// encoding UTF8).
		return http.StatusUnprocessableEntity, msgNUL
	}
	return http.StatusInternalServerError, ""
}

// errInvalidInput marks a validation error raised by a handler itself.
var errInvalidInput = errors.New("invalid input")

func invalidf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errInvalidInput, fmt.Sprintf(format, a...))
}

// clientText is the message of a 4xx error: the error's own text (built from
// ragd's sentinels and the client's input), minus package prefixes, bounded.
func clientText(err error) string {
	s := err.Error()
	// A package's prefix opens the text or one of its wrapped parts
	// ("job: invalid job: the archive is not …"); the same words inside a
	// part are the message's ("invalid job: " read "invalid the archive
	// is not …" with every "job: " removed).
	for _, p := range []string{"invalid input: ", "search: ", "ingest: ", "extract: ", "job: "} {
		for strings.HasPrefix(s, p) {
			s = s[len(p):]
		}
		s = strings.ReplaceAll(s, ": "+p, ": ")
	}
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

// fail converts a handler error to the *Problem returned to huma, logging
// server-side errors with the request id. Errors that already carry a status
// (a *Problem or another huma.StatusError) pass through. resource names what
// a 404 did not find ("document"); empty means "not found".
func fail(ctx context.Context, err error, resource string) error {
	var se huma.StatusError
	if errors.As(err, &se) {
		return err
	}
	if errors.Is(err, context.Canceled) && errors.Is(ctx.Err(), context.Canceled) {
		// The client hung up: nothing failed on this side, so it is neither
		// logged as an error nor counted as a 5xx.
		logger(ctx).DebugContext(ctx, "client closed the request", "err", err)
		return newProblem(ctx, StatusClientClosedRequest, "client closed the request")
	}
	status, detail := classify(err)
	p := newProblem(ctx, status, detail)
	if errors.Is(err, ingest.ErrQuotaExceeded) {
		// The write path's own check (checkQuota's twin, decided under the
		// tenant's write lock): the same problem type.
		p.Type = problemQuotaExceeded
	}
	switch {
	case status == http.StatusServiceUnavailable:
		p.headers = http.Header{"Retry-After": {"5"}}
		logger(ctx).WarnContext(ctx, "unavailable", "err", err)
	case status >= 500:
		logger(ctx).ErrorContext(ctx, "internal error", "status", status, "err", err)
	case status == http.StatusNotFound && resource != "":
		p.Detail = resource + " not found"
	}
	return p
}

// writeProblem writes p as the response (outside huma: router middleware).
func writeProblem(w http.ResponseWriter, p *Problem) {
	for k, vs := range p.headers {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

func logger(ctx context.Context) *slog.Logger {
	if info := infoOf(ctx); info != nil && info.log != nil {
		return info.log
	}
	return slog.Default()
}
