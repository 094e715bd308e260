package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/followup"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// recordSearch hands a finished search to the event recorder and returns
// the event id, or "" when the event was not queued. It never blocks or
// fails the request.
func (s *Server) recordSearch(ctx context.Context, t tenant.Tenant, req search.Request, resp search.Response, start time.Time) string {
	return s.record(ctx, t, "search", req, "", resp.Results, resp.Confidence, false, "", resp.Degraded, resp.Timings, start)
}

// recordAnswer hands a finished answer to the event recorder (recordSearch):
// asked is the question as asked, rw its standalone rewrite.
func (s *Server) recordAnswer(ctx context.Context, t tenant.Tenant, asked string, rw followup.Result, req search.Request, res AskResult, start time.Time) string {
	rewritten := ""
	if rw.Method != "" {
		rewritten = rw.Question
	}
	req.Query = asked
	return s.record(ctx, t, "answer", req, rewritten, res.Retrieved, res.Confidence, res.Refused, res.RefusalReason, res.Degraded, res.Timings, start)
}

func (s *Server) record(ctx context.Context, t tenant.Tenant, op string, req search.Request, rewritten string, results []search.Result, confidence float64,
	refused bool, reason string, degraded bool, timings map[string]float64, start time.Time) string {
	if s.deps.Recorder == nil {
		return ""
	}
	id, err := uuid.NewV7()
	if err != nil {
		return ""
	}
	e := traffic.Event{ID: id, TenantID: t.ID, At: start, Operation: op, RequestID: requestID(ctx), Question: req.Query, Rewritten: rewritten,
		KeepText: t.Settings.KeepsQuestionText(), TopK: req.TopK, Confidence: confidence, Refused: refused, RefusalReason: reason,
		Degraded: degraded, TimingsMS: timings, TotalMS: float64(time.Since(start).Microseconds()) / 1000,
		RetentionDays: t.Settings.RetentionDays(), Filters: map[string]any{}}
	if info := infoOf(ctx); info != nil {
		e.Subject = info.principal.Subject
	}
	if req.SourceURIPrefix != "" {
		e.Filters["source_uri_prefix"] = req.SourceURIPrefix
	}
	if len(req.Metadata) > 0 {
		e.Filters["metadata"] = req.Metadata
	}
	e.Results = make([]traffic.Result, len(results))
	for i, r := range results {
		e.Results[i] = traffic.Result{Rank: r.Rank, ChunkID: r.ChunkID, DocumentID: r.DocumentID, SourceURI: r.SourceURI, Score: r.Score,
			VectorRank: r.VectorRank, VectorDistance: r.VectorDistance, KeywordRank: r.KeywordRank, KeywordScore: r.KeywordScore, RerankScore: r.RerankScore}
	}
	if !s.deps.Recorder.Record(e) {
		return ""
	}
	return id.String()
}

// EventResult is one chunk a recorded search or answer returned.
type EventResult struct {
	Rank           int      `json:"rank"`
	ChunkID        string   `json:"chunk_id" format:"uuid"`
	DocumentID     string   `json:"document_id" format:"uuid"`
	SourceURI      string   `json:"source_uri"`
	Score          float64  `json:"score" doc:"Fused score."`
	VectorRank     *int     `json:"vector_rank,omitempty"`
	VectorDistance *float64 `json:"vector_distance,omitempty"`
	KeywordRank    *int     `json:"keyword_rank,omitempty"`
	KeywordScore   *float64 `json:"keyword_score,omitempty"`
	RerankScore    *float64 `json:"rerank_score,omitempty"`
}

// EventFeedback is the feedback given on an event.
type EventFeedback struct {
	Helpful   bool      `json:"helpful"`
	Note      string    `json:"note,omitempty"`
	SourceURI string    `json:"source_uri,omitempty" doc:"The source that was right."`
	ChunkID   string    `json:"chunk_id,omitempty" format:"uuid" doc:"The chunk that was right."`
	At        time.Time `json:"at"`
}

// Event is one recorded search or answer.
type Event struct {
	ID            string             `json:"id" format:"uuid"`
	CreatedAt     time.Time          `json:"created_at"`
	Operation     string             `json:"operation" enum:"search,answer"`
	RequestID     string             `json:"request_id"`
	Subject       string             `json:"subject" doc:"The principal's subject (the token's sub claim)."`
	Question      *string            `json:"question" doc:"The question as asked; null when the tenant keeps only its hash (settings event_question = sha256)."`
	QuestionSHA   string             `json:"question_sha256" doc:"Hex sha256 of the question as asked."`
	Rewritten     *string            `json:"rewritten,omitempty" doc:"The standalone question a follow-up was rewritten to."`
	Filters       map[string]any     `json:"filters"`
	TopK          int                `json:"top_k"`
	Results       []EventResult      `json:"results"`
	Confidence    float64            `json:"confidence"`
	Refused       bool               `json:"refused"`
	RefusalReason string             `json:"refusal_reason,omitempty"`
	Degraded      bool               `json:"degraded"`
	TimingsMS     map[string]float64 `json:"timings_ms"`
	TotalMS       float64            `json:"total_ms" doc:"The handler's time, milliseconds."`
	Feedback      *EventFeedback     `json:"feedback,omitempty"`
}

// ListEventsInput is the input of GET /v1/events.
type ListEventsInput struct {
	Limit   int       `query:"limit" minimum:"1" maximum:"500" default:"50" doc:"Events per page."`
	Cursor  string    `query:"cursor" maxLength:"200" doc:"next_cursor of the previous page."`
	Refused string    `query:"refused" enum:"true,false" doc:"Only refused (true) or only answered (false) events."`
	Rated   string    `query:"rated" enum:"helpful,unhelpful,any" doc:"Only events with this feedback."`
	Since   time.Time `query:"since" doc:"Only events at or after this time (RFC 3339)."`
	Until   time.Time `query:"until" doc:"Only events before this time (RFC 3339)."`
}

// EventList is a page of events, newest first.
type EventList struct {
	Events     []Event `json:"events"`
	NextCursor string  `json:"next_cursor,omitempty" doc:"Pass as cursor for the next page; absent on the last page."`
}

// ListEventsOutput is the response of GET /v1/events.
type ListEventsOutput struct {
	Body EventList
}

// FeedbackRequest is the body of POST /v1/events/{id}/feedback.
type FeedbackRequest struct {
	Helpful   bool   `json:"helpful" doc:"Whether the answer or results helped."`
	Note      string `json:"note,omitempty" maxLength:"4000" doc:"Free text."`
	SourceURI string `json:"source_uri,omitempty" maxLength:"2048" doc:"The source_uri that holds the right answer (the label an evaluation set takes): one of the tenant's documents the caller can read, else 422."`
	ChunkID   string `json:"chunk_id,omitempty" format:"uuid" doc:"The chunk that holds the right answer: one of the tenant's chunks the caller can read, of the document source_uri names when both are given, else 422."`
}

// FeedbackInput is the input of POST /v1/events/{id}/feedback.
type FeedbackInput struct {
	ID   string `path:"id" doc:"The event_id of a search or answer response."`
	Body FeedbackRequest
}

func (s *Server) registerEvents() {
	tags := []string{"events"}
	register(s, huma.Operation{
		OperationID: "listEvents", Method: http.MethodGet, Path: "/v1/events", Tags: tags,
		Summary: "Recorded searches and answers",
		Description: "The tenant's retrieval events, newest first: the question (or only its hash), filters, the chunks returned with " +
			"each leg's rank and score, confidence, refusal, stage latencies, the principal's subject, the request id and the feedback " +
			"given. Kept for the tenant's retention (event_retention_days, default 30). Admins only: events name documents the asking " +
			"principal could see, which other principals may not.",
		Errors: []int{http.StatusUnprocessableEntity},
	}, opSpec{role: auth.RoleAdmin, resource: "event"}, s.listEvents)
	register(s, huma.Operation{
		OperationID: "eventFeedback", Method: http.MethodPost, Path: "/v1/events/{id}/feedback", Tags: tags,
		Summary:       "Rate a search or answer",
		Description:   "Stores feedback with the event: helpful or not, an optional note, and optionally the source that was right. Replaces earlier feedback on the event. Only the principal who asked (the token's sub) or an admin rates an event; another user's event is a 404. Events are stored in the background within about a second of their response: feedback that reaches the server that answered waits for its event to be stored (503 with Retry-After if that takes more than a few seconds), so an event_id just returned is never a 404; with several servers behind a load balancer, another server answers 404 until the event is stored.",
		DefaultStatus: http.StatusNoContent,
		Errors:        []int{http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, opSpec{role: auth.RoleReader, resource: "event"}, s.feedback)
}

const eventCursorTag = "e1:"

func (s *Server) listEvents(ctx context.Context, in *ListEventsInput) (*ListEventsOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	limit := in.Limit
	if limit <= 0 {
		limit = 50
	}
	p := store.ListRetrievalEventsParams{TenantID: t.ID, MaxRows: int32(limit + 1),
		Since: pgtype.Timestamptz{Time: time.Unix(0, 0), Valid: true}, Until: pgtype.Timestamptz{Time: time.Now().Add(24 * time.Hour), Valid: true}}
	if !in.Since.IsZero() {
		p.Since.Time = in.Since
	}
	if !in.Until.IsZero() {
		p.Until.Time = in.Until
	}
	if in.Refused != "" {
		p.Refused = pgtype.Bool{Bool: in.Refused == "true", Valid: true}
	}
	switch in.Rated {
	case "helpful", "unhelpful":
		p.Helpful = pgtype.Bool{Bool: in.Rated == "helpful", Valid: true}
	case "any":
		p.RatedOnly = true
	}
	if in.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(in.Cursor)
		rest, tagged := strings.CutPrefix(string(b), eventCursorTag)
		at, id, ok := strings.Cut(rest, "/")
		var ts time.Time
		var uid uuid.UUID
		if err == nil && ok && tagged {
			ts, err = time.Parse(time.RFC3339Nano, at)
			if err == nil {
				uid, err = uuid.Parse(id)
			}
		}
		if err != nil || !ok || !tagged {
			return nil, invalidf("cursor is not one this API returned")
		}
		p.AfterAt = pgtype.Timestamptz{Time: ts, Valid: true}
		p.AfterID = pgtype.UUID{Bytes: uid, Valid: true}
	}
	var rows []store.ListRetrievalEventsRow
	err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		var err error
		rows, err = store.New().ListRetrievalEvents(ctx, tx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := &ListEventsOutput{Body: EventList{Events: []Event{}}}
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[len(rows)-1]
		out.Body.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(eventCursorTag + last.CreatedAt.Time.UTC().Format(time.RFC3339Nano) + "/" + last.ID.String()))
	}
	for _, r := range rows {
		e, err := eventOf(r)
		if err != nil {
			return nil, err
		}
		out.Body.Events = append(out.Body.Events, e)
	}
	return out, nil
}

// eventOf shapes a stored event.
func eventOf(r store.ListRetrievalEventsRow) (Event, error) {
	e := Event{ID: r.ID.String(), CreatedAt: r.CreatedAt.Time, Operation: r.Operation, RequestID: r.RequestID, Subject: r.Subject,
		QuestionSHA: r.QuestionSha, TopK: int(r.TopK), Confidence: float64(r.Confidence), Refused: r.Refused,
		RefusalReason: r.RefusalReason, Degraded: r.Degraded, TotalMS: float64(r.TotalMs)}
	if r.Question.Valid {
		e.Question = &r.Question.String
	}
	if r.Rewritten.Valid {
		e.Rewritten = &r.Rewritten.String
	}
	var res []traffic.Result
	if err := errors.Join(json.Unmarshal(r.Filters, &e.Filters), json.Unmarshal(r.Results, &res), json.Unmarshal(r.TimingsMs, &e.TimingsMS)); err != nil {
		return e, fmt.Errorf("decode event %s: %w", r.ID, err)
	}
	e.Results = make([]EventResult, len(res))
	for i, x := range res {
		e.Results[i] = EventResult{Rank: x.Rank, ChunkID: x.ChunkID.String(), DocumentID: x.DocumentID.String(), SourceURI: x.SourceURI, Score: x.Score,
			VectorRank: x.VectorRank, VectorDistance: x.VectorDistance, KeywordRank: x.KeywordRank, KeywordScore: x.KeywordScore, RerankScore: x.RerankScore}
	}
	if r.Helpful.Valid {
		e.Feedback = &EventFeedback{Helpful: r.Helpful.Bool, Note: r.FeedbackNote.String, SourceURI: r.RightSourceUri.String, At: r.FeedbackAt.Time}
		if r.RightChunkID.Valid {
			e.Feedback.ChunkID = uuid.UUID(r.RightChunkID.Bytes).String()
		}
	}
	return e, nil
}

// feedbackWait bounds how long feedback waits for its event to be written
// (Recorder.Wait): one batch transaction takes milliseconds; past this the
// writer is stuck (the database is slow or down) and the client is told to
// retry (503) rather than that the event does not exist.
const feedbackWait = 5 * time.Second

func (s *Server) feedback(ctx context.Context, in *FeedbackInput) (*struct{}, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	id, err := uuid.Parse(in.ID)
	if err != nil {
		return nil, invalidf("id must be a UUID")
	}
	b := in.Body
	// An event is rated by the principal who asked (its subject) or by an
	// admin, who reads every event; another user's event is the 404 of an
	// event that does not exist.
	p := store.SetEventFeedbackParams{TenantID: t.ID, ID: id, Helpful: pgtype.Bool{Bool: b.Helpful, Valid: true},
		Note: pgtype.Text{String: b.Note, Valid: b.Note != ""}, RightSourceUri: pgtype.Text{String: b.SourceURI, Valid: b.SourceURI != ""},
		NamesSource: b.SourceURI != "" || b.ChunkID != ""}
	if b.ChunkID != "" {
		c, err := uuid.Parse(b.ChunkID)
		if err != nil {
			return nil, invalidf("chunk_id must be a UUID")
		}
		p.RightChunkID = pgtype.UUID{Bytes: c, Valid: true}
	}
	if info := infoOf(ctx); info != nil {
		p.Subject, p.AnySubject = info.principal.Subject, info.principal.Role == auth.RoleAdmin
	}
	// The event may be one this server answered a moment ago and has not
	// written yet (the recorder writes in batches): have it written now and
	// wait for it, bounded, so a just-issued event_id is never a 404. An id
	// this server did not queue (unknown, or another server's) is not
	// waited for.
	wctx, cancel := context.WithTimeout(ctx, feedbackWait)
	err = s.deps.Recorder.Wait(wctx, id)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pr := newProblem(ctx, http.StatusServiceUnavailable, "the event is not stored yet; retry after the Retry-After seconds")
		pr.headers = retryAfter(time.Second)
		return nil, pr
	}
	var n int64
	var bad string // why the source named is not one
	errBadSource := errors.New("feedback names no readable source")
	err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		q := store.New()
		if n, err = q.SetEventFeedback(ctx, tx, p); err != nil || n == 0 {
			return err
		}
		// The right source must be one the caller can read: evaluation
		// sets built from feedback (eval run --from-traffic) score
		// retrieval against it. Checked after the event, so that an event
		// the caller cannot rate is a 404 whatever the body; a bad source
		// rolls the feedback back.
		switch {
		case p.RightChunkID.Valid:
			uri, err := q.ChunkSourceURI(ctx, tx, store.ChunkSourceURIParams{TenantID: t.ID, ChunkID: p.RightChunkID.Bytes})
			if err != nil {
				return err
			}
			if uri == "" {
				bad = "chunk_id names no chunk of the tenant's documents"
			} else if b.SourceURI != "" && uri != b.SourceURI {
				bad = "chunk_id is a chunk of another document than source_uri"
			}
		case b.SourceURI != "":
			ok, err := q.DocumentSourceExists(ctx, tx, store.DocumentSourceExistsParams{TenantID: t.ID, SourceUri: b.SourceURI})
			if err != nil {
				return err
			}
			if !ok {
				bad = "source_uri names no document of the tenant"
				if base, _, found := strings.Cut(b.SourceURI, "#"); found && base != "" {
					// An answer's link copied whole ("…/manual.html#3.4.6")
					// names a section; a rating names the document.
					if ok, err := q.DocumentSourceExists(ctx, tx, store.DocumentSourceExistsParams{TenantID: t.ID, SourceUri: base}); err != nil {
						return err
					} else if ok {
						bad = fmt.Sprintf("source_uri names no document of the tenant, but %q does: the right source is a whole document; leave out the #fragment (or give the chunk_id)", base)
					}
				}
			}
		}
		if bad != "" {
			return errBadSource
		}
		return nil
	})
	if errors.Is(err, errBadSource) {
		return nil, invalidf("%s", bad)
	}
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errNotFound
	}
	return nil, nil
}
