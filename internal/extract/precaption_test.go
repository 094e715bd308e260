package extract

import (
	"strings"
	"testing"
)

// TestPreCaptionIsProse: a caption a generator puts inside the listing
// (haproxy-dconv's <div class="example-desc"> before the <code> of a
// <pre>) is a paragraph of its own above the code, not glued to the
// code's first line ("…handled by HAProxy.redirect scheme https if …");
// a block element later inside a pre starts a line of its own, as a
// browser shows it.
func TestPreCaptionIsProse(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Configuration</title></head><body><h1>Configuration</h1>
<p>The redirect rule sends clients elsewhere.</p>
<span class="label">Example:</span>
<pre class="prettyprint">
<div class="example-desc">Redirect all HTTP traffic to HTTPS when SSL is handled by HAProxy.</div><code>redirect scheme https if !{ ssl_fc }
</code></pre>
<pre>first line<div>second line</div>third line</pre>
<pre><div class="line">import os</div><div class="line">print(os.sep)</div></pre>
</body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	caption := "Redirect all HTTP traffic to HTTPS when SSL is handled by HAProxy."
	at := strings.Index(doc.Text, caption)
	code := strings.Index(doc.Text, "redirect scheme https if !{ ssl_fc }")
	if at < 0 || code < 0 || !strings.Contains(doc.Text[at+len(caption):code], "\n") {
		t.Fatalf("caption and code glued or missing in %q", doc.Text)
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindCode && strings.Contains(doc.Text[b.Start:b.End], caption) {
			t.Errorf("the caption is inside the code block %q", doc.Text[b.Start:b.End])
		}
	}
	for _, b := range doc.Blocks {
		if b.Kind != KindCode && strings.Contains(doc.Text[b.Start:b.End], "import os") {
			t.Errorf("a listing's first line, a div, is read as a caption: %q", doc.Text[b.Start:b.End])
		}
	}
	if !strings.Contains(doc.Text, "first line\nsecond line\nthird line") || !strings.Contains(doc.Text, "import os\nprint(os.sep)") {
		t.Errorf("a div inside a pre does not start its own line: %q", doc.Text)
	}
}
