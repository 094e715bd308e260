package answer

import (
	"strings"
	"testing"
)

// TestReleaseItemNamesItsRelease: asked in which release something came,
// a change log's item is quoted under its release's heading, whether the
// heading is a line inside the chunk ("v0.10.2", PyStaticConfiguration's
// release notes) or a heading of the path ("Version 5.1 (2019-05-17)",
// PyGreSQL's change log): without it the answer said what changed and
// not when, and only the citation's anchor told the release (two held-out
// trials).
func TestReleaseItemNamesItsRelease(t *testing.T) {
	t.Parallel()
	const notes = "Release Notes — PyStaticConfiguration 0.10.5 documentation"
	inChunk := []Source{{N: 1, Title: notes, HeadingPath: notes,
		Titles: []string{notes, "v0.10.2", "v0.10.1", "v0.10.0"},
		Content: "Release Notes\n\nv0.10.2\n\n- add log_keys_only to loaders to prevent the printing of unknown values.\n\n" +
			"v0.10.1\n\n- add compare_func support to MTimeComparator and adds build_compare_func helper\n- fixes an error in _validate_iterable\n\n" +
			"v0.10.0\n\n- add get_config_dict() to retrieve a mapping\n- remove InodeComparator from the list of default comparators\n- add PatchConfiguration for testing"}}
	q := "In which release were loaders given log_keys_only to stop printing unknown values?"
	r := Extractive(q, inChunk, 0)
	if !strings.Contains(r.Answer, "log_keys_only") || !strings.Contains(r.Answer, "v0.10.2") {
		t.Errorf("%s\nAnswer =\n%s\nwant the item under v0.10.2", q, r.Answer)
	}
	const log = "ChangeLog — PyGreSQL 5.1"
	inPath := []Source{{N: 1, Title: log, HeadingPath: log + " > Version 5.1 (2019-05-17) > Changes to the classic PyGreSQL module (pg):",
		Titles: []string{log, "Version 5.1 (2019-05-17)", "Changes to the classic PyGreSQL module (pg):"},
		Content: "Changes to the classic PyGreSQL module (pg):\n\n- Support for prepared statements (following a suggestion and first implementation by Justin Pryzby on the mailing list).\n" +
			"- DB wrapper objects based on existing connections can now be closed and reopened properly (but the underlying connection will not be affected).\n"}}
	q = "Which PyGreSQL release added support for prepared statements in the classic module?"
	r = Extractive(q, inPath, 0)
	if !strings.Contains(r.Answer, "prepared statements") || !strings.Contains(r.Answer, "Version 5.1") {
		t.Errorf("%s\nAnswer =\n%s\nwant the item under Version 5.1", q, r.Answer)
	}
	// Not asked when, the item is quoted alone.
	q = "Can I use prepared statements with the classic module?"
	if r := Extractive(q, inPath, 0); strings.Contains(r.Answer, "Version 5.1") {
		t.Errorf("%s\nAnswer =\n%s\nwant no release heading", q, r.Answer)
	}
	for h, want := range map[string]string{"v0.10.2": "0.10.2", "Version 5.1 (2019-05-17)": "5.1", "1.3.1": "1.3.1", "0.22.1 (2022-12-31)": "0.22.1",
		"E.1. Release 15.1": "15.1", "Release 2.0": "2.0", "Revision 0.3.0, 29-04-2018": "0.3.0", "20.7.4. Other Planner Options": "", "3.2. Rules": "", "Getters — PyStaticConfiguration 0.10.5 documentation": "",
		"Changes to the classic PyGreSQL module (pg):": "", "0.5 seconds": ""} {
		got := ""
		if m := releaseHeading.FindStringSubmatch(h); m != nil {
			got = m[1] + m[2]
		}
		if got != want {
			t.Errorf("release of heading %q = %q, want %q", h, got, want)
		}
	}
}

// TestNamesNumber: a release's number is named only as a number of its
// own, not inside a longer one.
func TestNamesNumber(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, n string
		want    bool
	}{{"support PostgreSQL 15.2 now", "5.2", false}, {"5.21 and 15.2", "5.2", false}, {"15.2 and 5.2.", "5.2", true},
		{"v0.10.2:", "0.10.2", true}, {"(1.3.1)", "1.3.1", true}, {"1.3.10", "1.3.1", false}, {"", "1.0", false}} {
		if got := namesNumber(c.text, c.n); got != c.want {
			t.Errorf("namesNumber(%q, %q) = %v, want %v", c.text, c.n, got, c.want)
		}
	}
}

// TestManualSectionIsNoRelease: a manual's numbered section above a
// passage is no release ("20.7.4. Other Planner Options"), so a question
// asking when gets no heading written before its quote.
func TestManualSectionIsNoRelease(t *testing.T) {
	t.Parallel()
	const page = "20.7. Query Planning"
	src := []Source{{N: 1, Title: page, HeadingPath: page + " > 20.7.4. Other Planner Options",
		Titles:  []string{page, "20.7.4. Other Planner Options"},
		Content: "20.7.4. Other Planner Options\n\nplan_cache_mode (enum)\nPrepared statements can be executed using custom or generic plans. This setting was added in PostgreSQL 12."}}
	q := "Which version added the plan_cache_mode setting?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "plan_cache_mode") || strings.Contains(r.Answer, "20.7.4") {
		t.Errorf("%s\nAnswer =\n%s\nwant the setting's passage without the section number", q, r.Answer)
	}
}
