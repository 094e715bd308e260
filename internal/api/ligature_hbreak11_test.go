package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestLigaturesMatchTheirLetters (h-break11): the Latin ligatures U+FB00–
// U+FB06 (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) are what text copied out of a typeset PDF or a
// web page with typographic ligatures holds: "conﬁguration ﬁle" reads as
// "configuration file" to everyone, and the embedding model's tokenizer
// folds them (NFKC), but the keyword leg and the answerability check do
// not. On a tenant whose manual says "configuration file" everywhere,
// "how do I change the conﬁguration ﬁle?" is refused with “no document
// mentions “conﬁguration”, “ﬁle””; the reverse, a document written with
// ligatures, is not found by the keyword leg for "field flowers" (a query
// with the ligatures finds it). h-break4's TestUnicodeEquivalentQuestionsMatch
// covers NFD, zero-width spaces and soft hyphens, not these.
//
// Expected: a ligature is its letters, in questions and documents alike
// (no "no document mentions" for a word the documents visibly hold, and
// the keyword leg finds the page either way).
func TestLigaturesMatchTheirLetters(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(editor, "config.md", "# Server configuration\n\nThe configuration file postgresql.conf is read at server start. "+
		"Edit the configuration file and reload the server to apply a change.\n")
	b.upsert(editor, "guide.md", "# Quillwort\n\nThe quillwort ﬁeld guide says the ﬂowers bloom in June and the oﬀshoots in July.\n")
	for _, c := range []struct{ query, uri string }{
		{"how do I change the conﬁguration ﬁle?", "config.md"},
		{"quillwort field guide flowers offshoots", "guide.md"},
	} {
		sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor,
			body: map[string]any{"query": c.query, "top_k": 5}}), http.StatusOK)
		found := false
		for _, r := range sr.Results {
			if r.SourceURI == c.uri && r.KeywordRank != nil {
				found = true
			}
		}
		if !found || strings.Contains(sr.ConfidenceReason, "no document mentions") {
			t.Errorf("%q: the keyword leg found %s: %v; confidence %.3f (%s)", c.query, c.uri, found, sr.Confidence, sr.ConfidenceReason)
		}
	}
	plain := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
		body: map[string]any{"question": "how do I change the configuration file?"}}), http.StatusOK)
	if plain.Refused {
		t.Fatalf("premise: the question in plain letters is answered; refused (%s)", plain.ConfidenceReason)
	}
	ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
		body: map[string]any{"question": "how do I change the conﬁguration ﬁle?"}}), http.StatusOK)
	if ar.Refused {
		t.Errorf("the ligature question is refused (%s: %s), the same question in plain letters is answered from config.md",
			ar.RefusalReason, ar.ConfidenceReason)
	}
}
