package answer

import (
	"strings"
	"testing"
)

// A passage opening a short section runs on to the section's end only
// through prose and the code it announces, never into a list's other
// items, a release's other changes, an announcement of what the section
// does not hold or a bare pointer elsewhere; a pointer carrying a warning
// or a requirement stays (a reviewer's cases, each a wrong answer of the
// first version of the rule).

// A changelog's version line shaped like code ("0.8 (2005-11-03)") is
// parsed as a code unit of the "Bugs fixed" section, so the run to the
// section's end swallows the other fixes and the next release's version
// line, quoted as a code block under a citation to 0.9 (lxml tenant,
// "Why do I get a segfault?").
func TestShortSectionChangelogRunsIntoNextVersionLine(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "lxml changelog", HeadingPath: "lxml changelog > 0.9 (2006-03-20) > Bugs fixed",
		Content: "lxml changelog\nBugs fixed\n\n" +
			"- Segfaults and memory leaks in various API functions of Element\n" +
			"- Segfault in XSLT.tostring()\n" +
			"- ElementTree objects no longer interfere, Elements can be root of different ElementTrees at the same time\n" +
			"- document('') works in XSLT documents read from files (in-memory documents cannot support this due to libxslt deficiencies)\n\n" +
			"0.8 (2005-11-03)\n\nFeatures added\n\n" +
			"- Support for copy.deepcopy() on elements. copy.copy() works also, but does the same thing, and does not create a shallow copy, as that makes no sense in the context of libxml2 trees.\n" +
			"- implemented index() on elements, allowing one to find the index of a SubElement.",
		Titles: []string{"Bugs fixed", "Features added"}}
	r := Extractive("Why do I get a segfault?", []Source{src}, 3)
	if strings.Contains(r.Answer, "0.8 (2005-11-03)") {
		t.Errorf("answer %q: quotes the next release's version line as code", r.Answer)
	}
	if strings.Contains(r.Answer, "document('')") {
		t.Errorf("answer %q: quotes unrelated entries of the change list", r.Answer)
	}
}

// A "Removed features" list: the item answering the question leads the
// section, and the run to the section's end adds the next item, about
// another platform (celery-s49a tenant, "Does Celery support Windows?").
func TestShortSectionRemovedFeaturesQuotesNextItem(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "What’s new in Celery 4.0 (latentcall)",
		HeadingPath: "What’s new in Celery 4.0 (latentcall) > Important Notes > Removed features",
		Content: "Removed features\n\n" +
			"- Microsoft Windows is no longer supported.\n" +
			"  The test suite is passing, and Celery seems to be working with Windows, but we make no guarantees as we are unable to diagnose issues on this platform. If you are a company requiring support on this platform, please get in touch.\n" +
			"- Jython is no longer supported.\n\n" +
			"Features removed for simplicity\n\n" +
			"- Webhook task machinery (celery.task.http) has been removed.\n" +
			"  Nowadays it’s easy to use the requests module to write webhook tasks manually.\n" +
			"- Tasks no longer sends error emails.\n" +
			"  This also removes support for app.mail_admins, and any functionality related to sending emails.",
		Titles: []string{"Removed features", "Features removed for simplicity"}}
	r := Extractive("Does Celery support Windows?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "Windows is no longer supported") {
		t.Fatalf("answer %q: want the Windows item", r.Answer)
	}
	if strings.Contains(r.Answer, "Jython") {
		t.Errorf("answer %q: quotes the next list item, about another platform", r.Answer)
	}
}

// Release notes: the first change of a version answers; the other changes
// of that version are unrelated to the question, as items or as prose.
func TestShortSectionReleaseNotesQuoteUnrelatedChanges(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		"- Added support for HTTP/2 proxies.\n- Fixed a crash when the cookie jar was empty.\n- Dropped support for Python 3.7.",
		"Support for HTTP/2 proxies was added. A crash when the cookie jar was empty was fixed. Support for Python 3.7 was dropped.",
	} {
		src := Source{N: 1, Title: "Release notes", HeadingPath: "Release notes > Version 2.4.0",
			Content: "Version 2.4.0\n\n" + body + "\n\nVersion 2.3.0\n\n- Added the --dry-run flag.\n",
			Titles:  []string{"Version 2.4.0", "Version 2.3.0"}}
		r := Extractive("When was support for HTTP/2 proxies added?", []Source{src}, 3)
		if !strings.Contains(r.Answer, "HTTP/2 proxies") {
			t.Fatalf("answer %q: want the HTTP/2 change", r.Answer)
		}
		if strings.Contains(r.Answer, "cookie jar") || strings.Contains(r.Answer, "Python 3.7") {
			t.Errorf("answer %q: quotes the version's unrelated changes", r.Answer)
		}
	}
}

// A DocBook-style listing caption on the line above its code starts a
// section of its own, so the section the passage opens ends on the
// sentence announcing the listing: the answer ends on ":" with nothing
// after it.
func TestShortSectionRunEndsOnColonBeforeCaptionedListing(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "Undoing Things", HeadingPath: "Book > Undoing Things",
		Content: "Undoing Things\n\n" +
			"To undo the last commit but keep its changes, reset to its parent. The whole sequence looks like this:\n\n" +
			"Example 2-3. Undo the last commit\n$ git reset --soft HEAD~1\n$ git status\n\n" +
			"Unstaging a Staged File\n\nUse git restore --staged.\n",
		Titles: []string{"Undoing Things", "Unstaging a Staged File"}}
	r := Extractive("How do I undo the last commit?", []Source{src}, 3)
	if strings.HasSuffix(strings.TrimSpace(strings.SplitN(r.Answer, "\n\n", 2)[0]), ":") && !strings.Contains(r.Answer, "git reset") {
		t.Errorf("answer %q: ends on a sentence announcing a listing it does not quote", r.Answer)
	}
}

// Scrapy's FAQ entry on __VIEWSTATE: the run adds a sentence whose link
// ("here’s an example spider") the text lost, and the pointer "For more
// info on how it works see this page" is kept because it is not last.
func TestShortSectionFAQRunAddsDanglingLinkSentence(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "Frequently Asked Questions — Scrapy 2.8.0 documentation",
		HeadingPath: "Frequently Asked Questions — Scrapy 2.8.0 documentation",
		Content: "What’s this huge cryptic __VIEWSTATE parameter used in some forms?\n\n" +
			"The __VIEWSTATE parameter is used in sites built with ASP.NET/VB.NET. For more info on how it works see this page. Also, here’s an example spider which scrapes one of these sites.\n\n" +
			"What’s the best way to parse big XML/CSV data feeds?\n\n" +
			"Parsing big feeds with XPath selectors can be problematic since they need to build the DOM of the entire feed in memory, and this can be quite slow and consume a lot of memory.\n\n" +
			"Does Scrapy manage cookies automatically?\n\n" +
			"Yes, Scrapy receives and keeps track of cookies sent by servers, and sends them back on subsequent requests, like any regular web browser does.",
		Titles: []string{"What’s this huge cryptic __VIEWSTATE parameter used in some forms?", "What’s the best way to parse big XML/CSV data feeds?", "Does Scrapy manage cookies automatically?"}}
	r := Extractive("What's this huge cryptic __VIEWSTATE parameter used in some forms?", []Source{src}, 3)
	if strings.Contains(r.Answer, "here’s an example spider") {
		t.Errorf("answer %q: ends on a sentence pointing at a link the text does not carry", r.Answer)
	}
}

// The pointer trim drops a closing "See …" sentence that carries the
// entry's warning ("the migration cannot be undone"), and a "Refer to …"
// sentence that says what is required: the run quoted the entry without
// what the reader must not miss.
func TestShortSectionPointerTrimDropsWarning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ q, entry, next, want string }{
		{"How do I upgrade from version 1 to version 2?",
			"How do I upgrade from version 1 to version 2?\n\nVersion 2 changed the on-disk format of the index, so an upgrade is not done in place. Install version 2 next to version 1 and run the migration. See the upgrade notes before you start: the migration cannot be undone.",
			"How do I report a bug?", "cannot be undone"},
		{"Is the client thread-safe?",
			"Is the client thread-safe?\n\nThe client can be shared between threads. Its sessions cannot. Refer to the session documentation for how to create one session per thread, which is required.",
			"Does the client support HTTP/2?", "one session per thread"},
	} {
		src := Source{N: 1, Title: "FAQ", HeadingPath: "FAQ", Content: tc.entry + "\n\n" + tc.next + "\n\nNo.\n",
			Titles: []string{strings.SplitN(tc.entry, "\n", 2)[0], tc.next}}
		r := Extractive(tc.q, []Source{src}, 3)
		if !strings.Contains(r.Answer, tc.want) {
			t.Errorf("answer %q: the entry quoted without %q", r.Answer, tc.want)
		}
	}
}
