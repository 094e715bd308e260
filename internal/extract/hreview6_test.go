package extract

import (
	"strings"
	"testing"
)

// TestHTMLNavigationSidebarWithScriptIsChrome (review h-review6): proseBox
// decides whether a div.sidebar is a DocBook aside (content) or a site's
// navigation (chrome) by counting its words, but it counts the text of
// every node under it, including what extraction drops anyway: a
// <script>'s source, a <select>'s options (a blog's "Archives" dropdown).
// A navigation sidebar of links with an inline script or an archive
// dropdown is thereby "prose", kept, and its link texts become document
// content (and search hits). The words that decide should be the words the
// box would contribute.
func TestHTMLNavigationSidebarWithScriptIsChrome(t *testing.T) {
	t.Parallel()
	links := `<h3>Recent posts</h3><ul><li><a href="/p1">Tuning autovacuum</a></li><li><a href="/p2">Logical replication</a></li>` +
		`<li><a href="/p3">Partitioning tables</a></li></ul>`
	for name, extra := range map[string]string{
		"script": `<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); ` +
			`gtag('config', 'G-XXXXXX'); var s = document . getElementById ( 'searchbox' ) ; s . style . display = "block" ;</script>`,
		"select": `<h3>Archives</h3><select name="archive-dropdown"><option value="">Select Month</option><option>December 2026</option>` +
			`<option>November 2026</option><option>October 2026</option><option>September 2026</option><option>August 2026</option>` +
			`<option>July 2026</option><option>June 2026</option></select>`,
	} {
		doc := mustExtract(t, "html", `<html><body><div class="sidebar">`+links+extra+`</div>`+
			`<div class="content"><h1>Vacuum</h1><p>VACUUM reclaims storage occupied by dead tuples.</p></div></body></html>`)
		if strings.Contains(doc.Text, "Logical replication") {
			t.Errorf("%s: a navigation sidebar of links is kept as content: %q", name, doc.Text)
		}
	}
}
