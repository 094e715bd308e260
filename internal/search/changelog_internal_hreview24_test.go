package search

import "testing"

// TestHR24SphinxVersionSuffixMakesAnyHistorySectionAChangelog: a page of a
// Sphinx site whose title carries the default "<project> v<release>
// documentation" suffix ("Interactive shell — Shellkit v2.3
// documentation") and has an ordinary section headed "History" (how the
// shell saves the commands typed) is taken for a change log:
// changelogChunk finds "History" in the heading path, then finds a
// "release" in versionMark's match of "v2.3" in the site suffix of the
// title — every page of that site names a release. Should: false (the
// chunk names no release of its own; the title's site suffix is cut for
// the title test and should not stand for the chunk's release either).
// The same holds for a "News" section of a CMS manual (second case).
func TestHR24SphinxVersionSuffixMakesAnyHistorySectionAChangelog(t *testing.T) {
	t.Parallel()
	for _, r := range []Result{
		{Title: "Interactive shell — Shellkit v2.3 documentation",
			HeadingPath: "Interactive shell — Shellkit v2.3 documentation > History",
			Content:     "History\n\nThe shell saves every command you type to ~/.shellkit_history when it exits. Press the up arrow to recall a command; set HISTSIZE to keep more of them."},
		{Title: "Content types — Pressbook v4.2 documentation",
			HeadingPath: "Content types — Pressbook v4.2 documentation > News",
			Content:     "News\n\nA news item has a headline, a teaser and a body. Publish it from the dashboard and it appears on the front page."},
	} {
		if changelogChunk(r) {
			t.Errorf("changelogChunk(%q, %q) = true for a feature's section that names no release", r.Title, r.HeadingPath)
		}
	}
}

// TestHR24DatedValuesUnderHistoryHeadingAreNoRelease: a chunk of an API
// reference under a "History" heading (the endpoint that returns past
// exchange rates) whose sample output lists a rate with its date on each
// line ("1.0842 (2024-01-02)") is taken for a change log: the new
// date-line alternative of versionLine accepts any decimal number followed
// by "(" or "-" and an ISO date at a line's start, and the heading test
// accepts "History". Should: false — a number with a date is a
// measurement, not a release, when nothing else names a release. The
// same for a "News" page's dated scores ("2.5 - 2024-03-01").
func TestHR24DatedValuesUnderHistoryHeadingAreNoRelease(t *testing.T) {
	t.Parallel()
	for _, r := range []Result{
		{Title: "Exchange rates API", HeadingPath: "Exchange rates API > History",
			Content: "History\n\nGET /rates/EURUSD/history returns one closing rate a day, oldest first:\n\n1.0842 (2024-01-02)\n1.0861 (2024-01-03)\n1.0917 (2024-01-04)"},
		{Title: "Tutorial: a sensor dashboard", HeadingPath: "Tutorial: a sensor dashboard > News",
			Content: "News\n\nThe news panel shows the latest readings of each sensor:\n\n21.5 - 2024-03-01\n22.1 - 2024-03-02"},
	} {
		if changelogChunk(r) {
			t.Errorf("changelogChunk(%q, %q) = true for dated measurements", r.Title, r.HeadingPath)
		}
	}
}

// TestHR24ReleaseHeadingWithDateInHeadingPath: a windowed or later chunk
// of a release section headed the Requests way ("Release History >
// 2.28.1 (2022-06-29)") carries its release in the heading path, not in
// its content (only the section's first chunk holds the heading line).
// versionMark, which tests the heading path, knows only "Version 2.2.0",
// "v2.2" and "Release 15.4", not the "2.28.1 (2022-06-29)" form that
// versionLine accepts in content, so the chunk is no change log:
// changelogChunk = false. Should: true, as for the section's first chunk.
// The same for the pytest form ("pytest 7.4.0 (2023-06-23)") and the
// Express History.md form ("4.18.2 / 2022-10-08"), which no rule accepts
// anywhere.
func TestHR24ReleaseHeadingWithDateInHeadingPath(t *testing.T) {
	t.Parallel()
	for _, r := range []Result{
		{Title: "Community Updates — Requests 2.28.1 documentation",
			HeadingPath: "Community Updates — Requests 2.28.1 documentation > Release History > 2.28.1 (2022-06-29)",
			Content:     "- Fixed a Unicode error when a header value was a non-ASCII string.\n- Sessions now close their adapters when garbage collected."},
		{Title: "Changelog — pytest documentation", HeadingPath: "Changelog — pytest documentation",
			Content: "pytest 7.4.0 (2023-06-23)\n\nFeatures\n\n#10901: Added ExceptionInfo.from_exception(), a simpler way to create an ExceptionInfo from an exception."},
		{Title: "History", HeadingPath: "History",
			Content: "4.18.2 / 2022-10-08\n\n* Fix regression routing a large stack in express.Router\n* deps: body-parser@1.20.1"},
	} {
		if !changelogChunk(r) {
			t.Errorf("changelogChunk(%q, %q) = false for a release's entries", r.Title, r.HeadingPath)
		}
	}
}
