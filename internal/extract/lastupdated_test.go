package extract

import (
	"strings"
	"testing"
)

// TestFooterDateStampIsChrome: the date stamp in a page's footer
// (AsciiDoc's <div id="footer-text">Last updated …</div>, on every page of
// Git's manual) is chrome; the same words in the text are content.
func TestFooterDateStampIsChrome(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>git-reset(1)</title></head><body><div id="content"><h1>git-reset(1)</h1>
<p>Reset current HEAD to the specified state.</p>
<p>Last updated 2023-04-01: the refund policy now covers digital goods.</p></div>
<div id="footnotes"><hr /></div>
<div id="footer">
<div id="footer-text">
Last updated
 2024-05-31 00:35:55 UTC
</div>
</div></body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc.Text, "2024-05-31") {
		t.Errorf("the footer's date stamp is in the text: %q", doc.Text)
	}
	if !strings.Contains(doc.Text, "the refund policy now covers digital goods") {
		t.Errorf("a paragraph of the content that opens with a date was dropped: %q", doc.Text)
	}
}
