package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestFunctionTableAnswerQuotesOneEntry_hbreak12 (h-break12): the manual's
// function tables (functions-string.html and its siblings: one column,
// each row a signature, a description and examples in <p>s) are answered
// with the rows run together. "What does lpad do?" over a tenant holding
// only functions-string.html is answered
//
//	Words are sequences of alphanumeric characters separated by
//	non-alphanumeric characters. initcap('hi THOMAS') → Hi Thomas left (
//	string text, n integer ) → text Returns first n characters … length (
//	text ) → integer Returns the number of characters in the string.
//	length('jose') → 4 lpad (… [1]
//
// — five functions' signatures, descriptions and examples in one
// "sentence", cut right where lpad's entry begins. "What does strpos do?"
// is a ``` fence of nine whole rows (split_part … translate); "What does
// btrim do?" starts inside ascii's entry and runs into chr's signature.
// Over five manual pages (CREATE INDEX, numeric types, VACUUM, connection
// settings, string functions), 10 of 10 "What does <function> do?"
// questions for functions of Table 9.10 were answered with such
// run-together rows or from another page (rtrim: CREATE INDEX).
//
// Expected: a function's row is a unit of its own (as other table rows
// are): the answer quotes the asked function's description ("Extends the
// string to length length by prepending the characters fill …") and
// not other functions' entries.
func TestFunctionTableAnswerQuotesOneEntry_hbreak12(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("/usr/share/doc/postgresql-doc-15/html/functions-string.html")
	if err != nil {
		t.Fatalf("the PostgreSQL manual is missing (%v): run `make setup` (installs postgresql-doc-15)", err)
	}
	// Table 9.10 alone (46 KB; the whole page is over the test server's
	// body limit), under the page's title.
	page := string(raw)
	start := strings.Index(page, `<div class="table" id="FUNCTIONS-STRING-OTHER"`)
	if start < 0 {
		t.Fatal("the manual page has changed: Table 9.10 not found")
	}
	end := start + strings.Index(page[start:], "</table></div></div>") + len("</table></div></div>")
	doc := `<html><head><title>9.4. String Functions and Operators</title></head><body><div class="sect1"><h2 class="title">9.4. String Functions and Operators</h2>` +
		page[start:end] + "</div></body></html>"
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	// Encoded without escaping < and > (json.Marshal's \u003c would take
	// the body over the test server's 64 KB limit).
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"source_uri": "functions-string.html", "content_type": "html", "content": doc}); err != nil {
		t.Fatal(err)
	}
	decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: body.Bytes(), header: map[string]string{"Content-Type": "application/json"}}), http.StatusOK)
	for _, c := range []struct {
		fn, want string
		others   []string
	}{
		{"lpad", "by prepending the characters", []string{"initcap(", "left (", "length (", "ltrim ("}},
		{"strpos", "Returns first starting index of the specified substring", []string{"split_part (", "substr (", "to_hex (", "translate ("}},
		{"btrim", "from the start and end of", []string{"ascii(", "chr (", "concat ("}},
		{"translate", "Replaces each character in string that matches", []string{"to_ascii(", "to_hex ("}},
		{"split_part", "Splits string at occurrences of delimiter and returns the n'th field", []string{"rpad(", "rtrim (", "starts_with ("}},
	} {
		q := "What does " + c.fn + " do?"
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
			body: map[string]any{"question": q}}), http.StatusOK)
		if ar.Refused {
			t.Errorf("%q: refused (%.3f, %s)", q, ar.Confidence, ar.ConfidenceReason)
			continue
		}
		var bad []string
		for _, o := range c.others {
			if strings.Contains(ar.Answer, o) {
				bad = append(bad, o)
			}
		}
		if !strings.Contains(ar.Answer, c.want) || len(bad) > 0 {
			t.Errorf("%q: want %s's own description (%q) and no other function's entry (found %q):\n%s",
				q, c.fn, c.want, bad, ar.Answer)
		}
	}
}
