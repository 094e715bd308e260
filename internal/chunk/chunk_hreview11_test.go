package chunk

import (
	"strings"
	"testing"
)

// TestHReview11NestedDefinitionListPath: in a definition whose dd holds a
// nested definition list, the outer definition's paragraphs after the
// nested list still define the outer term; they are not under the last
// inner term.
func TestHReview11NestedDefinitionListPath(t *testing.T) {
	t.Parallel()
	doc := extractT(t, "text/html", `<html><head><title>postconf(5)</title></head><body><h2>Parameters</h2><dl>
<dt>smtp_tls_security_level (default: empty)</dt><dd><p>The default SMTP TLS security level for the Postfix SMTP client.</p>
<dl><dt>none</dt><dd><p>No TLS.</p></dd><dt>may</dt><dd><p>Opportunistic TLS.</p></dd></dl>
<p>This feature is available in Postfix 2.3 and later.</p></dd></dl></body></html>`)
	chunks := split(t, doc, Config{TargetTokens: 8, MaxTokens: 20, MinTokens: 1, OverlapTokens: 0, MaxChars: 2000})
	found := false
	for _, c := range chunks {
		if strings.Contains(c.Content, "available in Postfix 2.3") {
			found = true
			if strings.HasSuffix(c.HeadingPath, " > may") {
				t.Errorf("the outer definition's last paragraph under the inner term: %q\n%s", c.HeadingPath, c.Content)
			}
		}
	}
	if !found {
		t.Fatal("paragraph not found")
	}
}
