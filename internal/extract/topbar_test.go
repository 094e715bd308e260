package extract

import (
	"strings"
	"testing"
)

// TestTopBarIsChrome: a top bar over the page that repeats its title as an
// h1 (Erlang/OTP's documentation) is chrome: the title opens the text once,
// from the page's own h1.
func TestTopBarIsChrome(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Erlang -- Errors and Error Handling</title></head><body><div id="container">
<div class="topbar"><div class="topbar-title"><h1 id="Errors and Error Handling">12 Errors and Error Handling</h1></div></div>
<div id="content"><h1 id="Errors and Error Handling">12 Errors and Error Handling</h1>
<h3 id="terminology">12.1 Terminology</h3><p>Errors can roughly be divided into four different types.</p></div></div></body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(doc.Text, "12 Errors and Error Handling"); n != 1 {
		t.Errorf("the title %d times in %q, want once", n, doc.Text)
	}
}
