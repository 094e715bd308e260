package search

import "testing"

// TestChangelogTitles: the titles of change logs, as Sphinx, a manual's
// release notes and plain projects write them, and titles that are not
// one (a "What's new" page explains its features in prose).
func TestChangelogTitles(t *testing.T) {
	t.Parallel()
	for title, want := range map[string]bool{
		"Changes — Flask Documentation (2.2.x)": true,
		"Changelog":                 true,
		"E.1. Release 15.20":        true,
		"Release Notes | Acme Docs": true,
		"History":                   true,
		"What’s new in Celery 5.2 (Dawn Chorus)":               false,
		"Deferred Request Callbacks — Flask Documentation":     false,
		"Changes to the widget cache":                          false,
		"22.5. Predefined Roles":                               false,
		"Release Process — How we cut a release of the server": false,
		// The product's name before an unambiguous name (Pygments').
		"Pygments changelog — Pygments": true,
		"Acme release notes":            true,
		"Python history":                false,
		"Configuration changes":         false,
	} {
		if got := changelogTitle.MatchString(titleStem(title)); got != want {
			t.Errorf("changelog title %q = %v, want %v", title, got, want)
		}
	}
	for q, want := range map[string]bool{
		"In which version was the JSON provider added?":         true,
		"What changed in 2.2?":                                  true,
		"When was ignore missing introduced?":                   true,
		"Do I need to install anything extra to use signals?":   false,
		"How do I set a cookie from a before_request function?": false,
		"Which option was added in the last release?":           true,
		"What has changed in the session API?":                  true,
		"Since when does the loader cache templates?":           true,
		// A word of change about the asker's data (h-trial37).
		"How do I get a copy of an immutable instance with just one field changed?": false,
		"git status keeps showing changes in node_modules":                          false,
		"How do I delete child rows removed from the parent's collection?":          false,
		// A dotted number is a release after a word or a "v", not in a
		// pasted requirement, an address or an amount.
		"Does it still run on my Python 2.7 box?": true,
		"Is v2.0 out?": true,
		"pkg_resources.DistributionNotFound: The 'foo>=1.0' distribution was not found": false,
		"The session loses cookies when I talk to http://127.0.0.1:8080 in my tests":    false,
		"NumberFormatError: '30.00' is not a properly formatted decimal number":         false,
	} {
		if got := changeQuestion.MatchString(q); got != want {
			t.Errorf("changeQuestion(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestChangelogUnderAHeading: a release history under a heading of a page
// titled otherwise ("Community Updates" > "Release History", versions
// written "2.28.1 (2022-06-29)") is a change log too; a trial's Requests
// tenant had it among the sources of 21 of 42 answers. A page's "History"
// section that names no release is not.
func TestChangelogUnderAHeading(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    Result
		want bool
	}{
		{Result{Title: "Community Updates — Requests 2.28.1 documentation", HeadingPath: "Community Updates — Requests 2.28.1 documentation > Release History",
			Content: "2.3.0 (2014-05-16)\n\nAPI Changes\n\n- New Response property is_redirect."}, true},
		{Result{Title: "Acme Changelog", HeadingPath: "Changelog", Content: "## [1.2.0] - 2022-01-03\n\n- Added the export command."}, true},
		{Result{Title: "Changelog", HeadingPath: "Changelog", Content: "[1.2.0] - 2022-01-03\n\n- Added the export command."}, true},
		{Result{Title: "About Acme", HeadingPath: "About Acme > History", Content: "Jane Doe founded Acme in 1947 in Springfield."}, false},
		// A release named as its tarball is (tig's release notes).
		{Result{Title: "Release notes", HeadingPath: "Release notes > tig-2.5.5", Content: "Bug fixes:\n\n - Fix the search in the pager view."}, true},
		{Result{Title: "Release notes", HeadingPath: "Release notes > Upgrading from version 1", Content: "Read this first."}, false},
		// A page holding its change history beside its other sections:
		// the releases' headings are siblings of "Change History", not
		// under it, and a chunk opening on a dated release, or under
		// one, is its notes.
		{Result{Title: "Servekit — servekit 2.1 documentation", HeadingPath: "Servekit — servekit 2.1 documentation",
			Content: "1.4.4 (2020-06-01)\n\n- Fix an issue with keep-alive connections."}, true},
		{Result{Title: "Servekit — servekit 2.1 documentation", HeadingPath: "Servekit — servekit 2.1 documentation > 2.0.0 (2021-03-07) > Bugfixes/Features",
			Content: "- Fix a crash on start-up."}, true},
		{Result{Title: "Servekit — servekit 2.1 documentation", HeadingPath: "Servekit — servekit 2.1 documentation > v2.0.0 - 2021-03-07",
			Content: "- Fix a crash on start-up."}, true},
		// A section numbered as a manual numbers them, or a date in
		// prose, is no release.
		{Result{Title: "Manual", HeadingPath: "Manual > 2.1.2 Configuration", Content: "Set the port. Released 2021-03-07, this page is current."}, false},
		{Result{Title: "Manual", HeadingPath: "Manual > Installing", Content: "2.1.2 is the current release (2021-03-07) of the manual."}, false},
	} {
		if got := changelogChunk(tc.r); got != tc.want {
			t.Errorf("changelogChunk(%q, %q) = %v, want %v", tc.r.Title, tc.r.HeadingPath, got, tc.want)
		}
	}
}
