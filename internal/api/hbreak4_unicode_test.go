package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestUnicodeEquivalentQuestionsMatch: a word written in NFC in one of the
// document and the question and in NFD (base letter + combining mark, as
// macOS file systems and many PDFs produce) in the other is the same word
// to every reader, but the keyword leg compares code points: the NFC
// question "pâtisserie éclairs" does not find the NFD document, and the
// refusal names a word the document visibly holds (“no document mentions
// “éclairs””); the reverse, an NFD question on an NFC document, too. A
// zero-width space (U+200B) or soft hyphen (U+00AD) inside a question word
// — both invisible, both common in text copied from web pages — splits the
// word ("no document mentions “afé”").
func TestUnicodeEquivalentQuestionsMatch(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	nfc := "# Pâtisserie\n\nThe pâtisserie sells éclairs and crème brûlée every Thursday.\n"
	nfd := "# Cafe\u0301\n\nThe cafe\u0301 roasts its own coffee and opens at seven.\n"
	b.upsert(editor, "nfc.md", nfc)
	b.upsert(editor, "nfd.md", nfd)
	cases := []struct{ name, query, uri string }{
		{"NFD question, NFC document", "pa\u0302tisserie e\u0301clairs", "nfc.md"},
		{"NFC question, NFD document", "caf\u00e9 roasts coffee", "nfd.md"},
		{"zero-width space inside a word", "p\u00e2tis\u200bserie \u00e9clairs", "nfc.md"},
		{"soft hyphen inside a word", "p\u00e2tis\u00adserie \u00e9clairs", "nfc.md"},
	}
	for _, c := range cases {
		sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor,
			body: map[string]any{"query": c.query, "top_k": 5}}), http.StatusOK)
		found := false
		for _, r := range sr.Results {
			if r.SourceURI == c.uri && r.KeywordRank != nil {
				found = true
			}
		}
		if !found || len(sr.MissingTerms) > 0 || strings.Contains(sr.ConfidenceReason, "no document mentions") {
			t.Errorf("%s: %q: keyword leg found %s: %v; missing terms %q; confidence %.3f (%s)", c.name, c.query, c.uri, found,
				sr.MissingTerms, sr.Confidence, sr.ConfidenceReason)
		}
	}
}

// TestInvisibleCharactersInDocumentWords: the document side of the same
// defect. A soft hyphen (HTML &shy;, common in typeset and German web
// pages) or a zero-width space inside a document's word is invisible, but
// the word is indexed as two halves: the question "when is the
// quokkaberry orchard harvested?" is refused with “no document mentions
// “quokkaberry”” while the page shows "quokkaberry".
func TestInvisibleCharactersInDocumentWords(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	for _, body := range []map[string]any{
		{"source_uri": "shy.html", "content_type": "html",
			"content": "<html><head><title>Orchard</title></head><body><p>The quokka&shy;berry orchard is harvested in late autumn by volunteers.</p></body></html>"},
		{"source_uri": "zw.md", "content_type": "markdown",
			"content": "# Grove\n\nThe lime\u200bgrove orchard is pruned every spring by the gardeners.\n"},
	} {
		decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor, body: body}), http.StatusOK)
	}
	for query, uri := range map[string]string{"when is the quokkaberry orchard harvested?": "shy.html", "when is the limegrove orchard pruned?": "zw.md"} {
		sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor,
			body: map[string]any{"query": query, "top_k": 5}}), http.StatusOK)
		if strings.Contains(sr.ConfidenceReason, "no document mentions") || len(sr.MissingTerms) > 0 {
			t.Errorf("%q (%s holds the word, with an invisible character inside): confidence %.3f (%s), missing terms %q",
				query, uri, sr.Confidence, sr.ConfidenceReason, sr.MissingTerms)
		}
	}
}
