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
	} {
		if got := isChangelog(title); got != want {
			t.Errorf("isChangelog(%q) = %v, want %v", title, got, want)
		}
	}
	for q, want := range map[string]bool{
		"In which version was the JSON provider added?":         true,
		"What changed in 2.2?":                                  true,
		"When was ignore missing introduced?":                   true,
		"Do I need to install anything extra to use signals?":   false,
		"How do I set a cookie from a before_request function?": false,
	} {
		if got := changeQuestion.MatchString(q); got != want {
			t.Errorf("changeQuestion(%q) = %v, want %v", q, got, want)
		}
	}
}
