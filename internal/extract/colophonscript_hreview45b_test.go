package extract

import (
	"strings"
	"testing"
)

// TestFooterCopyrightWithScriptIsChrome_hreview45b: 08a2f25 reads a
// colophon's text with textUpTo, which (unlike textContent, used before)
// keeps the text of chrome such as an inline <script>. A footer's
// copyright paragraph that carries the site's analytics snippet (a common
// template) is then over 200 characters and no longer chrome: "© Copyright
// 2024, Acme Inc." comes back into every page's text and chunks, which
// before this commit it did not.
func TestFooterCopyrightWithScriptIsChrome_hreview45b(t *testing.T) {
	t.Parallel()
	script := `<script>var _paq = window._paq = window._paq || []; _paq.push(['trackPageView']); _paq.push(['enableLinkTracking']); (function() { var u="https://stats.example.org/"; _paq.push(['setTrackerUrl', u+'matomo.php']); _paq.push(['setSiteId', '7']); var d=document, g=d.createElement('script'); g.async=true; g.src=u+'matomo.js'; d.head.appendChild(g); })();</script>`
	page := `<html><head><title>Installing</title></head><body>
<div class="document"><h1>Installing</h1>
<p>Run the installer and follow the prompts; the service starts on port 8080 once the installation completes.</p></div>
<div class="footer"><p>&copy; Copyright 2024, Acme Inc. ` + script + `</p></div>
</body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "service starts on port 8080") {
		t.Fatalf("content lost: %q", doc.Text)
	}
	if strings.Contains(doc.Text, "Acme Inc") {
		t.Errorf("the footer's copyright line is in the text: %q", doc.Text)
	}
}
