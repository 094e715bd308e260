package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestRefusalReasonIgnoresHiddenDocuments (h-break7): the low-confidence
// reason "no document mentions “X”" names the question's common words whose
// document frequency is 0, and that frequency is read from term_stats, which
// counts every chunk of the tenant, hidden ones included. So a reader who
// can read no document mentioning "sourdough" is told that no document
// mentions it — until a document restricted to group:hr contains the word,
// from then on the reason silently drops it. The reason is plain text
// naming a word: it reveals, in one request, that a document the caller
// cannot read contains that word (docs/SECURITY.md, "Search and answers",
// says the "no document mentions …" reason probes readable postings).
//
// Expected: the words the reason names are checked against the postings the
// caller can read (as missing_terms already is), so the reason is the same
// with or without the hidden document.
func TestRefusalReasonIgnoresHiddenDocuments(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	bob, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, auth.WithSubject("bob"))
	if err != nil {
		t.Fatal(err)
	}
	alice, err := auth.Issue(secret, b.a.ID, auth.RoleEditor, time.Hour, auth.WithSubject("alice"), auth.WithGroups("", "hr"))
	if err != nil {
		t.Fatal(err)
	}
	b.upsert(admin, "install.md", docInstall)
	// Every question is refused, so every response carries its reason.
	decode[api.TenantSettings](t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin,
		body: map[string]any{"refuse_below": 1}}), http.StatusOK)

	const question = "how do I install widgets with sourdough"
	reasons := func() (string, string) {
		t.Helper()
		sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: bob,
			body: map[string]any{"query": question}}), http.StatusOK)
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: bob,
			body: map[string]any{"question": question}}), http.StatusOK)
		for _, r := range sr.Results {
			if r.SourceURI != "install.md" {
				t.Fatalf("bob's search returned %s, which he cannot read", r.SourceURI)
			}
		}
		return sr.ConfidenceReason, ar.ConfidenceReason
	}
	searchBefore, answerBefore := reasons()
	if !strings.Contains(searchBefore, "sourdough") || !strings.Contains(answerBefore, "sourdough") {
		t.Fatalf("without any document mentioning sourdough the reasons are %q (search) and %q (answer); want them to name it",
			searchBefore, answerBefore)
	}

	// A document bob cannot read mentions the word.
	decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: alice, body: map[string]any{
		"source_uri": "hr/bakery.md", "content_type": "markdown", "access": []string{"group:hr"},
		"content": "# Bakery benefit\n\nStaff get a sourdough loaf every Friday.\n"}}), http.StatusOK)

	searchAfter, answerAfter := reasons()
	if searchAfter != searchBefore {
		t.Errorf("search confidence_reason changed when a document bob cannot read mentioned sourdough:\nbefore %q\nafter  %q",
			searchBefore, searchAfter)
	}
	if answerAfter != answerBefore {
		t.Errorf("answer confidence_reason changed when a document bob cannot read mentioned sourdough:\nbefore %q\nafter  %q",
			answerBefore, answerAfter)
	}
}
