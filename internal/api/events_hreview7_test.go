package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// TestNULSubjectDoesNotLoseOtherUsersEvents_hreview7: the h-break7 fix
// (traffic.within) leaves out a subject over 512 characters so that one
// event cannot make the database refuse the tenant's whole batch. A subject
// within the bound but holding a NUL character (a JSON "\u0000" in the sub
// claim, valid for any issuer, JWKS ones included) is copied as is, and
// PostgreSQL text refuses 0x00: the batch is lost again, other users'
// events with it (their event_id's feedback is a 404).
//
// Expected: a subject PostgreSQL cannot store is left out of its event like
// an over-long one, and every event is stored.
func TestNULSubjectDoesNotLoseOtherUsersEvents_hreview7(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) { d.Recorder = traffic.New(d.Pool, 100, traffic.WithFlushEvery(time.Hour)) })
	runRecorder(t, b.deps)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	alice, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject("alice"))
	if err != nil {
		t.Fatal(err)
	}
	nul, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject("svc\x00batch"))
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
	ask(nul)
	if w := b.do(req{method: "POST", path: "/v1/events/" + aliceEvent + "/feedback", token: alice,
		body: map[string]any{"helpful": true}}); w.Code != http.StatusNoContent {
		t.Errorf("alice's feedback on her own answer's event_id: %d %s, want 204", w.Code, w.Body.String())
	}
	events := decode[api.EventList](t, b.do(req{method: "GET", path: "/v1/events", token: admin}), http.StatusOK).Events
	if len(events) != 2 {
		t.Errorf("%d events stored, want 2 (alice's and the NUL subject's); recorder write failures: %d", len(events), b.deps.Recorder.Failed())
	}
}
