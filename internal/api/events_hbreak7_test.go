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

// TestUnstorableSubjectDoesNotLoseOtherUsersEvents (h-break7, h-review7): a
// token's sub is copied into every retrieval event, and the event writer
// inserts the tenant's queued events in one statement. A subject the column
// cannot hold — over 512 characters (its CHECK), or with a NUL character
// (PostgreSQL text refuses 0x00, though the claim is valid JSON for any
// issuer) — made the database refuse the whole batch, so the events of
// every other user of the tenant written with it were lost too: their
// event_id's feedback was a 404, and GET /v1/events never showed them.
//
// Expected: such a subject is left out of its event, and every event is
// stored, the other users' included.
func TestUnstorableSubjectDoesNotLoseOtherUsersEvents(t *testing.T) {
	t.Parallel()
	for name, subject := range map[string]string{
		"LongSubject_hbreak7": "svc-" + strings.Repeat("x", 600),
		"NULSubject_hreview7": "svc\x00batch",
	} {
		t.Run(name, func(t *testing.T) {
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
			other, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject(subject))
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
			ask(other)
			if w := b.do(req{method: "POST", path: "/v1/events/" + aliceEvent + "/feedback", token: alice,
				body: map[string]any{"helpful": true}}); w.Code != http.StatusNoContent {
				t.Errorf("alice's feedback on her own answer's event_id: %d %s, want 204", w.Code, w.Body.String())
			}
			events := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events", token: admin}), http.StatusOK).Events
			if len(events) != 2 {
				t.Errorf("%d events stored, want 2 (alice's and the other subject's); recorder write failures: %d", len(events), b.deps.Recorder.Failed())
			}
		})
	}
}
