package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestReleaseWithTheWordVersionOverDocuments: over documents that name
// their product with its release ("Frobnicator 6.67.1 documentation") and
// number their own releases bare ("Changed in version 6.60"), a question
// about "Frobnicator version 6.90" is about a release no document covers
// (capped, the release named), while "Frobnicator version 6.60" is one
// they do.
func TestReleaseWithTheWordVersionOverDocuments(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"index.md": "# Frobnicator 6.67.1 documentation\n\nFrobnicator frobnicates widgets and keeps an example database of the widgets it frobnicated.",
		"database.md": "# The example database\n\nThe example database stores every widget that failed. Changed in version 6.60: the example database " +
			"moved to a directory of its own, and earlier releases read the old directory.",
	}
	tt, s := corpusTenant(t, "relword", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "What changed about the example database in Frobnicator version 6.90 compared to earlier releases?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || !slices.Contains(resp.MissingTerms, "Frobnicator version 6.90") {
		t.Errorf("release 6.90: confidence %.3f, missing %q; want capped at 0.1 (releaseCap) with the release named", resp.Confidence, resp.MissingTerms)
	}
	resp, err = s.Search(context.Background(), tt, search.Request{Query: "What changed about the example database in Frobnicator version 6.60 compared to earlier releases?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence <= 0.1 || len(resp.MissingTerms) != 0 {
		t.Errorf("release 6.60, which the documents write bare: confidence %.3f, missing %q; want not capped, nothing missing", resp.Confidence, resp.MissingTerms)
	}
}

// TestReleaseWithTheWordVersionCapitalised (a review's cases): over
// documents naming "Debian 12 (bookworm)", "Debian version 14" is a
// release they do not cover, as "Debian 14" is; "Windows version 1903" is
// a build of Windows 10 the documents name, no release.
func TestReleaseWithTheWordVersionCapitalised(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"install.md": "# Installing the agent\n\nThe agent package is built for Debian 12 (bookworm) and Debian 11 (bullseye). " +
			"It runs on Windows 10, version 1903 or later, and on Windows Server 2019.",
		"config.md": "# Configuring the agent\n\nThe agent reads its settings from agent.conf when it starts and when it receives SIGHUP.",
	}
	tt, s := corpusTenant(t, "relcap", "english", docs)
	for _, q := range []string{"Is the agent package built for Debian 14?", "Is the agent package built for Debian version 14?"} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence > 0.1 {
			t.Errorf("%q: confidence %.3f, missing %q; want capped at 0.1 (releaseCap)", q, resp.Confidence, resp.MissingTerms)
		}
	}
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "Does the agent run on Windows version 1903?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence <= 0.1 || len(resp.MissingTerms) != 0 {
		t.Errorf("Windows version 1903: confidence %.3f, missing %q; want not capped, nothing missing", resp.Confidence, resp.MissingTerms)
	}
}

// TestReleaseInTheSiteTitle: documents whose text never writes their
// product with a release, but whose pages are titled with it as a site
// titles them ("Usage — frob-lib 2.4.1 documentation"), name a product
// with releases: a question about "frob-lib 2.5.0" is about a release no
// document covers (capped, the release named), one about "frob-lib 2.4.1"
// is not.
func TestReleaseInTheSiteTitle(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"usage.md": "---\ntitle: Usage — frob-lib 2.4.1 documentation\n---\n\nThe frob-lib client binds to the directory server and searches it. " +
			"Searches return entries as tuples of a name and its attributes.",
		"install.md": "---\ntitle: Installing — frob-lib 2.4.1 documentation\n---\n\nBuild frob-lib against the directory client libraries, " +
			"which your distribution packages with their headers.",
	}
	tt, s := corpusTenant(t, "reltitle", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "What new features and fixes were added in the frob-lib 2.5.0 release?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || !slices.Contains(resp.MissingTerms, "frob-lib 2.5.0") {
		t.Errorf("release 2.5.0: confidence %.3f, missing %q; want capped at 0.1 (releaseCap) with the release named", resp.Confidence, resp.MissingTerms)
	}
	resp, err = s.Search(context.Background(), tt, search.Request{Query: "How do I build frob-lib 2.4.1 against the directory client libraries?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence <= 0.1 || len(resp.MissingTerms) != 0 {
		t.Errorf("release 2.4.1, which the titles write: confidence %.3f, missing %q; want not capped, nothing missing", resp.Confidence, resp.MissingTerms)
	}
	// A site may title its pages with the release in brackets
	// ("Flask-Limiter {3.3.0}").
	braced := map[string]string{
		"index.md": "---\ntitle: Frob-Limiter {3.3.0}\n---\n\nFrob-Limiter adds rate limits to the routes of a web application. " +
			"Each limit is written as a number of requests per unit of time.",
		"changelog.md": "---\ntitle: Changelog - Frob-Limiter {3.3.0}\n---\n\nThe storage of limits moved to its own package, and the decorators gained a cost argument.",
	}
	bt, bs := corpusTenant(t, "reltitleb", "english", braced)
	resp, err = bs.Search(context.Background(), bt, search.Request{Query: "What new features and breaking changes were introduced in Frob-Limiter 4.0?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || !slices.Contains(resp.MissingTerms, "Frob-Limiter 4.0") {
		t.Errorf("release 4.0 over titles writing {3.3.0}: confidence %.3f, missing %q; want capped at 0.1 with the release named", resp.Confidence, resp.MissingTerms)
	}
	// Sphinx's title, a lower-case name and a release of two parts
	// ("Changelog — humanfriendly 10.0 documentation"): a two-part number
	// after a lower-case word in text may be a measure ("cosine 0.9"), in
	// the site's title it is the release.
	sphinx := map[string]string{
		"changelog.md": "---\ntitle: Changelog — frobfriendly 10.0 documentation\n---\n\nRelease 9.1 added a spinner that hides the text cursor. " +
			"Release 10.0 dropped support for old interpreters.",
		"api.md": "---\ntitle: API documentation — frobfriendly 10.0 documentation\n---\n\nThe format_size function formats a byte count as a human readable size.",
	}
	st, ss := corpusTenant(t, "reltitles", "english", sphinx)
	for _, q := range []string{"What new features were added in frobfriendly release 10.2?", "What new features were added in frobfriendly 10.2?"} {
		resp, err = ss.Search(context.Background(), st, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence > 0.1 || len(resp.MissingTerms) != 1 {
			t.Errorf("%q over titles writing 10.0: confidence %.3f, missing %q; want capped at 0.1 with the release named", q, resp.Confidence, resp.MissingTerms)
		}
	}
	resp, err = ss.Search(context.Background(), st, search.Request{Query: "Did frobfriendly 10.0 drop support for old interpreters?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence <= 0.1 || len(resp.MissingTerms) != 0 {
		t.Errorf("release 10.0, which the titles write: confidence %.3f, missing %q; want not capped, nothing missing", resp.Confidence, resp.MissingTerms)
	}
	// A change log titled with the name, its releases' notes under lines
	// of their own ("Version 1.5.1"), several to a chunk.
	notes := map[string]string{
		"changelog.md": "---\ntitle: Frobbook Changelog — Frobbook\n---\n\nVersion 1.5.1\n\nReleased on August 20th, 2019\n\n- Added support for asyncio and contextvars\n\n" +
			"Version 1.4.3\n\nReleased on January 16th, 2019\n\n- Fixed the package upload of 1.4.2",
		"quickstart.md": "---\ntitle: Quickstart — Frobbook\n---\n\nA Frobbook logger writes records to the handlers on its stack.",
		"fdl.md":        "---\ntitle: GNU Free Documentation License — Frobbook\n---\n\nVersion 1.3, 3 November 2008\n\nCopyright © 2000 Free Software Foundation, Inc.",
	}
	nt, ns := corpusTenant(t, "relnotes", "english", notes)
	resp, err = ns.Search(context.Background(), nt, search.Request{Query: "What new features and breaking changes were introduced in Frobbook 2.0?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || !slices.Contains(resp.MissingTerms, "Frobbook 2.0") {
		t.Errorf("Frobbook 2.0 over notes up to 1.5.1: confidence %.3f, missing %q; want capped at 0.1 with the release named", resp.Confidence, resp.MissingTerms)
	}
	resp, err = ns.Search(context.Background(), nt, search.Request{Query: "Which support did Frobbook 1.5.1 add, asyncio?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MissingTerms) != 0 {
		t.Errorf("Frobbook 1.5.1, whose notes the change log has: missing %q, want none", resp.MissingTerms)
	}
	// The licence's "Version 1.3, 3 November 2008" is no release of the
	// product: the number does not end its line.
	resp, err = ns.Search(context.Background(), nt, search.Request{Query: "What changed in Frobbook 1.3?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || !slices.Contains(resp.MissingTerms, "Frobbook 1.3") {
		t.Errorf("Frobbook 1.3 over a licence's version line: confidence %.3f, missing %q; want capped with the release named", resp.Confidence, resp.MissingTerms)
	}
	// A change log titled with the name whose headings are each release's
	// number and date ("0.22.1 (2022-12-31)", as bidict's is) covers those
	// releases and no other.
	dated := map[string]string{
		"changelog.md": "---\ntitle: Changelog - Frobdict\n---\n\n## 0.22.1 (2022-12-31)\n\nOnly include the source distribution and the wheel.\n\n" +
			"## 0.22.0 - March 23, 2022\n\nDrop support for the oldest interpreter and add type hints to the inverse attribute.",
		"intro.md": "---\ntitle: Introduction - Frobdict\n---\n\nA Frobdict maps keys to values and values back to keys through its inverse attribute.",
		"notes.md": "---\ntitle: Release Notes - Frobdict\n---\n\n## Version 0.21.4, 2021-10-23\n\nFix a typo in the inverse attribute's documentation.",
		"fdl.md":   "---\ntitle: GNU Free Documentation License - Frobdict\n---\n\nVersion 1.3, 3 November 2008\n\nCopyright © 2000 Free Software Foundation, Inc.",
	}
	dt, ds := corpusTenant(t, "reldated", "english", dated)
	resp, err = ds.Search(context.Background(), dt, search.Request{Query: "What new features and deprecations were introduced in Frobdict version 0.23.0?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || len(resp.MissingTerms) != 1 {
		t.Errorf("Frobdict 0.23.0 over dated headings up to 0.22.1: confidence %.3f, missing %q; want capped with the release named", resp.Confidence, resp.MissingTerms)
	}
	resp, err = ds.Search(context.Background(), dt, search.Request{Query: "What changed in Frobdict 1.3?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || len(resp.MissingTerms) != 1 {
		t.Errorf("Frobdict 1.3 over a licence's dated version line: confidence %.3f, missing %q; want capped with the release named", resp.Confidence, resp.MissingTerms)
	}
	for _, q := range []string{"What changed in Frobdict 0.22.1?", "Which interpreter did Frobdict 0.22.0 drop support for?", "Which typo did Frobdict 0.21.4 fix?"} {
		resp, err = ds.Search(context.Background(), dt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.MissingTerms) != 0 || resp.Confidence <= 0.1 {
			t.Errorf("%q, a release the change log heads: confidence %.3f, missing %q; want not capped, nothing missing", q, resp.Confidence, resp.MissingTerms)
		}
	}
}
