package api_test

import (
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// The upload's access field is "the access list as a JSON array of
// principals"; absent or empty keeps a replaced document's list, as an
// absent or null access does in PUT. The JSON text null is no array, yet
// it was taken as an empty list: re-uploading an HR document with
// access=null (what a client sends for "no list given" when it serialises
// its nil list as JSON) made it readable by everyone in the tenant, where
// the same write through PUT ("access": null) keeps ["group:hr"]. It must
// keep the list or be refused with 422, never widen it.
func TestUploadAccessNullDoesNotWidenTheList(t *testing.T) {
	t.Parallel()
	b := setup(t)
	hr, err := auth.Issue(secret, b.a.ID, auth.RoleEditor, time.Hour, auth.WithSubject("alice"), auth.WithGroups("", "hr"))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject("bob"), auth.WithGroups("", "eng"))
	if err != nil {
		t.Fatal(err)
	}
	upload := func(fields map[string]string) *httptest.ResponseRecorder {
		body, ct := multipartBody(t, "pay.md", "text/markdown", []byte("# Pay\n\nSalaries are paid on the 25th."), fields)
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+hr)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		return w
	}
	out := decode[api.DocumentWrite](t, upload(map[string]string{"access": `["group:hr"]`}), 200)
	access := func() []string {
		return decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: hr}), 200).Access
	}
	// PUT with "access": null keeps the list.
	decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: hr,
		body: `{"source_uri":"pay.md","content":"# Pay\n\nSalaries are paid on the 25th.","access":null}`}), 200)
	if got := access(); !slices.Equal(got, []string{"group:hr"}) {
		t.Fatalf("after PUT access null: %v, want [group:hr]", got)
	}

	w := upload(map[string]string{"access": "null"})
	if w.Code == 422 {
		return // refused: acceptable
	}
	if w.Code != 200 {
		t.Fatalf("upload access=null: %d %s", w.Code, w.Body.String())
	}
	if got := access(); !slices.Equal(got, []string{"group:hr"}) {
		t.Errorf("after an upload with access=null the list is %v, want [group:hr] kept (or a 422)", got)
	}
	res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: eng, body: map[string]any{"query": "salaries paid"}}), 200)
	for _, r := range res.Results {
		if r.DocumentID == out.ID {
			t.Errorf("a reader outside group hr finds the HR document: %q", r.Content)
		}
	}
}
