package search_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestMissingIdentifiersAreMatchedLiterally: an identifier with
// underscores is missing unless a chunk contains it word for word, so one
// whose joined form another identifier shares (pg_stat_io, pg_statio_) is
// named missing; identifiers the documents contain, dotted ones with
// underscores included (pg_hba.conf), are not. A long command-line option
// no document mentions (--cloud-sync) is a missing identifier, and so is a
// member written with its qualifier (String#bytesplice) and a name of six
// or more capitals (GLOBSORT).
func TestMissingIdentifiersAreMatchedLiterally(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"statio.md": "# I/O statistics\n\nThe pg_statio_user_tables view shows the number of disk blocks read from each table. " +
			"The pg_statio_ views count buffer hits and reads.",
		"auth.md": "# Client authentication\n\nClient authentication is controlled by the file pg_hba.conf in the data directory. " +
			"Each record names a connection type, a database, a user and an authentication method.",
		"python.md": "# Importing\n\nCall importlib.import_module to import a module by its name at run time.",
		"string.md": "# class String\n\nPublic instance methods: squeeze removes runs of a character; byteslice returns a substring by bytes. " +
			"See also the Enumerable module's each_slice.",
		"cli.md": "# Command line\n\nThe export command writes the marks of every student. " +
			"Its options are --sort, which orders the students by grade, and --module, which chooses the output format. " +
			"The option no-verify skips the checks.",
	}
	tt, s := corpusTenant(t, "identifiers", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
		ids      int
	}{
		{"Which columns does the pg_stat_io view have?", []string{"pg_stat_io"}, 1},
		{"What does pg_statio_user_tables count?", nil, 0},
		{"Where is pg_hba.conf and what does a record name?", nil, 0},
		{"How do I use importlib.import_module?", nil, 0},
		{"Does PG_STATIO_USER_TABLES count buffer hits?", nil, 0},
		{"How do I tune MongoDB and the frobnix_lever setting?", []string{"MongoDB", "frobnix_lever"}, 1},
		// A long option is an identifier too, the documents listing it
		// with or without its dashes.
		{"What does the --cloud-sync option of the export command do?", []string{"cloud-sync"}, 1},
		{"What does the --sort option of the export command do?", nil, 0},
		{"What does --no-verify do for the export command?", nil, 0},
		// A member written with its qualifier (Ruby's Class#method, the
		// "::" of C++ and Rust) is a code name, looked up alone; a
		// link's fragment is not one.
		{"How do I replace a range of bytes in a string with String#bytesplice?", []string{"bytesplice"}, 1},
		{"What does String#squeeze remove?", nil, 0},
		{"Does Enumerable::each_slice return a substring by bytes?", nil, 0},
		{"Does the String::frobsplit method return a substring?", []string{"frobsplit"}, 1},
		{"Is https://example.com/string#frobsplit the page on squeeze?", nil, 0},
		// A name of six or more capitals is written as code writes a
		// variable; a shorter one may be an acronym, a name, and in a
		// question typed in capitals every word is.
		{"How do I sort the students with the GRADESORT variable of the export command?", []string{"GRADESORT"}, 1},
		{"Does the export command write AOF files?", []string{"AOF"}, 0},
		{"Does the export command write files over HTTPS?", []string{"HTTPS"}, 0},
		{"DOES THE EXPORT COMMAND SORT THE STUDENTS WITH GRADESORT?", []string{"GRADESORT"}, 0},
		{"The user-guide#faq section says little: what does the --sort option do?", nil, 0},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
		if resp.Signals.MissingIdentifiers != tc.ids {
			t.Errorf("%q: %d missing identifiers, want %d", tc.question, resp.Signals.MissingIdentifiers, tc.ids)
		}
	}
}

// TestMissingReleaseIsRefused: a question about a release the documents
// never mention is about something they do not cover, however well its
// other words match; the confidence is capped below the default threshold
// and the reason names the release (every word of the question is in the
// documents, the number too). A release they mention is answered as
// before, and the model's signals do not count release names.
func TestMissingReleaseIsRefused(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"news.md": "# Release notes\n\nFrobnicator 2.4 adds parallel frobnication of widgets and a new widget cache. " +
			"Frobnicator 2.4 also removes the legacy widget format 3.0, which adds nothing to the widget cache.",
		"guide.md": "# Widgets\n\nA widget is frobnicated by the Frobnicator daemon. The widget cache keeps recently frobnicated widgets.",
	}
	tt, s := corpusTenant(t, "releases", "english", docs)
	ctx := context.Background()
	refuseBelow := 0.33
	for _, tc := range []struct {
		question string
		missing  []string
		refused  bool
	}{
		{"What does Frobnicator 3.0 add for the widget cache?", []string{"Frobnicator 3.0"}, true},
		{"What does Frobnicator 2.4 add for the widget cache?", nil, false},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
		if resp.Signals.MissingNames != 0 || resp.Signals.MissingIdentifiers != 0 {
			t.Errorf("%q: signals count a release: %+v", tc.question, resp.Signals)
		}
		if refused := resp.Confidence < refuseBelow; refused != tc.refused {
			t.Errorf("%q: confidence %.3f (reason %q), want refused %v", tc.question, resp.Confidence, resp.ConfidenceReason, tc.refused)
		}
		if tc.refused && resp.ConfidenceReason != "no document mentions “Frobnicator 3.0”" {
			t.Errorf("%q: reason %q", tc.question, resp.ConfidenceReason)
		}
	}
}

// TestStrayFamilyMemberIsRefused: documents that write members of a family
// of identifiers (pg_stat_activity, pg_stat_bgwriter; max_replication_slots)
// and never the one a question names (pg_stat_io, sync_replication_slots)
// do not cover it, however well the question's other words match: the
// confidence is capped and the reason names it. An identifier of no
// family the documents write (the asker's own order_total_amount column),
// one sharing a single part with theirs (last_login beside last_value), and
// a family whose only member is in a document the reader cannot see are left
// to the model.
func TestStrayFamilyMemberIsRefused(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"stats.md": "# Statistics views\n\nThe pg_stat_activity view shows one row per server process with its current query. " +
			"The pg_stat_bgwriter view shows statistics about the background writer process. Every statistics view shows " +
			"counters since the last reset; the last_value column of a sequence is unrelated.",
		"replication.md": "# Replication slots\n\nThe max_replication_slots setting limits how many replication slots a server " +
			"keeps for standby servers. A slot keeps WAL until its standby has received it.",
		"vault.md": "# Vault key\n\nThe vault renews its vault key every month, and how often it renews the key can be changed. " +
			"A renewed vault key replaces the old key.",
		"orders.md": "# Orders\n\nAn order table keeps one row per order, with the amount and a timestamp column. " +
			"Index the column a query filters on.",
	}
	tt, s := corpusTenant(t, "strays", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		capped   bool
	}{
		{"Which statistics does the pg_stat_io view show per server process?", true},
		{"How many replication slots does sync_replication_slots keep for standby servers?", true},
		{"What does the pg_stat_activity view show per server process?", false},
		{"How do I index the order_total_amount column of my order table?", false},
		{"How do I index the last_login timestamp column of my order table?", false},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if capped := resp.Confidence <= 0.1; capped != tc.capped {
			t.Errorf("%q: confidence %.3f (%q, missing %q), want capped %v", tc.question, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms, tc.capped)
		}
		if tc.capped && !strings.HasPrefix(resp.ConfidenceReason, "no document mentions “") {
			t.Errorf("%q: reason %q", tc.question, resp.ConfidenceReason)
		}
	}
	p, err := ingest.New(testdb.App(t), testEmbedder(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	all := store.WithVisibility(ctx, store.AllDocuments())
	if _, err := p.Upsert(all, tt, ingest.Document{SourceURI: "ops.md", ContentType: "text/markdown", Access: []string{"group:ops"}, SetAccess: true,
		Content: []byte("# Vault\n\nThe vault_key_rotation setting rotates the vault key; vault_key_expiry sets how long a key lives.")}); err != nil {
		t.Fatal(err)
	}
	const q = "How often does vault_key_renewal renew the vault key?"
	for _, v := range []struct {
		who    string
		ctx    context.Context
		capped bool
	}{
		{"every document", all, true},
		{"a reader outside group:ops", store.WithVisibility(ctx, store.AsPrincipals([]string{"user:u"})), false},
	} {
		resp, err := s.Search(v.ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if capped := resp.Signals.Capped && slices.Contains(resp.MissingTerms, "vault_key_renewal"); capped != v.capped {
			t.Errorf("%s: confidence %.3f (%q, missing %q), want capped %v", v.who, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms, v.capped)
		}
	}
}

// TestHostNamesAreTheAskers: a mail domain or host name in a question
// (user@mylaptop.localdomain, mail.example.com) is the asker's own, not a
// name the documents should mention: it is not reported missing. A dotted
// name of another shape is probed as before.
func TestHostNamesAreTheAskers(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hosts", "english", map[string]string{
		"rewrite.md": "# Address rewriting\n\nThe generic table rewrites the sender address of mail that goes out to the Internet. " +
			"List each local address and the address to use instead.",
	})
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
	}{
		{"My laptop sends mail as user@mylaptop.localdomain. How do I rewrite that sender address for mail to the Internet?", nil},
		{"How do I rewrite the sender address mail.example.com uses for mail to the Internet?", nil},
		{"How do I rewrite the sender address with frobnix.widget for mail to the Internet?", []string{"frobnix.widget"}},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q (confidence %.3f, %q)", tc.question, resp.MissingTerms, tc.missing, resp.Confidence, resp.ConfidenceReason)
		}
	}
}

// TestWordOnlyHiddenChunksHaveIsAbsent (h-break13): a word that only
// documents the caller cannot read contain is absent to the caller in the
// confidence's evidence too, not only in the reason and missing_terms: one
// hidden chunk holding a guessed word raised a restricted reader's
// confidence from a refusal (0.21) to an answer (0.33) while
// missing_terms still named the word.
func TestWordOnlyHiddenChunksHaveIsAbsent(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"tables.md": "# Creating tables\n\nCREATE TABLE defines a new table with its columns and their types. " +
			"A salary column of type numeric keeps exact amounts.",
		"vacuum.md": "# Vacuum\n\nVACUUM reclaims storage occupied by dead rows of a table.",
	}
	tt, s := corpusTenant(t, "hidden-absent", "english", docs)
	ctx := context.Background()
	reader := store.WithVisibility(ctx, store.AsPrincipals([]string{"user:eve"}))
	const q = "How do I create a table for Zorblax salaries?"
	before, err := s.Search(reader, tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if before.Signals.AbsentShare <= 0 {
		t.Fatalf("absent share %.3f with no document mentioning Zorblax; want > 0", before.Signals.AbsentShare)
	}
	p, err := ingest.New(testdb.App(t), testEmbedder(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	all := store.WithVisibility(ctx, store.AllDocuments())
	if _, err := p.Upsert(all, tt, ingest.Document{SourceURI: "hr/zorblax.md", ContentType: "text/markdown", Access: []string{"group:hr"}, SetAccess: true,
		Content: []byte("# Zorblax\n\nZorblax salaries are reviewed every spring.")}); err != nil {
		t.Fatal(err)
	}
	after, err := s.Search(reader, tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(after.MissingTerms, "Zorblax") {
		t.Errorf("missing terms %q; want Zorblax, which eve can read in no document", after.MissingTerms)
	}
	if d := after.Signals.AbsentShare - before.Signals.AbsentShare; d < -0.05 || d > 0.05 {
		t.Errorf("absent share %.3f → %.3f when a document eve cannot read mentions Zorblax; want it unchanged (±0.05)",
			before.Signals.AbsentShare, after.Signals.AbsentShare)
	}
	if d := after.Confidence - before.Confidence; d > 0.05 {
		t.Errorf("confidence %.3f → %.3f when a document eve cannot read mentions Zorblax", before.Confidence, after.Confidence)
	}
	// Whoever can read it sees the word present.
	owner, err := s.Search(all, tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(owner.MissingTerms, "Zorblax") || owner.Signals.AbsentShare >= before.Signals.AbsentShare {
		t.Errorf("a caller reading every document: missing %q, absent share %.3f (eve's %.3f)", owner.MissingTerms, owner.Signals.AbsentShare, before.Signals.AbsentShare)
	}
}

// TestLowerCaseAndStandardReleases: a release typed in lower case
// ("frobtool 7") is missing when the documents write the name before a
// dotted release and write the number neither with the name nor as a
// version of their own; the documents' own release, numbered without the
// name ("Changed in version v4.0.0"), is not. A document of a series
// named in capitals ("PEP 735") is missing though a change log writes
// "#735"; one the documents write ("PEP 660") is not. The asker's own
// identifier (my_package.__version__) is no missing term.
func TestLowerCaseAndStandardReleases(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"history.md": "# History\n\n## v4.0.0\n\nEditable installs follow PEP 660 now. Issue #735: widgets are frobnicated twice.\n\n" +
			"## v3.2.1\n\nThe frobtool 3.2.1 release supports Python 3.8 and reads the version attribute of a package.",
		"guide.md": "# Configuration\n\nChanged in version v4.0.0: the version of a package is read from its version attribute " +
			"with the attr directive in the configuration file. Editable installs use the widget cache.\n\n" +
			"Changed in version 5.1: editable installs skip the widget cache.",
		"objects.md": "# Object files\n\n```\n# foo.lo - an object file\n# Generated by ltmain.sh (GNU gizmotool) 2.4.7\n```\n\n" +
			"The gizmotool program writes an object file for each source file.",
		"changes.md": "# Changelog\n\n## 6.2.1 (2024-05-01)\n\n- Editable installs skip the widget cache.\n\n" +
			"## [6.2.0] - 2024-03-01\n\n- Widgets are frobnicated twice.\n",
		"meta.md": "# Package metadata\n\nName: frobtool\nVersion: 8.1.2\nSummary: frobnicates widgets.\n",
		"license.md": "# License\n\nThis manual may be relicensed under the Creative Commons Attribution-Share Alike 3.0 license " +
			"before August 1, 2009, provided the manual is eligible for relicensing.",
	}
	tt, s := corpusTenant(t, "lowerreleases", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
		capped   bool
	}{
		{"what does frobtool 7 change for editable installs?", []string{"frobtool 7"}, true},
		{"what does frobtool 4 change for editable installs?", nil, false},
		// A number the documents write bare counts as their own
		// release only after a word naming a version: the licence's
		// "Share Alike 3.0" is no release of frobtool's.
		{"what does frobtool 3.0 change for editable installs?", []string{"frobtool 3.0"}, true},
		{"what does frobtool 5.1 change for editable installs?", nil, false},
		// A change log numbers its releases in its headings, a
		// package's metadata after "Version:".
		{"what does frobtool 6.2.1 change for editable installs?", nil, false},
		{"what does frobtool 6.2.0 change for editable installs?", nil, false},
		{"what does frobtool 8.1.2 change for editable installs?", nil, false},
		// A GNU program prints its release after its name in
		// parentheses: the name is one with releases.
		{"what does gizmotool 3.0 change for object files?", []string{"gizmotool 3.0"}, true},
		{"what does gizmotool 2.4.7 change for object files?", nil, false},
		{"How do editable installs follow PEP 735 in frobtool?", []string{"PEP 735"}, true},
		{"How do editable installs follow PEP 660 in frobtool?", nil, false},
		{"How do I read the version attribute my_package.__version__ in the configuration file?", nil, false},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
		if resp.Signals.Capped != tc.capped {
			t.Errorf("%q: capped %v (confidence %.3f, reason %q), want %v", tc.question, resp.Signals.Capped, resp.Confidence, resp.ConfidenceReason, tc.capped)
		}
	}
}

// TestWordsAfterAScriptTagAreIndexed: PostgreSQL's parser drops every word
// after a script or style tag up to its closing tag; prose about HTML
// writes such tags, and its words after them are found by the keyword leg
// all the same (analyze.SkippedText), not reported missing.
func TestWordsAfterAScriptTagAreIndexed(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"soup.md": "# Strings\n\nThe parser treats strings found in a <script> tag as Javascript: the Script class holds them, " +
			"and the Stylesheet class holds the rules of a <style> tag, as NavigableString subclasses.",
		"other.md": "# Trees\n\nA tree is navigated by its tags and their children.",
	}
	tt, s := corpusTenant(t, "scripttag", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "Which class holds the Stylesheet rules and Javascript?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MissingTerms) != 0 || len(resp.Results) == 0 || resp.Results[0].KeywordRank == nil || !strings.Contains(resp.Results[0].SourceURI, "soup") {
		t.Errorf("missing %q, results %d; want the soup page first by the keyword leg, nothing missing (reason %q)", resp.MissingTerms, len(resp.Results), resp.ConfidenceReason)
	}
}
