package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// r62Docs is a tiny tenant: none of its pages writes a URL, and the
// pagination page names request.args only as request.args.get(…).
var r62Docs = map[string]string{
	"login.md":    "# Login\n\nThe login_required decorator redirects anonymous users to the login view. Set login_view to the endpoint name of your login page; the user is sent back to the page they asked for with a next parameter.",
	"views.md":    "# Pagination\n\nRead the page number with page = request.args.get('page', 1, type=int) and pass it to paginate(), which returns the items of that page.",
	"sessions.md": "# Sessions\n\nThe session cookie is signed with SECRET_KEY, so the user cannot change what it holds.",
}

// TestR62SchemeOfAPastedURLIsNoRequiredTerm (needs the test database):
// analyze.Query now sends a URL's scheme (SchemeWords) with every question,
// as a required term, while a tenant whose pages write no URL in their
// text has no chunk with it. The scheme then counts as an absent term at
// the highest idf, with none of the lighter weight the same word gets when
// the question writes it as a word ("served over https": 0.613 before and
// after), so a question that pastes a URL or a scheme loses confidence for
// a word that says nothing of what it asks: "How is the session cookie
// signed when served over https://?" went from 0.684 (answered) to 0.291
// (refused, "no document mentions “https”, “served”"), "Can the user change
// what the session cookie holds on my https:// site?" from 0.824 to 0.523,
// and the refusals of URL-pasting questions now name "https" first.
func TestR62SchemeOfAPastedURLIsNoRequiredTerm(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "r62scheme", "english", r62Docs)
	ctx := context.Background()
	q := "How is the session cookie signed when served over https://?"
	resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence < tenant.DefaultRefuseBelow {
		t.Errorf("%q: confidence %.3f (reason %q), want answered as without the scheme (≥ %.2f)", q, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
	}
	q = "Is the session cookie signed when my site runs on https://www.mysite.org?"
	if resp, err = s.Search(ctx, tt, search.Request{Query: q, TopK: 3}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(resp.ConfidenceReason, "https") {
		t.Errorf("%q: reason %q names the URL's scheme", q, resp.ConfidenceReason)
	}
}

// TestR62LeadingNameAnswersTheQuestion (needs the test database): the
// leading names DocumentFusedParts adds were meant to let "a question naming
// request.args" find "a document that writes request.args.get(…)". The
// question also sends "args" (FusedParts' last part), which such a document
// is not indexed with, so over a tenant that writes args nowhere else the
// question stays refused: "What does request.args hold?" 0.073 ("the best
// passages cover 24% of the question's terms"). Indexing each leading
// name's last part with it (args beside request.args) gives 0.438, and
// "How do I read the page number from request.args?" goes from 0.451 to
// 0.856.
func TestR62LeadingNameAnswersTheQuestion(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "r62prefix", "english", r62Docs)
	q := "What does request.args hold?"
	resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence < tenant.DefaultRefuseBelow || len(resp.Results) == 0 || resp.Results[0].SourceURI != "views.md" {
		top := ""
		if len(resp.Results) > 0 {
			top = resp.Results[0].SourceURI
		}
		t.Errorf("%q: confidence %.3f (reason %q), top %q; want views.md answered", q, resp.Confidence, resp.ConfidenceReason, top)
	}
}
