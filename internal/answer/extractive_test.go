package answer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func docsSources() []Source {
	return []Source{
		{ChunkID: "a", SourceURI: "docs/install.md", Title: "Install", Content: `# Install

ragd ships as a single static binary. Download it from the releases page and put it on your PATH.

` + "```sh\n$ ragd serve --port 9090 --listen 0.0.0.0\n```" + `

The server reads its configuration from environment variables.`},
		{ChunkID: "b", SourceURI: "docs/config.md", Title: "Configuration", Content: `Every setting has a default. The HTTP server listens on port 8080 by default; set RAGD_PORT to change it.
Secrets such as the database password can be read from files, e.g. RAGD_DATABASE_URL_FILE.`},
		{ChunkID: "c", SourceURI: "docs/tenancy.md", Title: "Tenancy", Content: `Tenants are isolated by row-level security policies in PostgreSQL. Each request runs in a transaction that sets app.tenant_id first.
Tenants never share a connection state, and the policies are checked on every query.`},
	}
}

func TestExtractivePicksTheAnsweringSentence(t *testing.T) {
	t.Parallel()
	r := Extractive("Which port does the server listen on by default?", docsSources(), 1)
	// The given second source, numbered 1: the one the answer quotes.
	want := "The HTTP server listens on port 8080 by default; set RAGD_PORT to change it [1]."
	if r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
	if r.Mode != ModeExtractive || r.Refused || r.Degraded {
		t.Errorf("flags = %+v", r)
	}
	if !slices.Equal(r.Order, []int{1, 0, 2}) {
		t.Errorf("Order = %v, want [1 0 2]", r.Order)
	}
	if len(r.Citations) != 1 || r.Citations[0].N != 1 || r.Citations[0].ChunkID != "b" || r.Citations[0].Title != "Configuration" {
		t.Errorf("Citations = %+v", r.Citations)
	}
	if clean, cited, invalid := Verify(r.Answer, reorder(docsSources(), r.Order)); clean != r.Answer || !slices.Equal(cited, []int{1}) || len(invalid) != 0 {
		t.Errorf("extractive answer does not verify: %q %v %v", clean, cited, invalid)
	}
}

// "tenants" is in many sentences, "row-level security" in one: the rarer
// words must decide.
func TestExtractiveWeighsRareWords(t *testing.T) {
	t.Parallel()
	r := Extractive("How are tenants isolated with row level security?", docsSources(), 1)
	if !strings.HasPrefix(r.Answer, "Tenants are isolated by row-level security policies in PostgreSQL [1].") || len(r.Order) == 0 || r.Order[0] != 2 {
		t.Errorf("Answer = %q (order %v), want the given third source's sentence as [1]", r.Answer, r.Order)
	}
}

// backupDump is the start of the manual's "SQL Dump" page as package extract
// renders it: the heading, prose, and a one-line shell command as code.
const backupDump = `26.1. SQL Dump

The idea behind this dump method is to generate a file with SQL commands that, when fed back to the server, will recreate the database in the same state as it was at the time of the dump. PostgreSQL provides the utility program pg_dump for this purpose. The basic usage of this command is:

pg_dump dbname > dumpfile

As you see, pg_dump writes its result to the standard output. We will see below how this can be useful.`

func TestExtractiveQuotesOnePassageWithItsSubjectAndCode(t *testing.T) {
	t.Parallel()
	src := []Source{
		{Title: "26.1. SQL Dump", HeadingPath: "26.1. SQL Dump", Content: backupDump},
		{Title: "Other", Content: "Copy the file to a single directory. The whole cluster has one data directory."},
	}
	r := Extractive("How do I dump a database to a file?", src, 3)
	want := "The idea behind this dump method is to generate a file with SQL commands that, when fed back to the server, " +
		"will recreate the database in the same state as it was at the time of the dump [1]. " +
		"PostgreSQL provides the utility program pg_dump for this purpose [1]. The basic usage of this command is [1]:\n\n" +
		"```\npg_dump dbname > dumpfile\n```"
	if r.Answer != want {
		t.Errorf("Answer =\n%s\nwant\n%s", r.Answer, want)
	}
	if len(r.Citations) != 1 || r.Citations[0].N != 1 {
		t.Errorf("Citations = %+v, want source 1 only", r.Citations)
	}
	if clean, cited, invalid := Verify(r.Answer, src); clean != r.Answer || !slices.Equal(cited, []int{1}) || len(invalid) != 0 {
		t.Errorf("answer does not verify: %q %v %v", clean, cited, invalid)
	}
}

// faqChunk is a small FAQ page as package extract stores it (Markdown or
// HTML alike): the page is one chunk, its question headings plain lines.
const faqChunk = `Billing FAQ

When am I charged?

You are charged on the first day of each billing month, in advance.

Which payment methods do you accept?

We accept Visa, Mastercard and SEPA direct debit. PayPal is not supported.

How do I get a refund?

Write to billing within 14 days of a charge and we refund it in full.

Refunds and credits

Credits expire after twelve months.`

// TestExtractiveAnswersUnderTheQuestionHeading: an FAQ's question heading is
// never quoted as the answer (it holds every word of the question); its
// words count for the section under it, and the passage does not run into
// the next question's section. A one-word caption ("Note") inside a section
// does not end it.
func TestExtractiveAnswersUnderTheQuestionHeading(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "Billing FAQ", HeadingPath: "Billing FAQ", Content: faqChunk}}
	for _, tc := range []struct{ question, want string }{
		{"When am I charged?", "You are charged on the first day of each billing month, in advance [1]."},
		{"How do I get a refund?", "Write to billing within 14 days of a charge and we refund it in full [1]."},
		{"Which payment methods do you accept?", "We accept Visa, Mastercard and SEPA direct debit [1]. PayPal is not supported [1]."},
		{"When do credits expire?", "Credits expire after twelve months [1]."},
	} {
		if r := Extractive(tc.question, src, 3); r.Answer != tc.want {
			t.Errorf("%s\nAnswer = %q\nwant     %q", tc.question, r.Answer, tc.want)
		}
	}
	note := []Source{{Content: "Loading data\n\nUse COPY to load rows from a file into a table.\n\nNote\n\nCSV files are loaded with the CSV option of COPY."}}
	r := Extractive("How do I load CSV files into a table?", note, 3)
	if want := "Use COPY to load rows from a file into a table [1]. CSV files are loaded with the CSV option of COPY [1]."; r.Answer != want {
		t.Errorf("across a Note caption: Answer = %q, want %q", r.Answer, want)
	}
}

// TestExtractiveNeighbourSectionIsNotTheSource: a source widened to its
// neighbour chunks holds the next section too; the source's heading path
// ("Invoking parsetool") describes its own section, not the neighbour's, so
// a passage of the neighbour's section ("Invoking codetool") gets no credit
// for the heading's words. (Before, the libtasn1 demo question about
// asn1Parser was answered from the asn1Coding section, whose usage block
// holds the same option.)
func TestExtractiveNeighbourSectionIsNotTheSource(t *testing.T) {
	t.Parallel()
	content := "3 Tools\n\n3.1 Invoking parsetool\n\n" +
		"parsetool reads a definitions file and writes an array.\n\n" +
		"3.2 Invoking codetool\n\n" +
		"codetool writes a binary encoding; use its check option to validate the syntax of definitions files.\n\n" +
		"Use the check option of either tool to validate syntax only."
	src := []Source{{Title: "manual.pdf", HeadingPath: "manual.pdf > 3 Tools > 3.1 Invoking parsetool", Content: content}}
	r := Extractive("How do I check the syntax of a definitions file with parsetool?", src, 1)
	if want := "parsetool reads a definitions file and writes an array [1]."; r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
}

// TestCaptionAboveCodeStartsASection: a listing's title extracted on the
// line above its code starts a section, as a caption of its own does: it is
// not quoted as the code's first line, and the passage of the section before
// does not run into the next section's code.
func TestCaptionAboveCodeStartsASection(t *testing.T) {
	t.Parallel()
	content := "Park the work on a side branch\n$ vcs branch side\n$ vcs rewind --discard 2\n\n" +
		"Move the last two changes to a side branch and keep editing there.\n\n" +
		"Drop changes for good\n$ vcs rewind --discard 2\n\n" +
		"The last two changes are gone; never do this to shared history."
	us := parseUnits(content, "")
	var code []string
	for _, u := range us {
		if u.kind == unitCode {
			code = append(code, u.text)
		}
	}
	if want := []string{"$ vcs branch side\n$ vcs rewind --discard 2", "$ vcs rewind --discard 2"}; !slices.Equal(code, want) {
		t.Fatalf("code units %q, want %q (the captions are not code)", code, want)
	}
	if us[len(us)-1].section != 2 || us[0].section != 1 {
		t.Fatalf("sections %d … %d, want each caption to start one", us[0].section, us[len(us)-1].section)
	}
	r := Extractive("How do I keep editing on a side branch?", []Source{{Content: content}}, 3)
	if strings.Contains(r.Answer, "Drop changes") || strings.Contains(r.Answer, "gone") {
		t.Errorf("the answer runs into the next section: %q", r.Answer)
	}
}

func TestIsQuestionLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"Can I change my username?", true},
		{"パスワードを変更できますか？", true},
		{"“Why is my query slow?”", true},
		{"Is it free? Yes, it is.", false},
		{"Why? Because it is.", false},
		{"The server restarts. Why?", false},
		{"What happens next", false},
		{"?", false},
		{strings.Repeat("word ", 30) + "?", false},
	} {
		if got := isQuestionLine(tc.line); got != tc.want {
			t.Errorf("isQuestionLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestExtractiveBacksUpToTheSentenceAReferenceNeeds(t *testing.T) {
	t.Parallel()
	src := []Source{{Content: "Checksums are computed when pages are written. This protects against silent corruption of data pages by the storage."}}
	r := Extractive("What protects against silent corruption?", src, 1)
	want := "Checksums are computed when pages are written [1]. This protects against silent corruption of data pages by the storage [1]."
	if r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
}

func TestExtractiveQuotesATableRowWithItsHeader(t *testing.T) {
	t.Parallel()
	src := []Source{
		{Content: "SQLSTATE vs. SQLCODE\n\nSQLSTATE is a five-character array. The codes are listed in the appendix."},
		{HeadingPath: "Appendix A. PostgreSQL Error Codes", Content: "Appendix A. PostgreSQL Error Codes\n\n" +
			"Table A.1. PostgreSQL Error Codes\n\nError Code | Condition Name\nClass 42 — Syntax Error or Access Rule Violation\n" +
			"42P01 | undefined_table\n42P02 | undefined_parameter"},
	}
	r := Extractive("What does SQLSTATE 42P01 mean?", src, 3)
	if want := "Error Code: 42P01; Condition Name: undefined_table [1]"; r.Answer != want || !slices.Equal(r.Order, []int{1, 0}) {
		t.Errorf("Answer = %q (order %v), want %q from the given second source", r.Answer, r.Order, want)
	}
}

func TestExtractivePrefersTheBetterSourceUnlessAnotherCoversMore(t *testing.T) {
	t.Parallel()
	src := []Source{
		{Content: "Autovacuum runs VACUUM in the background. It also runs ANALYZE."},
		{Content: "VACUUM reclaims storage occupied by dead tuples."},
	}
	// Both sources hold "vacuum"; only the second also holds the rarer words.
	r := Extractive("How does VACUUM reclaim the storage of dead tuples?", src, 3)
	if r.Answer != "VACUUM reclaims storage occupied by dead tuples [1]." || !slices.Equal(r.Order, []int{1, 0}) {
		t.Errorf("Answer = %q (order %v), want the given second source's sentence", r.Answer, r.Order)
	}
	// On equal evidence, the better-ranked source wins.
	r = Extractive("What does VACUUM do?", src, 3)
	if !strings.HasPrefix(r.Answer, "Autovacuum runs VACUUM in the background [1].") {
		t.Errorf("Answer = %q", r.Answer)
	}
}

func TestExtractiveCutsLongCodeAfterWholeLines(t *testing.T) {
	t.Parallel()
	var code []string
	for i := range 30 {
		code = append(code, fmt.Sprintf("    column_%d integer,", i))
	}
	src := []Source{{Content: "Create the wide table like this:\n\nCREATE TABLE wide (\n" + strings.Join(code, "\n") + "\n);"}}
	r := Extractive("How do I create the wide table?", src, 3)
	lines := strings.Split(r.Answer, "\n")
	if !strings.HasPrefix(r.Answer, "Create the wide table like this [1]:\n\n```\nCREATE TABLE wide (\n") ||
		!strings.HasSuffix(r.Answer, "\n…\n```") || len(lines) != maxCodeLines+5 {
		t.Errorf("Answer =\n%s", r.Answer)
	}
	for _, l := range lines[4 : 3+maxCodeLines] {
		if !strings.HasPrefix(l, "    column_") || !strings.HasSuffix(l, ",") {
			t.Errorf("code line cut: %q", l)
		}
	}
}

// TestExtractiveBringsLongAnnouncedCode: a passage of several sentences
// ending with one that announces a long block of examples brings the block
// (cut after whole lines): its length is what the answer quotes, not the
// whole block, which never fitted, so the answer ended on the colon.
func TestExtractiveBringsLongAnnouncedCode(t *testing.T) {
	t.Parallel()
	var code []string
	for i := range 40 {
		code = append(code, fmt.Sprintf("-- example %d: a containment test that returns true for these two documents", i),
			fmt.Sprintf("SELECT '{\"a\": %d}'::jsonb @> '{\"a\": %d}'::jsonb;", i, i), "")
	}
	src := []Source{{Content: "Containment is an important capability of jsonb documents. There is no parallel facility for json. " +
		"Containment tests whether one jsonb document contains another. These examples of containment return true:\n\n" + strings.Join(code, "\n")}}
	r := Extractive("Which operator tests whether one jsonb document contains another?", src, 4)
	if !strings.Contains(r.Answer, "return true [1]:\n\n```\n-- example 0:") || !strings.HasSuffix(r.Answer, "\n…\n```") {
		t.Errorf("Answer =\n%s", r.Answer)
	}
}

// TestExtractiveSaidBeatsHeadingOnATie: two example lead-ins alike but for
// the word the question asks about, which the heading says too: the one
// that says it is quoted, with its code.
func TestExtractiveSaidBeatsHeadingOnATie(t *testing.T) {
	t.Parallel()
	src := []Source{{HeadingPath: "ALTER TABLE > Examples", Content: "To add a column of type varchar:\n\n    ALTER TABLE distributors ADD COLUMN address varchar(30);\n\n" +
		"To rename an existing column:\n\n" +
		"    ALTER TABLE distributors RENAME COLUMN address TO city;\n\nTo rename an existing table:\n\n" +
		"    ALTER TABLE distributors RENAME TO suppliers;\n\nTo add a constraint:\n\n    ALTER TABLE distributors ADD CONSTRAINT zipchk CHECK (char_length(zipcode) = 5);"}}
	r := Extractive("How do I rename a table?", src, 3)
	if !strings.HasPrefix(r.Answer, "To rename an existing table [1]:") || !strings.Contains(r.Answer, "RENAME TO suppliers;") {
		t.Errorf("Answer =\n%s", r.Answer)
	}
}

// TestExtractiveJoinsSplitCompounds: a question writing a compound apart
// ("log in") is matched where the documents write it whole (LOGIN), and
// two stop words are not joined ("do I").
func TestExtractiveJoinsSplitCompounds(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range joinedPairs("How do I log in, or set up the data base?") {
		got = append(got, c.joined)
	}
	for _, w := range []string{"login", "setup", "databas"} {
		if !slices.Contains(got, w) {
			t.Errorf("joinedPairs = %q, want %q among them", got, w)
		}
	}
	if slices.Contains(got, "doi") || slices.Contains(got, "howdo") {
		t.Errorf("joinedPairs = %q joins two stop words", got)
	}
	src := []Source{{HeadingPath: "CREATE ROLE > Parameters", Content: "Note that roles are defined at the cluster level.\n" +
		"REPLICATION NOREPLICATION\nThese clauses determine whether a role is able to stream changes.\n\n" +
		"LOGIN NOLOGIN\nThese clauses determine whether a role is allowed to log in; that is, whether the role can be given as the initial session authorization name.\n\n" +
		"BYPASSRLS NOBYPASSRLS\nThese clauses determine whether a role bypasses every row-level security policy."}}
	r := Extractive("How do I stop a role from being able to log in?", src, 1)
	if !strings.HasPrefix(r.Answer, "LOGIN NOLOGIN: These clauses determine whether a role is allowed to log in") {
		t.Errorf("Answer =\n%s", r.Answer)
	}
}

// TestExtractiveVersionNoteKeepsTheTerm: an option whose definition opens
// with a version note (Sphinx's "New in version 3.24." between the option
// and its description) is quoted with its description and its name.
func TestExtractiveVersionNoteKeepsTheTerm(t *testing.T) {
	t.Parallel()
	src := []Source{{HeadingPath: "cmake(1) > Options", Content: "--fresh\nNew in version 3.24.\n\n" +
		"Perform a fresh configuration of the build tree. This removes any existing cache file and recreates it from scratch.\n\n" +
		"-L[A][H]\nList non-advanced cached variables."}}
	r := Extractive("Is there an option to configure again from scratch, throwing the cache away?", src, 2)
	if !strings.HasPrefix(r.Answer, "--fresh: Perform a fresh configuration of the build tree [1].") {
		t.Errorf("Answer =\n%s", r.Answer)
	}
}

// TestExtractiveLaterParagraphOfADefinitionNamesIt: a passage in a later
// paragraph of a definition (an option list's entry of several paragraphs)
// opens with the entry's first sentence, which names the option; a
// paragraph after the list's last entry is not taken for part of it.
func TestExtractiveLaterParagraphOfADefinitionNamesIt(t *testing.T) {
	t.Parallel()
	src := []Source{{HeadingPath: "cmake(1) > Options", Content: "--debug-output\nPut cmake in a debug mode.\n\n" +
		"--trace\nPut cmake in trace mode.\n\nPrint a trace of all calls made and from where.\n\n" +
		"--trace-expand\nPut cmake in trace mode.\n\nLike the plain option, but with variables expanded.\n\n" +
		"The trace output can be long, so it is best redirected to a file."}}
	r := Extractive("How do I print a trace of all calls made?", src, 1)
	if !strings.HasPrefix(r.Answer, "--trace: Put cmake in trace mode [1]. Print a trace of all calls made and from where [1].") {
		t.Errorf("Answer =\n%s", r.Answer)
	}
	r = Extractive("Is the trace output long enough to redirect to a file?", src, 1)
	if !strings.HasPrefix(r.Answer, "The trace output can be long") {
		t.Errorf("Answer after the list =\n%s", r.Answer)
	}
}

func TestExtractiveFallsBackToFirstSource(t *testing.T) {
	t.Parallel()
	r := Extractive("Quelle est la météo à Lyon ?", docsSources(), 2)
	want := "ragd ships as a single static binary [1]. Download it from the releases page and put it on your PATH [1].\n\n" +
		"```\n$ ragd serve --port 9090 --listen 0.0.0.0\n```"
	if r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
	if r.Refused || len(r.Citations) != 1 || r.Citations[0].N != 1 {
		t.Errorf("result = %+v", r)
	}
}

func TestExtractiveSkipsCodeAndFragments(t *testing.T) {
	t.Parallel()
	src := []Source{{Content: "Port:\n\n```go\nlisten(port) // the port the server listens on by default\n```\n" +
		"    srv.Listen(cfg.Port); if err != nil { return err }\n" +
		"- port\n\n" +
		"The listener binds the port given in the config file (e.g. 8080), see os.Getenv for details."}}
	r := Extractive("Which port does the server listen on?", src, 3)
	want := "The listener binds the port given in the config file (e.g. 8080), see os.Getenv for details [1]."
	if r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
}

func TestExtractiveStripsSourceMarkers(t *testing.T) {
	t.Parallel()
	src := []Source{
		{Content: "Paris is the capital of France [12]. It is large."},
		{Content: "Paris is the capital of France [12]. Lyon is not."}, // overlapping chunk
	}
	// A question asking what something is goes on to the sentence that
	// refers back ("It is large.").
	r := Extractive("What is the capital of France?", src, 3)
	if r.Answer != "Paris is the capital of France [1]. It is large [1]." {
		t.Errorf("Answer = %q", r.Answer)
	}
}

func TestExtractiveEdgeCases(t *testing.T) {
	t.Parallel()
	r := Extractive("anything", []Source{{Content: "  \n "}, {Content: ""}}, 3)
	if !r.Refused || r.Answer != RefusalPhrase || r.Mode != ModeExtractive {
		t.Errorf("all-empty sources = %+v, want a refusal", r)
	}
	r = Extractive("anything", []Source{{Content: " \n"}, {Content: "Port: 8080 [4]\n\n```\nrun();\n```"}}, 3)
	if r.Answer != "```\nrun();\n```\n\n[1]" || r.Citations[0].N != 1 || !slices.Equal(r.Order, []int{1, 0}) {
		t.Errorf("only code: %q %+v (order %v), want the given source 2's code, cited after it", r.Answer, r.Citations, r.Order)
	}
	r = Extractive("anything", []Source{{Content: "Note"}}, 3)
	if r.Answer != "Note [1]" {
		t.Errorf("only a caption: %q, want its text", r.Answer)
	}
	// Two hundred words without a final mark at the content's end are a
	// line the chunker cut (cutShort): the quote says it goes on.
	r = Extractive("tok", []Source{{Content: strings.Repeat("tok ", 200)}}, 3)
	if !strings.Contains(r.Answer, " … ") || !strings.HasSuffix(r.Answer, "tok … [1]") || len(r.Answer) > maxQuoteChars+10 {
		t.Errorf("long sentence not shortened to its start and end: %q", r.Answer)
	}
	// The end of a long sentence is quoted: it holds what the sentence
	// concludes.
	long := "Since in most cases “validating” an email address is an attempt instead to confirm that mail sent to it will deliver to a recipient, " +
		"and that that recipient is the correct one the email is intended for, and since many valid email addresses are in many places incorrectly rejected, " +
		"and many invalid email addresses are in many places incorrectly accepted, and many addresses that look right are typed with a letter missing or a dot too many, " +
		"the email format keyword only provides a sanity check, not full rfc5322 validation."
	r = Extractive("Is email format validation a full check?", []Source{{Content: long}}, 3)
	if !strings.Contains(r.Answer, "not full rfc5322 validation") || !strings.HasPrefix(r.Answer, "Since in most cases") || len(r.Answer) > maxQuoteChars+10 {
		t.Errorf("long sentence: %q; want its start and its end", r.Answer)
	}
	// A sentence a little over the bound is quoted whole: a cut would save
	// a few words, and they were the file the reader must edit.
	slightly := "If you think libtool should let some flag through by default, here's how you can test such an inclusion: grab the Libtool development " +
		"tree, edit the ltmain.in file in the libltdl/config subdirectory to pass through the flag (search for 'Flags to be passed through'), " +
		"re-bootstrap and build with the flags in question added to LDFLAGS, CFLAGS, CXXFLAGS, etc. on the configure command line as appropriate."
	if len(slightly) <= maxQuoteChars {
		t.Fatalf("the sentence is %d bytes, not over the bound %d", len(slightly), maxQuoteChars)
	}
	r = Extractive("How do I test letting a flag through libtool?", []Source{{Content: slightly}}, 3)
	if r.Answer != slightly[:len(slightly)-1]+" [1]." {
		t.Errorf("sentence a little over the bound: %q, want it whole", r.Answer)
	}
	if r := Extractive("port", docsSources(), 0); strings.Count(r.Answer, "[") > DefaultMaxSentences+1 {
		t.Errorf("maxSentences 0 should mean the default: %q", r.Answer)
	}
}

func TestParseUnits(t *testing.T) {
	t.Parallel()
	text := `Chapter 19. Server Configuration

19.4.1. Memory

work_mem (integer)
Sets the base maximum amount of memory to be used by a query operation. Note e.g. sorts, i.e. hashes.

Table 19.1. Settings

Name | Default
shared_buffers | 128MB

- A list item without a period
1. Numbered item. Second part

SELECT * FROM t WHERE a > 1;

CREATE TABLE t (
    a int
);

A plain text paragraph keeps
its line breaks, and reads as prose.

` + "```\nignored(); code.\n```"
	var got []string
	for _, u := range parseUnits(text, "Server Configuration > Memory") {
		got = append(got, fmt.Sprintf("%d:%s", u.kind, u.text))
	}
	want := []string{
		"1:work_mem (integer): Sets the base maximum amount of memory to be used by a query operation.",
		"1:Note e.g. sorts, i.e. hashes.",
		"2:Name: shared_buffers; Default: 128MB",
		"1:A list item without a period",
		"1:Numbered item.",
		"1:Second part",
		"3:SELECT * FROM t WHERE a > 1;\n\nCREATE TABLE t (\n    a int\n);",
		"1:A plain text paragraph keeps its line breaks, and reads as prose.",
		"3:ignored(); code.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("parseUnits =\n%q\nwant\n%q", got, want)
	}
}

// A psql meta-command's synopsis holds " | " between alternatives: above a
// prose definition it is the definition's term (quoted by its start), not a
// table header, and the block is neither a table nor code. A real table
// whose rows are interrupted by a one-cell line stays a table.
func TestParseUnitsSynopsisTerm(t *testing.T) {
	t.Parallel()
	text := `\copy { table [ ( column_list ) ] } from { 'filename' | program 'command' | stdin } [ [ with ] ( option [, ...] ) ]
Performs a frontend (client) copy. This is an operation that runs an SQL COPY command.

Error Code | Condition Name
Class 42 — Syntax Error or Access Rule Violation
42P01 | undefined_table`
	var got []string
	for _, u := range parseUnits(text, "") {
		got = append(got, fmt.Sprintf("%d:%s:%v", u.kind, u.text, u.defines))
	}
	want := []string{
		"1:\\copy { table [ ( column_list ) ] } from { 'filename' |…: Performs a frontend (client) copy.:[copy]",
		"1:This is an operation that runs an SQL COPY command.:[]",
		"2:Class 42 — Syntax Error or Access Rule Violation:[class 42 syntax error access rul violat]",
		"2:Error Code: 42P01; Condition Name: undefined_table:[42p01]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("parseUnits =\n%q\nwant\n%q", got, want)
	}
}

func TestSplitUnit(t *testing.T) {
	t.Parallel()
	got := splitUnit(`First sentence has e.g. an abbreviation and pi is 3.14 here. Call os.Exit(1) to quit! Really? Yes: J. Smith wrote main.go. Last line "quoted." Then more.`)
	want := []string{
		"First sentence has e.g. an abbreviation and pi is 3.14 here.",
		"Call os.Exit(1) to quit!",
		"Really?",
		"Yes: J. Smith wrote main.go.",
		`Last line "quoted."`,
		"Then more.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit =\n%q\nwant\n%q", got, want)
	}
	// An ellipsis inside quotes or after a command word stands for part of
	// the command; one that trails off ends the sentence.
	got = splitUnit(`Counters are initialized on "INSERT ... SELECT" statements. Use CASE ... END here. It went on and on... Then it stopped.`)
	want = []string{`Counters are initialized on "INSERT ... SELECT" statements.`, "Use CASE ... END here.", "It went on and on...", "Then it stopped."}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit with ellipses =\n%q\nwant\n%q", got, want)
	}
	// A month's abbreviation before a day is a date; at the end of a
	// sentence before a word it is not.
	got = splitUnit(`On Jul. 1, 2016, a dividend was paid. See vol. 2 and pp. 10-12. It was paid in Jul. Then more.`)
	want = []string{"On Jul. 1, 2016, a dividend was paid.", "See vol. 2 and pp. 10-12.", "It was paid in Jul.", "Then more."}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit with dates =\n%q\nwant\n%q", got, want)
	}
	// Nor inside brackets, and no sentence opens with a closing bracket
	// (a synopsis inside prose; a period inside a parenthesis).
	got = splitUnit(`SELECT DISTINCT ON ( expression [, ...] ) keeps only the first row of each set. It was slow (see Section 5.3.) So it was changed. Lists (a, b, ...) End here.`)
	want = []string{"SELECT DISTINCT ON ( expression [, ...] ) keeps only the first row of each set.", "It was slow (see Section 5.3.)", "So it was changed.", "Lists (a, b, ...) End here."}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit with brackets =\n%q\nwant\n%q", got, want)
	}
}

func TestTermCoverage(t *testing.T) {
	t.Parallel()
	if got := TermCoverage("How do I rebuild indexes?", "REINDEX rebuilds an index."); got != 1 {
		t.Errorf("TermCoverage = %v, want 1 (both content words, stemmed)", got)
	}
	if got := TermCoverage("rebuild corrupted indexes", "an index"); got < 0.33 || got > 0.34 {
		t.Errorf("TermCoverage = %v, want 1/3", got)
	}
	if got := TermCoverage("what is it?", "anything"); got != 0 {
		t.Errorf("TermCoverage of a stop-word question = %v, want 0", got)
	}
}

func TestTermsAndStem(t *testing.T) {
	t.Parallel()
	pairs := [][2]string{
		{"tenants", "tenant"}, {"policies", "policy"}, {"indexing", "index"}, {"indexed", "index"},
		{"stored", "store"}, {"storing", "store"}, {"running", "run"}, {"stopped", "stop"},
		{"rates", "rate"}, {"classes", "class"},
	}
	for _, p := range pairs {
		if stem(p[0]) != stem(p[1]) {
			t.Errorf("stem(%q) = %q but stem(%q) = %q", p[0], stem(p[0]), p[1], stem(p[1]))
		}
	}
	got := terms("What is the default PORT of the server, e.g. 8080?")
	if want := []string{"default", "port", "server", "8080"}; fmt.Sprint(got) != fmt.Sprint(stemAll(want)) {
		t.Errorf("terms = %q, want stems of %q", got, want)
	}
}

func stemAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = stem(w)
	}
	return out
}

func BenchmarkExtractive(b *testing.B) {
	para := "Tenants are isolated by row-level security policies in PostgreSQL. Each request runs in a transaction that sets app.tenant_id first. " +
		"The HTTP server listens on port 8080 by default. Secrets such as the database password can be read from files. "
	var sources []Source
	for i := range 10 {
		sources = append(sources, Source{N: i + 1, Content: fmt.Sprintf("Chunk %d. %s", i, strings.Repeat(para, 4))})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Extractive("Which port does the HTTP server listen on by default?", sources, 3)
	}
}

// FuzzExtractive checks the answer contract on arbitrary sources: no panic,
// a non-empty answer or the refusal, every marker citing a given source, at
// least one citation, and balanced code fences.
func FuzzExtractive(f *testing.F) {
	f.Add("How do I dump a database?", backupDump, "26.1. SQL Dump")
	f.Add("What does 42P01 mean?", "Error Code | Condition Name\n42P01 | undefined_table\n\n  indented code\n\n- item one. Two.", "")
	f.Add("x", "```\nunclosed fence\n\n\n", "a > b")
	f.Add("This?", "This. This. This.\n\nThis refers back: \n\n$ cmd --opt\n", "")
	f.Fuzz(func(t *testing.T, question, content, heading string) {
		if strings.TrimSpace(question) == "" {
			return
		}
		src := []Source{{Content: content, HeadingPath: heading}, {Content: "The second source mentions " + question + "."}}
		r := Extractive(question, src, 3)
		if r.Refused {
			return
		}
		if strings.TrimSpace(r.Answer) == "" || len(r.Citations) == 0 {
			t.Fatalf("empty or uncited answer: %+v", r)
		}
		if _, cited, invalid := Verify(r.Answer, src); len(invalid) != 0 || len(cited) == 0 {
			t.Fatalf("answer %q: cited %v, invalid %v", r.Answer, cited, invalid)
		}
		fences := 0
		for _, l := range strings.Split(r.Answer, "\n") {
			if l == "```" {
				fences++
			}
		}
		if fences%2 != 0 {
			t.Fatalf("unbalanced code fences in %q", r.Answer)
		}
	})
}

func TestLooksLikeCode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line string
		want bool
	}{
		{"pg_dump dbname > dumpfile", true},
		{"ERROR:  could not serialize access due to read/write dependencies among transactions", true},
		{"SELECT * FROM t WHERE a = 1", true},
		{"$ ragd serve", true},
		{"The basic usage of this command is:", false},
		{"Two spaces after a period.  Old typists did this.", false},
		{"PostgreSQL provides the utility program pg_dump for this purpose.", false},
		{"select name from users where age > 30 and city = x", true},
		{"Such cases are not rejected; the ambiguity is resolved by determining which UTC offset to apply. For example, consider", false},
	} {
		if got := looksLikeCode(c.line); got != c.want {
			t.Errorf("looksLikeCode(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// A paragraph that ends without punctuation before an example, with a
// semicolon inside it, is prose: it is quoted as sentences, not fenced.
func TestExtractiveDoesNotFenceProseBeforeAnExample(t *testing.T) {
	t.Parallel()
	src := []Source{{Content: "During a daylight-savings-time transition, it is possible for a seemingly valid timestamp string to represent a nonexistent timestamp. " +
		"Such cases are not rejected; the ambiguity is resolved by determining which UTC offset to apply. For example, consider\n\n" +
		"=> SELECT '2018-03-11 02:30'::timestamptz;\n      timestamptz\n------------------------\n 2018-03-11 03:30:00-04\n(1 row)"}}
	r := Extractive("What happens to a nonexistent timestamp during a daylight-savings-time transition?", src, 3)
	if !strings.HasPrefix(r.Answer, "During a daylight-savings-time transition") || strings.Contains(r.Answer, "```\nDuring") {
		t.Errorf("answer %q: want the prose quoted as sentences", r.Answer)
	}
}

// Chinese and Japanese are split into sentences at 。！？ and matched by
// character bigrams, as the keyword leg indexes them: the answer quotes the
// sentence that shares the question's words, not the start of the chunk.
func TestExtractiveSplitsAndMatchesCJK(t *testing.T) {
	t.Parallel()
	src := []Source{{Content: "数据库备份是保护数据的重要手段。恢复时使用 pg_restore 命令。使用 pg_dump 可以把整个数据库导出到一个文件中！其他工具也可以使用？\n\n" +
		"バックアップの方法はいくつかあります。データベース全体を一つのファイルに書き出すにはpg_dumpを使います。"}}
	for _, c := range []struct{ question, want string }{
		// The marker follows a CJK word without a space, as the script
		// writes no spaces.
		{"如何把整个数据库导出到一个文件？", "使用 pg_dump 可以把整个数据库导出到一个文件中[1]！"},
		{"データベース全体をファイルに書き出すには？", "データベース全体を一つのファイルに書き出すにはpg_dumpを使います[1]。"},
	} {
		r := Extractive(c.question, src, 1)
		if r.Answer != c.want {
			t.Errorf("Extractive(%q) = %q, want %q", c.question, r.Answer, c.want)
		}
	}
	// Sentences of a passage follow each other without a space.
	if r := Extractive("数据库备份和恢复用什么命令？", src, 2); r.Answer != "数据库备份是保护数据的重要手段[1]。恢复时使用 pg_restore 命令[1]。" {
		t.Errorf("two sentences: %q", r.Answer)
	}
	if got := terms("pg_dumpを使います"); !slices.Contains(got, "pg_dump") || !slices.Contains(got, "使い") {
		t.Errorf("terms = %q, want the identifier pg_dump and CJK bigrams", got)
	}
}

// Two sources that answer about equally well are both quoted, each cited
// with its own number; a clearly better one is quoted alone.
// Another source whose evidence is at least half the best passage's adds
// its best sentence (it often names what the question asks for); one with
// weaker evidence adds nothing, and no more than maxSupport sources are
// quoted after the passage.
func TestExtractiveAddsSupportingSentencesFromStrongSources(t *testing.T) {
	t.Parallel()
	strong := []Source{
		{Content: "Flags make a pattern match ignore case. Letter flags are optional."},
		{Content: "The ILIKE key word makes a pattern match ignore letter case. It is an extension."},
	}
	r := Extractive("How do I make a pattern match ignore letter case?", strong, 1)
	if !strings.Contains(r.Answer, "ILIKE") || len(r.Citations) != 2 {
		t.Errorf("strong second source: answer %q with %d citations, want both sources quoted", r.Answer, len(r.Citations))
	}
	weak := []Source{
		{Content: "The key word ILIKE makes a pattern match ignore case. It is an extension."},
		{Content: "Some operators take a pattern. They are listed below."},
	}
	r = Extractive("How do I make a pattern match ignore case?", weak, 1)
	if len(r.Citations) != 1 || !strings.HasPrefix(r.Answer, "The key word ILIKE") {
		t.Errorf("weak second source: answer %q with %d citations, want the first source alone", r.Answer, len(r.Citations))
	}
	many := []Source{
		{Content: "A pattern match can ignore letter case with ILIKE."},
		{Content: "The ~* operator makes a pattern match ignore letter case."},
		{Content: "Regular expression flags make a pattern match ignore letter case."},
		{Content: "The lower function helps a pattern match ignore letter case."},
	}
	r = Extractive("How do I make a pattern match ignore letter case?", many, 1)
	if len(r.Citations) != 1+maxSupport {
		t.Errorf("four strong sources: answer %q cites %+v, want the best and %d supporting sources", r.Answer, r.Citations, maxSupport)
	}
	if clean, _, invalid := Verify(r.Answer, many); clean != r.Answer || len(invalid) != 0 {
		t.Errorf("answer does not verify: %q %v", clean, invalid)
	}
}

func TestWordy(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Error Code: 42P01; Condition Name: undefined_table", true},
		{"The autovacuum daemon runs VACUUM and ANALYZE automatically.", true},
		{`==== sqlca ==== sqlcode: -400 sqlerrm.sqlerrml: 49 sqlerrd: 0 0 0 0 0 0 sqlwarn: 0 0 0 0 0 0 0 0 sqlstate: 42P01 ===============`, false},
		{"1 | 2 | 3 | 4", false},
		{"", false},
	} {
		if got := wordy(c.text); got != c.want {
			t.Errorf("wordy(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestRepeats: a supporting passage is left out when a quoted one contains
// it or it contains a quoted one (overlapping chunks, a PDF section that
// carries its neighbour's lines), whatever the case and white space.
func TestRepeats(t *testing.T) {
	t.Parallel()
	quoted := []string{"Run asn1Parser -c to check the syntax only. No output file is written."}
	for q, want := range map[string]bool{
		"run ASN1PARSER -c   to check\nthe syntax only.":                                                  true,
		"Run asn1Parser -c to check the syntax only. No output file is written. Exit status 1 on errors.": true,
		"Run asn1Coding -c to check the syntax only.":                                                     false,
		"": true,
	} {
		if got := repeats(quoted, strings.ReplaceAll(q, "\\n", "\n")); got != want {
			t.Errorf("repeats(%q) = %v, want %v", q, got, want)
		}
	}
	if repeats(nil, "anything") {
		t.Error("nothing quoted yet: nothing repeats")
	}
}

// TestExtractiveQuotesRootPromptCommands: a command printed after a root
// prompt ("# dpkg-reconfigure tzdata") is code the passage introduces, not
// a Markdown heading: it is quoted with the sentence that introduces it. (A
// trial of the Debian Reference found the command dropped from 10 of 24
// answers, while the same command after "$ " was quoted.)
func TestExtractiveQuotesRootPromptCommands(t *testing.T) {
	t.Parallel()
	content := "Time zone\n\nThe following command reconfigures the time zone used by the system.\n\n# dpkg-reconfigure tzdata\n\n" +
		"Kernel messages\n\nThe kernel console threshold is set like this.\n\n# dmesg -n3"
	r := Extractive("How do I reconfigure the time zone of the system?", []Source{{Content: content}}, 3)
	if !strings.Contains(r.Answer, "```\n# dpkg-reconfigure tzdata\n```") {
		t.Errorf("the command is not quoted as code: %q", r.Answer)
	}
	for line, want := range map[string]bool{"# dpkg-reconfigure tzdata": true, "# dmesg -n3": true, "# apt install foo": true,
		"#  genisoimage -r -J -o out.iso dir": true, "# Installation": false, "# getting started": false, "## Usage notes": false,
		"# vi": true, "#": false, "#comment": false} {
		if got := rootCommand(line); got != want {
			t.Errorf("rootCommand(%q) = %v, want %v", line, got, want)
		}
		if want && isHeading(line) {
			t.Errorf("isHeading(%q): a root command is not a heading", line)
		}
	}
}

// TestAdmonitionTableIsProse: an admonition laid out as a table (an icon
// cell, then the label above the text, as DocBook's HTML does) is quoted
// as prose under its label, not fenced as code (a trial's Japanese answers
// quoted "注記" and its note inside a code block).
func TestAdmonitionTableIsProse(t *testing.T) {
	t.Parallel()
	content := "ファイルのタイムスタンプには3種類あります。\n\n | 注記\n「noatime」マウントオプションは読み出し性能を向上させるために導入されました。"
	r := Extractive("noatimeマウントオプションは何のためですか", []Source{{Content: content}}, 3)
	if strings.Contains(r.Answer, "```") || strings.Contains(r.Answer, "注記") || !strings.Contains(r.Answer, "noatime") {
		t.Errorf("answer %q: want the note quoted as prose without its label", r.Answer)
	}
	if c, ok := loneCell(" | 注記"); !ok || c != "注記" {
		t.Errorf("loneCell = %q, %v", c, ok)
	}
	if _, ok := loneCell("a | b"); ok {
		t.Error("a row of two cells is not a lone cell")
	}
}

// TestExtractiveSkipsIndexEntries: a keyword index lists each name with the
// page it is on; the entry is not an answer, the page's sentence is.
func TestExtractiveSkipsIndexEntries(t *testing.T) {
	t.Parallel()
	srcs := []Source{
		{N: 1, Title: "Keyword Crossreference", HeadingPath: "Keyword Crossreference", Content: "- PRAGMA automatic_index - pragma.html#pragma_automatic_index\n" +
			"- PRAGMA busy_timeout - pragma.html#pragma_busy_timeout\n- PRAGMA cache_size - pragma.html#pragma_cache_size"},
		{N: 2, Title: "C/C++ Interface", HeadingPath: "C/C++ Interface", Content: "Set A Busy Timeout\n\nint sqlite3_busy_timeout(sqlite3*, int ms);\n\n" +
			"This routine sets a busy handler that sleeps for a specified amount of time when a table is locked."},
	}
	res := Extractive("What does PRAGMA busy_timeout do?", srcs, 0)
	if strings.Contains(res.Answer, "pragma.html") || !strings.Contains(res.Answer, "sleeps for a specified amount of time") {
		t.Errorf("answer quotes the index entry: %q", res.Answer)
	}
}

// TestExtractiveQuotesTheSectionLead: a section says what it is about in its
// first sentence; a later sentence that holds the same words (and names
// other keywords) only qualifies it.
func TestExtractiveQuotesTheSectionLead(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "ALTER TABLE", HeadingPath: "ALTER TABLE > 4. ALTER TABLE ADD COLUMN", Content: "The RENAME COLUMN TO syntax changes the column-name of table table-name into new-column-name.\n\n" +
		"4. ALTER TABLE ADD COLUMN\n\nThe ADD COLUMN syntax is used to add a new column to an existing table. " +
		"The new column is always appended to the end of the list of existing columns. " +
		"The column may not have a PRIMARY KEY or UNIQUE constraint.\n\n" +
		"When adding new columns that have CHECK constraints, or adding generated columns with NOT NULL constraints, " +
		"then all existing data in the table must be either read or written."}}
	res := Extractive("How do I add a new column to an existing table?", src, 0)
	if !strings.HasPrefix(res.Answer, "The ADD COLUMN syntax is used to add a new column to an existing table [1].") {
		t.Errorf("answer does not open with the section's first sentence: %q", res.Answer)
	}
}

// TestExtractiveQuotesTheExampleASentenceAnnounces: a sentence ending with
// ":" announces the example under it; a one-line directive there is the
// answer's point, not a caption (the Apache manual's "you might use the
// following directive:" above "LimitRequestBody 102400" was quoted without
// it), and two configuration lines are not a term and its definition.
func TestExtractiveQuotesTheExampleASentenceAnnounces(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "core", HeadingPath: "Apache Core Features > LimitRequestBody Directive",
		Content: "LimitRequestBody Directive\n\nDescription: | Restricts the total size of the HTTP request body sent from the client\n" +
			"Syntax: | LimitRequestBody bytes\nDefault: | LimitRequestBody 0\n\n" +
			"This directive specifies the number of bytes that are allowed in a request body.\n\n" +
			"If, for example, you are permitting file upload to a particular location and wish to limit the size of the uploaded file to 100K, " +
			"you might use the following directive:\n\nLimitRequestBody 102400\n\nLimitRequestFields Directive\n\n" +
			"Description: | Limits the number of HTTP request header fields that will be accepted from the client"}}
	res := Extractive("How do I limit the size of an uploaded file?", src, 0)
	if !strings.Contains(res.Answer, "```\nLimitRequestBody 102400\n```") {
		t.Errorf("the announced directive is not quoted as code: %q", res.Answer)
	}
	res = Extractive("What is the syntax of LimitRequestBody?", src, 0)
	if strings.Contains(res.Answer, "Description::") || strings.Contains(res.Answer, "Syntax:;") {
		t.Errorf("a table of labelled values is read with a header row: %q", res.Answer)
	}
	listen := []Source{{Title: "Binding", Content: "To make the server accept connections on two specified interfaces and port numbers, use:\n\n" +
		"Listen 192.170.2.1:80\nListen 192.170.2.5:8000\n\nThe server then answers on both."}}
	res = Extractive("How do I make the server listen on two interfaces?", listen, 0)
	if !strings.Contains(res.Answer, "Listen 192.170.2.1:80\nListen 192.170.2.5:8000") {
		t.Errorf("two configuration lines are not quoted as they are: %q", res.Answer)
	}
}

// TestExtractiveKeepsPipelinesAndDefinitionLists: a root prompt's pipeline
// is a command, not a table row ("# deborphan | xargs aptitude …" was
// quoted "# deborphan; xargs …", another command), and a definition list
// under a sentence ending with ":" is prose, not the code the colon
// announces.
func TestExtractiveKeepsPipelinesAndDefinitionLists(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "Upgrading", Content: "Before upgrading, schedule the removal of orphaned libraries with deborphan:\n\n" +
		"# deborphan | xargs aptitude --schedule-only remove\n\nThen run the upgrade."}}
	res := Extractive("How do I schedule removal of orphaned libraries with deborphan?", src, 0)
	if !strings.Contains(res.Answer, "# deborphan | xargs aptitude --schedule-only remove") {
		t.Errorf("the pipeline is not quoted as written: %q", res.Answer)
	}
	dl := []Source{{Title: "Kernels", Content: "Debian provides several kernel packages for amd64:\n\n" +
		"linux-image-amd64\nThe kernel for 64-bit PCs, the one most machines need.\n\n" +
		"linux-image-rt-amd64\nA kernel with real-time patches for latency-sensitive work."}}
	res = Extractive("Which kernel package do most 64-bit PCs need?", dl, 0)
	if strings.Contains(res.Answer, "```") || !strings.Contains(res.Answer, "The kernel for 64-bit PCs") {
		t.Errorf("a definition list after a colon is quoted as code: %q", res.Answer)
	}
}

// A passage that starts inside a definition brings the definition's first
// sentence, which carries the term defined: the option a question asks for
// is the term, not a word of its definition.
func TestExtractiveQuotesTheTermOfADefinition(t *testing.T) {
	t.Parallel()
	content := `Options

Only the service-style options are listed here.

start
Starts the svcd daemon. Gives an error if it is already running. This is the same as svcctl -k start.

restart
Restarts the svcd daemon. If the daemon is stopped, it is started. This command checks the configuration first so that the daemon does not die. This is the same as svcctl -k restart.

reload
Reloads the daemon in place. If the daemon is stopped, it is started. This differs from a plain restart in that sessions open now are kept. A side effect is that old log files stay open for a while. This is the same as svcctl -k reload.

status
Displays a brief status report of the sessions served now.`
	src := []Source{{ChunkID: "a", SourceURI: "svcctl.html", Title: "svcctl", HeadingPath: "svcctl > Options", Content: content}}
	r := Extractive("How do I restart svcd without closing the sessions that are open now?", src, 3)
	if !strings.Contains(r.Answer, "reload: Reloads the daemon in place") || !strings.Contains(r.Answer, "sessions open now are kept") {
		t.Errorf("Answer = %q, want the reload entry from its term to the sentence that answers", r.Answer)
	}
	if _, _, invalid := Verify(r.Answer, src); len(invalid) != 0 {
		t.Errorf("invalid citations %v in %q", invalid, r.Answer)
	}
}

// Code is quoted as the source writes it: an argument in brackets
// (\copygroup[4]{GA}{all}) is not a citation marker to remove, while a
// citation-like marker in the source's prose, or one after a blank that no
// code follows, still is.
func TestExtractiveKeepsBracketsInCode(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "groups.html", Title: "Groups", Content: `Groups of questions

To pick 4 questions from group GA and 5 questions from group GB into the group exam, use the following commands [7]:

    \copygroup[4]{GA}{exam}
    \copygroup[5]{GB}{exam}
    \insertgroup[9]{exam} [3]

Questions are picked at random.`}}
	r := Extractive("How do I pick 4 questions from group GA and 5 from group GB?", src, 3)
	for _, want := range []string{`\copygroup[4]{GA}{exam}`, `\copygroup[5]{GB}{exam}`, `\insertgroup[9]{exam}`} {
		if !strings.Contains(r.Answer, want) {
			t.Errorf("Answer = %q, want the code as written: %s", r.Answer, want)
		}
	}
	if strings.Contains(r.Answer, "[7]") || strings.Contains(r.Answer, "[3]") {
		t.Errorf("Answer = %q keeps a citation-shaped marker of the source ([7] in prose, [3] after the code)", r.Answer)
	}
	if clean, cited, invalid := Verify(r.Answer, src); clean != r.Answer || !slices.Equal(cited, []int{1}) || len(invalid) != 0 {
		t.Errorf("verification changed the answer or its citations: %q %v %v", clean, cited, invalid)
	}
}

// A sentence ending with ":" brings the list it announces: quoted alone,
// it promises what it does not say.
func TestExtractiveQuotesTheListASentenceAnnounces(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "primordials.md", Title: "Primordials", Content: `Primordials

The primordials are frozen copies of the built-in objects, taken before any user code runs.

The following modules use primordials to protect themselves against prototype pollution:

- node:http
- node:http2
- node:tls

Other modules may use them as well.`}}
	r := Extractive("Which modules use primordials to protect against prototype pollution?", src, 3)
	for _, want := range []string{"against prototype pollution [1]:", "\n- node:http", "\n- node:http2", "\n- node:tls"} {
		if !strings.Contains(r.Answer, want) {
			t.Errorf("Answer = %q, want the announced list (%q)", r.Answer, want)
		}
	}
	if _, _, invalid := Verify(r.Answer, src); len(invalid) != 0 {
		t.Errorf("invalid citations %v", invalid)
	}
}

// The rest of a sentence cut by a code block ("which writes …") is quoted
// with the code before it: alone it is a fragment.
func TestExtractiveDoesNotStartOnAContinuation(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "build.md", Title: "Building with GN", Content: `Building with GN

To build Node.js with GN, run

    tools/gn-build.py

which writes ninja build files into the out/Release directory and builds Node.js with ninja.

The build takes about an hour on a laptop.`}}
	r := Extractive("How do I build Node.js with GN?", src, 3)
	if strings.HasPrefix(r.Answer, "which") || !strings.Contains(r.Answer, "tools/gn-build.py\n```\n\nwhich writes ninja build files") {
		t.Errorf("Answer = %q, want the command the sentence's rest follows, then the rest", r.Answer)
	}
}

// TestDefinitionTermStaysWhenThePathNamesIt: a chunk of one definition has
// the term at the end of its heading path; its term line is still the
// definition's term (quoted with its first sentence), not a section title.
func TestDefinitionTermStaysWhenThePathNamesIt(t *testing.T) {
	t.Parallel()
	src := []Source{{HeadingPath: "20.4. Resource Consumption > work_mem (integer)",
		Content: "work_mem (integer)\nSets the base maximum amount of memory to be used by a query operation before writing to temporary disk files."}}
	r := Extractive("What does work_mem set?", src, 1)
	if !strings.HasPrefix(r.Answer, "work_mem (integer): Sets the base maximum amount of memory") {
		t.Errorf("Answer =\n%s", r.Answer)
	}
}

// TestCJKQuestionWordsAreNoEvidence: a Chinese question's question word
// (什么是, what is) and a Japanese question's particles (には, する) match
// any page that asks a question or runs a sentence on; the passage is
// chosen by the question's content.
func TestCJKQuestionWordsAreNoEvidence(t *testing.T) {
	t.Parallel()
	src := []Source{
		{HeadingPath: "11.2. XML 数据", Content: "XML 的入门资料：\n\n- “什么是 XSLT?”\n- “什么是 XPath?”"},
		{HeadingPath: "2.7.3. 调整候选版本", Content: "新手用 apt-pinning 命令会造成比较大的问题。请先阅读 apt_preferences(5)。"},
	}
	r := Extractive("什么是apt-pinning？", src, 2)
	if strings.Contains(r.Answer, "XSLT") || !strings.Contains(r.Answer, "apt-pinning") {
		t.Errorf("Answer =\n%s\nwant the apt-pinning sentence, not the XSLT question", r.Answer)
	}
	src = []Source{
		{HeadingPath: "1.1. はじめに", Content: "この章を読むには、まずシステムを起動する必要があります。起動するには電源を入れます。"},
		{HeadingPath: "2.7.3. パッケージの固定", Content: "パッケージを固定するには apt-mark hold を使います。"},
	}
	r = Extractive("aptでパッケージを固定するには？", src, 1)
	if !strings.Contains(r.Answer, "apt-mark hold") {
		t.Errorf("Answer =\n%s\nwant the apt-mark hold sentence", r.Answer)
	}
}

// An answer never ends on a question, and a rule line is no part of one:
// an FAQ whose question sits in a paragraph of text was answered with the
// question alone, and a help file's "=====" line opened an answer as a
// lead-in ("=====…: *28.7* Folding by syntax").
func TestExtractiveNeitherEndsOnAQuestionNorQuotesRules(t *testing.T) {
	t.Parallel()
	faq := []Source{{Title: "Vim FAQ", Content: "Shells and terminals. Can I run a shell inside a Vim window?\n\n" +
		"Yes: the :terminal command opens a window running your shell, and CTRL-W N leaves it in Normal mode."}}
	r := Extractive("How do I run a shell inside a Vim window?", faq, 3)
	if !strings.Contains(r.Answer, ":terminal command") || strings.HasSuffix(strings.TrimSpace(r.Answer), "?") {
		t.Errorf("FAQ: Answer = %q, want the sentence after the question", r.Answer)
	}
	help := []Source{{Title: "usr_28", Content: "==============================================================================\n" +
		"*28.7*\tFolding by syntax\n\nFolds can be defined by the syntax items of the file type. Use zR to open all folds."}}
	r = Extractive("How do I open all folds?", help, 3)
	if strings.Contains(r.Answer, "===") || !strings.Contains(r.Answer, "zR") {
		t.Errorf("rule: Answer = %q, want the zR sentence without the rule", r.Answer)
	}
}

// For a question that asks how, prose right after the code it talks about
// brings that code and the sentence announcing it; for a question of fact
// it does not, nor when the prose names nothing the code writes.
func TestExtractiveHowBringsTheCodeThePassageExplains(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "Aggregation", Content: "Generating aggregates\n\n" +
		"Django provides two ways to generate aggregates over a QuerySet.\n\n" +
		"The all() is redundant in this example, so this could be simplified to:\n\n" +
		">>> Book.objects.aggregate(Avg('price'))\n{'price__avg': 34.35}\n\n" +
		"The argument to the aggregate() clause describes the value to compute, here the average of the price field of every book."}}
	r := Extractive("How do I compute the average price over all books?", src, 3)
	if !strings.Contains(r.Answer, "Book.objects.aggregate(Avg('price'))") || !strings.Contains(r.Answer, "The argument to the aggregate() clause") {
		t.Errorf("how: Answer = %q, want the code with the sentence explaining it", r.Answer)
	}
	r = Extractive("What is the average price field of every book?", src, 3)
	if strings.Contains(r.Answer, "Book.objects") {
		t.Errorf("fact: Answer = %q, want the sentence alone", r.Answer)
	}
}

// TestExtractiveDoesNotEndOnAnAnnouncement: a passage that ends on the
// sentence announcing an equation or a listing ("… known as the
// Accounting Equation:") quotes what it announces, under its caption,
// making room by leaving out sentences before it that add no question
// term; it does not end on ":".
func TestExtractiveDoesNotEndOnAnAnnouncement(t *testing.T) {
	t.Parallel()
	content := "With the five basic accounts defined, equity is defined by assets and liabilities. " +
		"Furthermore, you can increase your equity through income, and decrease equity through expenses. " +
		"This makes sense of course, when you receive a paycheck you become richer and when you pay for dinner you become poorer. " +
		"This is expressed mathematically in what is known as the accounting equation:\n\n" +
		"Equation 2.2. The (dynamic) accounting equation\n\n" +
		"Assets - Liabilities = Equity + (Income - Expenses)\n\n" +
		"This equation must always be balanced."
	src := []Source{{SourceURI: "basics.html", HeadingPath: "Accounting Concepts > The Accounting Equation", Content: content}}
	r := Extractive("What is the accounting equation?", src, 1)
	if !strings.Contains(r.Answer, "Assets - Liabilities = Equity + (Income - Expenses)") || strings.HasSuffix(strings.TrimSpace(r.Answer), ":") {
		t.Errorf("answer %q, want the equation the passage announces", r.Answer)
	}
}

// TestExtractiveHowQuestionPrefersTheInstruction: for a question that asks
// how, the sentence that tells what to do (an imperative, a menu path)
// beats one holding the same words that only describes.
func TestExtractiveHowQuestionPrefersTheInstruction(t *testing.T) {
	t.Parallel()
	content := "Reports overview\n\nSeveral kinds of reports exist. Reports are printed in Ledgerly from any report window, " +
		"and printed reports keep the window's fonts.\n\n" +
		"To print a report in Ledgerly, open the report and choose File → Print Report.\n\n" +
		"Reports can also be exported as HTML."
	src := []Source{{SourceURI: "reports.html", HeadingPath: "Reports", Content: content}}
	r := Extractive("How do I print a report in Ledgerly?", src, 1)
	if !strings.Contains(r.Answer, "File → Print Report") {
		t.Errorf("answer %q, want the instruction", r.Answer)
	}
}

// TestExtractiveDoesNotQuoteBackThePastedError: a question that pastes an
// error message ("… says Can't locate Mozilla/CA.pm, how do I fix it?") is
// not answered with the page's copy of that output: the asker has it. What
// the page says about it is quoted. A listing that holds the question's
// plain words ("next misspelled word") still answers it.
func TestExtractiveDoesNotQuoteBackThePastedError(t *testing.T) {
	t.Parallel()
	content := "To check the installation, run gnc-fq-check:\n\n" +
		"```\n$ gnc-fq-check\nCan't locate Mozilla/CA.pm in @INC (you may need to install the Mozilla::CA module)\n" +
		"BEGIN failed--compilation aborted at (eval 303) line 1.\n```\n\n" +
		"The first part is the error message about a missing Perl module Mozilla/CA.pm. Run gnc-fq-update to install the missing modules."
	src := []Source{{SourceURI: "helper.html", HeadingPath: "Helper Scripts > gnc-fq-check", Content: content}}
	r := Extractive("gnc-fq-check says Can't locate Mozilla/CA.pm, how do I fix it?", src, 2)
	if strings.Contains(r.Answer, "@INC") || !strings.Contains(r.Answer, "error message about a missing Perl module") {
		t.Errorf("answer %q, want what the page says about the error, not the error", r.Answer)
	}
	listing := "Spell checking commands:\n\n]s\t\tMove to next misspelled word after the cursor.\n[s\t\tLike \"]s\" but search backwards."
	r = Extractive("What key jumps to the next misspelled word?", []Source{{SourceURI: "spell.txt", HeadingPath: "Spell", Content: listing}}, 1)
	if !strings.Contains(r.Answer, "]s") {
		t.Errorf("answer %q, want the listing's ]s", r.Answer)
	}
}

// TestExtractiveExplainsThePastedMessage: a question that is an error
// message (h-trial19: "RuntimeError: Working outside of application
// context.") was answered with the sentence announcing the page's copy of
// the message and the copy, and stopped before the page's explanation.
// The copy, a sentence that is mostly the question's message, is no
// evidence, and a passage ending on it goes on to what follows it.
func TestExtractiveExplainsThePastedMessage(t *testing.T) {
	t.Parallel()
	content := "Manually Push a Context\n\nIf you try to access current_app, or anything that uses it, outside an application context, you’ll get this error message:\n\n" +
		"RuntimeError: Working outside of application context.\n\n" +
		"This typically means that you attempted to use functionality that\nneeded to interface with the current application object in some way.\nTo solve this, set up an application context with app.app_context().\n\n" +
		"If you see that error while configuring your application, such as when initializing an extension, you can push a context manually since you have direct access to the app."
	r := Extractive("RuntimeError: Working outside of application context.",
		[]Source{{N: 1, Content: content, HeadingPath: "The Application Context > Manually Push a Context"}}, 3)
	if !strings.Contains(r.Answer, "app.app_context()") {
		t.Errorf("the answer stops before the page's explanation of the message:\n%s", r.Answer)
	}
	// A passage right before the sentence announcing the copy goes on
	// through it, and through the other messages of its list.
	content = "Address already in use\n\nIf another program is already using port 5000, you’ll see an OSError when the server tries to start. It may have one of the following messages:\n\n" +
		"- OSError: [Errno 98] Address already in use\n- OSError: [WinError 10013] An attempt was made to access a socket in a way forbidden by its access permissions\n\n" +
		"Either identify and stop the other program, or use flask run --port 5001 to pick a different port.\n\n" +
		"You can use netstat or lsof to identify what process id is using a port."
	r = Extractive("OSError: [Errno 98] Address already in use when I start flask run",
		[]Source{{N: 1, Content: content, HeadingPath: "Development Server > Address already in use"}}, 3)
	if !strings.Contains(r.Answer, "--port 5001") {
		t.Errorf("the answer stops before the page's advice on the message:\n%s", r.Answer)
	}
	if !errorName("RuntimeError:") || !errorName("NullPointerException") || errorName("Error") || errorName("error") || errorName("ErrorCode") {
		t.Error("errorName")
	}
}

// TestExtractiveQuotesTheFieldTheQuestionNames: a reference entry's
// labelled values ("Default: …") are part of it; a question naming the
// label gets the line (h-trial19: "What is the default value of
// PERMANENT_SESSION_LIFETIME?" was answered with the entry's first
// sentence, the "Default:" line read as a caption and never quoted). And a
// sentence that "fails to do so" leans on the one before it.
func TestExtractiveQuotesTheFieldTheQuestionNames(t *testing.T) {
	t.Parallel()
	content := "SESSION_COOKIE_SAMESITE\nRestrict how cookies are sent with requests from external sites.\n\nDefault: None\n\n" +
		"PERMANENT_SESSION_LIFETIME\nIf session.permanent is true, the cookie’s expiration will be set this number of seconds in the future. Can either be a datetime.timedelta or an int.\n\n" +
		"Default: timedelta(days=31) (2678400 seconds)\n\n" +
		"SESSION_REFRESH_EACH_REQUEST\nControl whether the cookie is sent with every response when session.permanent is true.\n\nDefault: True"
	r := Extractive("What is the default value of PERMANENT_SESSION_LIFETIME?",
		[]Source{{N: 1, Content: content, HeadingPath: "Configuration Handling > Builtin Configuration Values"}}, 3)
	if first, _, _ := strings.Cut(r.Answer, "\n\nSESSION_"); !strings.Contains(first, "PERMANENT_SESSION_LIFETIME") || !strings.Contains(first, "timedelta(days=31)") {
		t.Errorf("want the entry with its own default:\n%s", r.Answer)
	}
	if !fieldLine("Default: None") || !fieldLine("Type: bool") || fieldLine("note: see below") || fieldLine("See the section on caching below: it explains") {
		t.Error("fieldLine")
	}
	if !opensWithBackReference("Failing to do so will result in all requests being returned as “Bad Request (400)”.") ||
		!opensWithBackReference("Before doing so, stop the server.") || opensWithBackReference("Do something else.") {
		t.Error("opensWithBackReference: do so")
	}
}

// TestContentsEntryIsNotQuoted: a table of contents' entry names a page
// and says nothing (h-trial19: "- Cross-Site Request Forgery (CSRF) [2]",
// from the site's index, ended an answer about CSRF); list items that say
// something are quoted as before.
func TestContentsEntryIsNotQuoted(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		toc  bool
	}{
		{"Cross-Site Request Forgery (CSRF)", true},
		{"Deploying to Production", true},
		{"Keep a default configuration in version control.", false},
		{"It does not support Windows (but does run on WSL).", false},
		{"OSError: [Errno 98] Address already in use", false},
		{"install the client first", false},
	} {
		if got := contentsEntry(unit{kind: unitSentence, text: c.text, item: "- "}); got != c.toc {
			t.Errorf("%q: contents entry %v, want %v", c.text, got, c.toc)
		}
	}
	if contentsEntry(unit{kind: unitSentence, text: "Cross-Site Request Forgery (CSRF)"}) {
		t.Error("a line that is no list item")
	}
	index := "Welcome to Flask\n\n- Security Considerations\n- Cross-Site Request Forgery (CSRF)\n- Cross-Site Scripting (XSS)"
	page := "Cross-Site Request Forgery (CSRF)\n\nAnother big problem is CSRF. Flask protects against cross-site request forgery only with an extension: a one-time token is stored in the session and checked on every form post."
	r := Extractive("How does Flask protect against cross-site request forgery?", []Source{
		{N: 1, Content: page, HeadingPath: "Security Considerations > Cross-Site Request Forgery (CSRF)"},
		{N: 2, Content: index, HeadingPath: "Welcome to Flask"}}, 3)
	if !strings.Contains(r.Answer, "one-time token") || strings.Contains(r.Answer, "- Cross-Site") {
		t.Errorf("want the page's sentence and no contents entry:\n%s", r.Answer)
	}
}

// TestExtractiveCodeCommentIsNoHeading: code whose first line is a
// comment ("# content of quokka.ini") is quoted with the sentence
// announcing it; read as a Markdown heading, the comment put the code in
// a section of its own (a pytest trial answered "Can I make them the
// default?" with "It can be tedious to type the same series of command
// line options every time you use pytest." alone).
func TestExtractiveCodeCommentIsNoHeading(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "How to change command line options defaults", Content: "How to change command line options defaults\n\n" +
		"It can be tedious to type the same series of command line options every time you use quokka. " +
		"For example, if you always want terser progress output, you can write it into a configuration file:\n\n" +
		"# content of quokka.ini\n[quokka]\naddopts = -ra -q\n\n" +
		"Alternatively, you can set an environment variable while the environment is in use."}}
	r := Extractive("I'm tired of typing the same options every time I run quokka. Can I make them the default?", src, 3)
	if !strings.Contains(r.Answer, "# content of quokka.ini\n[quokka]\naddopts = -ra -q") || !strings.Contains(r.Answer, "you can write it into a configuration file") {
		t.Errorf("Answer = %q, want the sentence announcing the configuration with it", r.Answer)
	}
	// A Markdown heading over code stays a heading.
	src[0].Content = "Widgets\n\nThe widget cache keeps recently frobnicated quokka widgets.\n\n# Installing quokka\n$ apt install quokka"
	if r := Extractive("What does the widget cache keep?", src, 1); strings.Contains(r.Answer, "Installing") {
		t.Errorf("Answer = %q, want the sentence alone", r.Answer)
	}
}

// TestExtractiveQuotesAnAnnouncedCommand: a one-line command under the
// sentence announcing it ("Install it with pip:" above "pip install
// quokka") is quoted as code with it; without code punctuation it was
// taken for a caption and left out, and the answer ended on ":"
// (h-review18).
func TestExtractiveQuotesAnAnnouncedCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, content, command string }{
		{"How do I install the quokka client?", "Installation\n\nThe quokka client needs Python 3.8 or later. Install it with pip:\n\npip install quokka\n\nThen run quokka --version to check it.", "pip install quokka"},
		{"How do I install quokka on Debian?", "Installation\n\nOn Debian, install the package as root:\n\nsudo apt-get install quokka\n\nThe service starts at once.", "sudo apt-get install quokka"},
	} {
		r := Extractive(c.question, []Source{{Title: "Installation", Content: c.content}}, 3)
		if !strings.Contains(r.Answer, "```\n"+c.command+"\n```") {
			t.Errorf("%q: Answer = %q, want the command %q quoted as code", c.question, r.Answer, c.command)
		}
	}
}
