package api_test

import (
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestUnicodeTitleMatchesNormalisedQuestion: questions are now put in NFC
// (search.Validate, analyze.Normalize) and extracted text too, but a title
// that does not come from extraction — the last path segment of the
// source_uri of an untitled plain-text document (a macOS file name is NFD),
// or a title named in the write — roots every chunk's heading path, is
// indexed with the chunk (analyze.Keywords(HeadingPath + content)), and is
// not normalised. An NFD question used to find the NFD title; now the
// question is normalised and the title is not, so neither form of the word
// finds it. (The soft-hyphen title cases pass and guard the fix.)
func TestUnicodeTitleMatchesNormalisedQuestion(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	for _, body := range []map[string]any{
		{"source_uri": "notes/schedule.txt", "content_type": "text", "title": "Quokka\u00adberry harvest",
			"content": "Volunteers gather in the orchard at dawn on the last Saturday of October."},
		{"source_uri": "notes/Pa\u0302tisserie", "content_type": "text",
			"content": "Orders placed before noon are ready the next morning at the counter."},
	} {
		decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor, body: body}), http.StatusOK)
	}
	for query, uri := range map[string]string{
		"quokka\u00adberry harvest": "notes/schedule.txt", // the title, copied
		"quokkaberry harvest":       "notes/schedule.txt",
		"p\u00e2tisserie":           "notes/Pa\u0302tisserie",
		"pa\u0302tisserie":          "notes/Pa\u0302tisserie", // the file name, copied
	} {
		sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor,
			body: map[string]any{"query": query, "top_k": 5}}), http.StatusOK)
		found := false
		for _, r := range sr.Results {
			if r.SourceURI == uri && r.KeywordRank != nil {
				found = true
			}
		}
		if !found || len(sr.MissingTerms) > 0 {
			t.Errorf("%q: the keyword leg does not find %s, whose title holds the word: missing terms %q (%s)",
				query, uri, sr.MissingTerms, sr.ConfidenceReason)
		}
	}
}

// TestPutDocumentWithInvisibleTableCell: the API side of
// chunk.TestSplitTableRowOfInvisibleCharacters. A Markdown page whose
// one-column table has a row holding only a zero-width space (an "empty"
// cell as editors and wiki exports write it) was stored before extraction
// removed invisible characters; now extraction leaves an empty row span,
// chunk.Split refuses the document as invalid, and the write fails.
func TestPutDocumentWithInvisibleTableCell(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	content := "# Limits\n\n| Name |\n|---|\n| alpha |\n| \u200b |\n| beta |\n\nSome text after the table.\n"
	resp := b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: map[string]any{"source_uri": "limits.md", "content": content, "content_type": "markdown"}})
	decode[api.DocumentWrite](t, resp, http.StatusOK)
}
