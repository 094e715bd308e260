package extract

import (
	"strings"
	"testing"
)

// mdBook's hidden listing lines (span.boring: the "fn main() {" around
// each Rust book example) are not text: the page shows the listing
// without them.
func TestHTMLDropsMdBookHiddenLines(t *testing.T) {
	t.Parallel()
	in := `<html><body><h1>Hash Maps</h1><p>Insert a value:</p>
<pre><pre class="playground"><code class="language-rust"><span class="boring">fn main() {
</span>    let mut scores = HashMap::new();
    scores.insert(String::from("Blue"), 10);
<span class="boring">}
</span></code></pre></pre><p>A <span class="boring-not">boring</span> word stays.</p></body></html>`
	doc := mustExtract(t, "html", in)
	if strings.Contains(doc.Text, "fn main") || !strings.Contains(doc.Text, `scores.insert(String::from("Blue"), 10);`) || !strings.Contains(doc.Text, "A boring word stays.") {
		t.Errorf("text:\n%s", doc.Text)
	}
}
