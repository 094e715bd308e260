package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// TestLongSubjectDoesNotLoseOtherUsersEvents (h-break7): a token's sub is
// copied into every retrieval event as is, but retrieval_events.subject is
// CHECK (length(subject) <= 512). The server accepts such a token and
// answers its requests (auth leaves a subject over 256 bytes out of the
// principals, nothing more), then the event writer inserts the tenant's
// queued events in one statement: the one over-long subject makes the
// database refuse the whole batch, so the events of every other user of the
// tenant written with it are lost too. Their responses carried an event_id;
// feedback on it is a 404, and GET /v1/events never shows them.
//
// Expected: an over-long subject is cut (or left out) when the event is
// recorded, so every event is stored, the other users' included.
func TestLongSubjectDoesNotLoseOtherUsersEvents(t *testing.T) {
	t.Parallel()
	// The writer's interval is an hour: events are written when feedback asks.
	b := setup(t, func(d *api.Deps) { d.Recorder = traffic.New(d.Pool, 100, traffic.WithFlushEvery(time.Hour)) })
	runRecorder(t, b.deps)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	alice, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject("alice"))
	if err != nil {
		t.Fatal(err)
	}
	long, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject("svc-"+strings.Repeat("x", 600)))
	if err != nil {
		t.Fatal(err)
	}
	ask := func(tok string) string {
		t.Helper()
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: tok,
			body: map[string]any{"question": "how do I install widgets"}}), http.StatusOK)
		if ar.EventID == "" {
			t.Fatal("no event id")
		}
		return ar.EventID
	}
	aliceEvent := ask(alice)
	ask(long)
	if w := b.do(req{method: "POST", path: "/v1/events/" + aliceEvent + "/feedback", token: alice,
		body: map[string]any{"helpful": true}}); w.Code != http.StatusNoContent {
		t.Errorf("alice's feedback on her own answer's event_id: %d %s, want 204", w.Code, w.Body.String())
	}
	events := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events", token: admin}), http.StatusOK).Events
	if len(events) != 2 {
		t.Errorf("%d events stored, want 2 (alice's and the long subject's); recorder write failures: %d", len(events), b.deps.Recorder.Failed())
	}
}
