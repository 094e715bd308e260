package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// waitEvents polls GET /v1/events until it lists n events (the writer
// stores them within about its flush interval).
func (b *bundle) waitEvents(tok, query string, n int) api.EventList {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l := decode[api.EventList](b.t, b.do(req{method: "GET", path: "/v1/events" + query, token: tok}), http.StatusOK)
		if len(l.Events) >= n || time.Now().After(deadline) {
			return l
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestRetrievalEventsAndFeedback(t *testing.T) {
	t.Parallel()
	b := setup(t)
	runRecorder(t, b.deps)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	reader, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject("user-42"))
	if err != nil {
		t.Fatal(err)
	}
	b.upsert(admin, "install.md", docInstall)
	b.upsert(admin, "billing.md", docBilling)

	sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: reader,
		header: map[string]string{"X-Request-ID": "req-search-1"},
		body:   map[string]any{"query": "how do I upgrade widgets", "source_uri_prefix": "install"}}), http.StatusOK)
	ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: reader,
		body: map[string]any{"question": "how do I install MongoDB replicas"}}), http.StatusOK)
	if sr.EventID == "" || ar.EventID == "" {
		t.Fatalf("responses carry no event id: search %q answer %q", sr.EventID, ar.EventID)
	}
	// The answer names what no document mentions, as a search does.
	if !ar.Refused || !slices.Contains(ar.MissingTerms, "MongoDB") {
		t.Errorf("answer refused=%v missing_terms=%q, want refused with MongoDB missing", ar.Refused, ar.MissingTerms)
	}
	// Tenant b's traffic never shows in tenant a's events.
	b.do(req{method: "POST", path: "/v1/search", token: token(t, b.b.ID, auth.RoleReader), body: map[string]any{"query": "tenant b question"}})

	l := b.waitEvents(admin, "", 2)
	if len(l.Events) != 2 {
		t.Fatalf("%d events, want 2: %+v", len(l.Events), l)
	}
	ans, srch := l.Events[0], l.Events[1] // newest first
	if srch.ID != sr.EventID || srch.Operation != "search" || srch.RequestID != "req-search-1" || srch.Subject != "user-42" ||
		srch.Question == nil || *srch.Question != "how do I upgrade widgets" || srch.Filters["source_uri_prefix"] != "install" {
		t.Errorf("search event: %+v", srch)
	}
	if len(srch.Results) != len(sr.Results) || len(srch.Results) == 0 || srch.Results[0].SourceURI != "install.md" ||
		srch.Results[0].KeywordRank == nil || srch.TimingsMS["embed"] <= 0 || srch.TotalMS <= 0 {
		t.Errorf("search event results/timings: %+v", srch)
	}
	if ans.ID != ar.EventID || ans.Operation != "answer" || ans.Refused != ar.Refused || ans.RefusalReason != ar.RefusalReason || !ar.Refused {
		t.Errorf("answer event %+v vs response refused=%v %q", ans, ar.Refused, ar.RefusalReason)
	}
	refused := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?refused=true", token: admin}), http.StatusOK)
	if len(refused.Events) != 1 || refused.Events[0].ID != ar.EventID {
		t.Errorf("refused filter: %+v", refused)
	}
	page := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?limit=1", token: admin}), http.StatusOK)
	next := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?limit=1&cursor=" + page.NextCursor, token: admin}), http.StatusOK)
	if len(page.Events) != 1 || page.NextCursor == "" || len(next.Events) != 1 || next.Events[0].ID != sr.EventID || next.NextCursor != "" {
		t.Errorf("pagination: %+v then %+v", page, next)
	}
	future := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?since=" + time.Now().Add(time.Hour).UTC().Format(time.RFC3339), token: admin}), http.StatusOK)
	if len(future.Events) != 0 {
		t.Errorf("since filter kept %d events", len(future.Events))
	}

	// Feedback: a reader rates; an admin reads it with the event.
	w := b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: reader,
		body: map[string]any{"helpful": false, "note": "wrong product", "source_uri": "install.md"}})
	if w.Code != http.StatusNoContent {
		t.Fatalf("feedback: %d %s", w.Code, w.Body.String())
	}
	rated := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?rated=unhelpful", token: admin}), http.StatusOK)
	if len(rated.Events) != 1 || rated.Events[0].Feedback == nil || rated.Events[0].Feedback.SourceURI != "install.md" ||
		rated.Events[0].Feedback.Note != "wrong product" || rated.Events[0].Feedback.Helpful {
		t.Errorf("rated events: %+v", rated)
	}
	// Another user of the tenant (another subject, a subject-less token,
	// an editor, a group named like the asker) cannot rate or overwrite
	// user-42's feedback: the 404 of an event that does not exist. An
	// admin, who reads every event, can.
	for _, opts := range [][]auth.IssueOption{
		{auth.WithSubject("user-43")},
		{auth.WithSubject("user-42 "), auth.WithGroups("", "user-42", "user:user-42", "*")},
		{auth.WithGroups("", "user:user-42")},
		nil,
	} {
		for _, role := range []auth.Role{auth.RoleReader, auth.RoleEditor} {
			other, err := auth.Issue(secret, b.a.ID, role, time.Hour, opts...)
			if err != nil {
				t.Fatal(err)
			}
			problem(t, b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: other,
				body: map[string]any{"helpful": true, "note": "overwritten"}}), http.StatusNotFound)
		}
	}
	kept := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?rated=unhelpful", token: admin}), http.StatusOK)
	if len(kept.Events) != 1 || kept.Events[0].Feedback == nil || kept.Events[0].Feedback.Note != "wrong product" {
		t.Errorf("another user's feedback replaced user-42's: %+v", kept)
	}
	// The right source must be one of the tenant's documents (or chunks)
	// the caller can read, the chunk of the document named: evaluation
	// sets are built from it. A source that is not changes nothing.
	for _, body := range []map[string]any{
		{"helpful": true, "source_uri": "https://nope.example/x.html"},
		{"helpful": true, "chunk_id": "00000000-0000-4000-8000-000000000000"},
		{"helpful": true, "source_uri": "billing.md", "chunk_id": sr.Results[0].ChunkID},
	} {
		problem(t, b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: reader, body: body}), http.StatusUnprocessableEntity)
	}
	// An answer's link copied whole names a section: the problem says
	// which document to name instead.
	if p := problem(t, b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: reader,
		body: map[string]any{"helpful": true, "source_uri": "install.md#upgrading"}}), http.StatusUnprocessableEntity); !strings.Contains(p.Detail, `"install.md" does`) ||
		!strings.Contains(p.Detail, "#fragment") {
		t.Errorf("feedback naming a section of a document: %q, want the document named and the fragment left out", p.Detail)
	}
	kept = decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?rated=unhelpful", token: admin}), http.StatusOK)
	if len(kept.Events) != 1 || kept.Events[0].Feedback == nil || kept.Events[0].Feedback.SourceURI != "install.md" {
		t.Errorf("feedback naming no document changed the stored feedback: %+v", kept)
	}
	if w := b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: reader,
		body: map[string]any{"helpful": false, "source_uri": "install.md", "chunk_id": sr.Results[0].ChunkID}}); w.Code != http.StatusNoContent {
		t.Errorf("feedback naming a chunk of its document: %d %s", w.Code, w.Body.String())
	}
	// A later rating changes only what it names: the note and the right
	// source stay.
	if w := b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: reader, body: map[string]any{"helpful": true}}); w.Code != http.StatusNoContent {
		t.Errorf("second rating: %d %s", w.Code, w.Body.String())
	}
	again := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?rated=helpful", token: admin}), http.StatusOK)
	var merged *api.EventFeedback
	for _, e := range again.Events {
		if e.ID == ar.EventID {
			merged = e.Feedback
		}
	}
	if merged == nil || !merged.Helpful || merged.Note != "wrong product" || merged.SourceURI != "install.md" || merged.ChunkID == "" {
		t.Errorf("a second rating naming only helpful: %+v; want the note, source and chunk kept", merged)
	}
	if w := b.do(req{method: "POST", path: "/v1/events/" + sr.EventID + "/feedback", token: admin, body: map[string]any{"helpful": true}}); w.Code != http.StatusNoContent {
		t.Errorf("an admin's feedback on user-42's event: %d %s", w.Code, w.Body.String())
	}
	// Another tenant's token cannot rate tenant a's event, nor can an unknown id be rated.
	problem(t, b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: token(t, b.b.ID, auth.RoleAdmin),
		body: map[string]any{"helpful": true}}), http.StatusNotFound)
	problem(t, b.do(req{method: "POST", path: "/v1/events/00000000-0000-4000-8000-000000000000/feedback", token: reader,
		body: map[string]any{"helpful": true}}), http.StatusNotFound)
	// Events are for admins only: they name documents other principals may not see.
	problem(t, b.do(req{method: "GET", path: "/v1/events", token: reader}), http.StatusForbidden)
}

func TestEventsKeepOnlyTheHash(t *testing.T) {
	t.Parallel()
	b := setup(t)
	runRecorder(t, b.deps)
	two := 2.0
	setLimits(t, b.a.ID, tenant.Limits{WriteRate: &two})
	admin := token(t, b.a.ID, auth.RoleAdmin)
	set := decode[api.TenantSettings](t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin,
		body: map[string]any{"event_question": "sha256", "event_retention_days": 7}}), http.StatusOK)
	if set.EventQuestion != "sha256" || set.EventRetention != 7 {
		t.Fatalf("patched settings: %+v", set)
	}
	// The tenant's own settings patch keeps the operator's limits.
	if u := decode[api.Usage](t, b.do(req{method: "GET", path: "/v1/tenant/usage", token: admin}), http.StatusOK); u.Rates.Write != 2 {
		t.Errorf("write rate after a settings patch: %v, want 2", u.Rates.Write)
	}
	b.do(req{method: "POST", path: "/v1/search", token: admin, body: map[string]any{"query": "my private question"}})
	l := b.waitEvents(admin, "", 1)
	if len(l.Events) != 1 || l.Events[0].Question != nil || l.Events[0].QuestionSHA != traffic.QuestionSHA("my private question") {
		t.Fatalf("hash-only event: %+v", l.Events)
	}
}

func TestEventDropsNeverFailRequests(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) { d.Recorder = traffic.New(d.Pool, 1) }) // one slot, no writer running
	admin := token(t, b.a.ID, auth.RoleAdmin)
	first := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: admin, body: map[string]any{"query": "one"}}), 200)
	second := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: admin, body: map[string]any{"query": "two"}}), 200)
	if first.EventID == "" || second.EventID != "" || b.deps.Recorder.Dropped() != 1 {
		t.Fatalf("event ids %q, %q; dropped %d: want the second dropped and counted", first.EventID, second.EventID, b.deps.Recorder.Dropped())
	}
}

// TestFollowUpRewrite: without an LLM, a follow-up that cannot stand alone
// carries the earlier question's key terms; the response and the event
// show the standalone question, and the event keeps the question as asked.
func TestFollowUpRewrite(t *testing.T) {
	t.Parallel()
	b := setup(t)
	runRecorder(t, b.deps)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	history := []map[string]any{{"role": "user", "content": "How do I install widgets?"}, {"role": "assistant", "content": "Run widgetctl install [1]."}}
	ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: admin,
		body: map[string]any{"question": "and how do I upgrade them?", "history": history}}), http.StatusOK)
	if ar.Standalone != "and how do I upgrade them? install widgets" || ar.Rewrite != "terms" {
		t.Fatalf("rewrite: %q (%s)", ar.Standalone, ar.Rewrite)
	}
	if ar.Refused || len(ar.Sources) == 0 || ar.Sources[0].SourceURI != "install.md" {
		t.Errorf("the rewritten follow-up was not answered from install.md: %+v", ar)
	}
	standalone := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: admin,
		body: map[string]any{"question": "How are refunds for invoices processed?", "history": history}}), http.StatusOK)
	if standalone.Standalone != "" || standalone.Rewrite != "" {
		t.Errorf("a standalone question was rewritten: %q", standalone.Standalone)
	}
	l := b.waitEvents(admin, "", 2)
	var ev *api.Event
	for i := range l.Events {
		if l.Events[i].ID == ar.EventID {
			ev = &l.Events[i]
		}
	}
	if ev == nil || ev.Question == nil || *ev.Question != "and how do I upgrade them?" || ev.Rewritten == nil || *ev.Rewritten != ar.Standalone {
		t.Errorf("event of the follow-up: %+v", ev)
	}
	problem(t, b.do(req{method: "POST", path: "/v1/answer", token: admin,
		body: map[string]any{"question": "and then?", "history": []map[string]any{{"role": "system", "content": "x"}}}}), http.StatusUnprocessableEntity)
}

// TestFeedbackRightAfterTheAnswer: feedback sent at once on an answer's
// event_id succeeds although the event is still waiting for the writer
// (whose interval here is an hour, so only the feedback's request gets it
// written): it used to be a 404 "event not found" for about half a second.
// An unknown id is still a 404.
func TestFeedbackRightAfterTheAnswer(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) { d.Recorder = traffic.New(d.Pool, 100, traffic.WithFlushEvery(time.Hour)) })
	runRecorder(t, b.deps)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	reader := token(t, b.a.ID, auth.RoleReader)
	ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: reader,
		body: map[string]any{"question": "how do I install widgets"}}), http.StatusOK)
	if ar.EventID == "" {
		t.Fatal("no event id")
	}
	if n := len(decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events", token: admin}), http.StatusOK).Events); n != 0 {
		t.Fatalf("%d events stored before the feedback: the writer was not held", n)
	}
	if w := b.do(req{method: "POST", path: "/v1/events/" + ar.EventID + "/feedback", token: reader, body: map[string]any{"helpful": true}}); w.Code != http.StatusNoContent {
		t.Fatalf("feedback right after the answer: %d %s", w.Code, w.Body.String())
	}
	rated := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events?rated=helpful", token: admin}), http.StatusOK)
	if len(rated.Events) != 1 || rated.Events[0].ID != ar.EventID {
		t.Fatalf("rated events: %+v", rated)
	}
	problem(t, b.do(req{method: "POST", path: "/v1/events/00000000-0000-4000-8000-000000000000/feedback", token: reader,
		body: map[string]any{"helpful": true}}), http.StatusNotFound)
}
