package extract

import (
	"strings"
	"testing"
)

// TestHTMLIconCellReadsItsAlt: a table cell that holds only an image reads
// as the image's alternative text (md-toc's compatibility table gives
// each parser's status as an icon whose alt is "most", "partial" or
// "low"); an alt that names a file, an image beside text and an image
// outside a table add nothing.
func TestHTMLIconCellReadsItsAlt(t *testing.T) {
	t.Parallel()
	in := `<h1>Compatibility table</h1>
<p><img alt="project logo" src="logo.png"> md-toc supports these parsers.</p>
<table><thead><tr><th>Parser</th><th>Status</th><th>Version</th></tr></thead>
<tbody>
<tr><td>cmark</td><td><img alt="most" src="_images/most.png"></td><td>0.30.0</td></tr>
<tr><td>redcarpet</td><td><a href="x"><img alt="low" src="_images/low.png"></a></td><td>Redcarpet v3.5.0</td></tr>
<tr><td>gitlab</td><td><img alt="_images/partial.png" src="_images/partial.png"></td><td>13.0</td></tr>
<tr><td>github</td><td><img alt="ok" src="ok.png"> tested</td><td>0.29.0</td></tr>
</tbody></table>`
	doc := mustExtract(t, "html", in)
	text := doc.Text
	for _, want := range []string{"most", "low"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks the icon's alt %q:\n%s", want, text)
		}
	}
	for _, not := range []string{"project logo", "partial.png", "ok tested"} {
		if strings.Contains(text, not) {
			t.Errorf("text holds %q:\n%s", not, text)
		}
	}
}
