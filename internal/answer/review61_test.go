package answer

import (
	"strings"
	"testing"
)

// Hostile review of withEntryName / entryName (commit 470681b): tests that
// fail on that commit, each for a defect a user sees in an extractive
// answer.

func review61Source(path, content string) []Source {
	return []Source{{N: 1, ChunkID: "c1", SourceURI: "https://docs.test/configuration.html", Title: "Configuration", HeadingPath: path, Content: content}}
}

// TestReview61WidenedNeighbourIsNotNamedAfterTheRetrievedEntry: ask.widen
// gives the extractive answerer the retrieved chunk with the chunk before
// it when that chunk ends in the same section (sibling definitions of one
// section join, queries/documents.sql ChunkNeighbourhoods), but the source
// keeps the retrieved chunk's heading path, which ends with the term of the
// one definition that chunk holds ("… > result_expires"). The text before
// the "result_expires" term line is the end of the result_backend entry
// (its term is in the chunk before, not in the content). Real pipeline
// (extract.Extract of a Sphinx settings page, chunk.Split, the widened
// range [chunk k-1, chunk k+1]) gives exactly this source. The answer
// labels a sentence about result_backend "result_expires: …": the user is
// told the wrong setting controls the behaviour, and the citation (which
// citeQuoted points at the result_backend chunk) contradicts the label.
// Suggested rule: fall back to the heading path only for units that lie
// after that name's own term/heading line when the content holds it, and
// never for units before another entry's term line of the same section.
func TestReview61WidenedNeighbourIsNotNamedAfterTheRetrievedEntry(t *testing.T) {
	t.Parallel()
	content := "If the backend is a database, one row is kept for each task, and it is written when the task returns.\n\n" +
		"result_expires\nDefault: Expire after 1 day.\n\n" +
		"Time (in seconds, or a timedelta object) for when after stored task tombstones will be deleted.\n\n" +
		"A value of None or 0 means results will never expire.\n"
	r := Extractive("Is a database row kept for each task in the backend?",
		review61Source("Configuration and defaults > Task result backend settings > result_expires", content), 3)
	if strings.HasPrefix(r.Answer, "result_expires:") {
		t.Errorf("a sentence of the result_backend entry (the neighbour chunk) is labelled with the retrieved chunk's setting:\n%s", r.Answer)
	}
}

// TestReview61DigitInNameDoesNotAnswerAQuantity: asked "how many bytes",
// Extractive refuses when the quoted prose gives no number (givesQuantity on
// the answer text). The check now runs over the written name too, and a
// setting name holding a digit (django-storages' AWS_S3_MAX_MEMORY_SIZE:
// the "3" of "S3") passes it: the answer is returned as if it gave the
// number, where the same passage under "AWS_MAX_MEMORY_SIZE" or a heading
// of words is refused. The user gets a non-answer presented as an answer.
// Suggested rule: test givesQuantity on the quotes before the names are
// written (or strip the "NAME: " prefixes first).
func TestReview61DigitInNameDoesNotAnswerAQuantity(t *testing.T) {
	t.Parallel()
	q := "How many bytes can a file take up in memory before it is rolled over to disk?"
	body := "The maximum amount of memory a file can take up before being rolled over into a temporary file on disk."
	if r := Extractive(q, review61Source("Amazon S3 > Settings > AWS_MAX_MEMORY_SIZE", body), 3); !r.Refused {
		t.Fatalf("control: the passage without a number should be refused:\n%s", r.Answer)
	}
	if r := Extractive(q, review61Source("Amazon S3 > Settings > AWS_S3_MAX_MEMORY_SIZE", body), 3); !r.Refused {
		t.Errorf("the digit of the written setting name passed for the number the question asks:\n%s", r.Answer)
	}
}

// TestReview61LongerSiblingOptionDoesNotStandForTheEntry: "is the name
// already there" is strings.Contains, so a quote of the --order-scope entry
// that mentions the sibling option --order-scope-level (pytest-order's
// configuration page has both) counts as naming --order-scope, and so does
// a question holding --order-scope-level. The answer then names only the
// other option: "How do I order tests inside each module?" reads as
// answered by --order-scope-level, which orders per directory, and "Do I
// need --order-scope-level …?" reads as "yes". Suggested rule: match the
// name as a whole token (not followed or preceded by [\w-]).
func TestReview61LongerSiblingOptionDoesNotStandForTheEntry(t *testing.T) {
	t.Parallel()
	r := Extractive("How do I order tests only inside each test module?", review61Source("Configuration > --order-scope",
		"Tests are then ordered separately inside each test module or test class, depending on the value given. "+
			"To order tests separately inside each directory instead, use --order-scope-level."), 3)
	if !strings.HasPrefix(r.Answer, "--order-scope: ") {
		t.Errorf("the entry's option is not named; only its sibling --order-scope-level is:\n%s", r.Answer)
	}
	r = Extractive("Do I need --order-scope-level to order tests only inside each test module?", review61Source("Configuration > --order-scope",
		"Tests are then ordered separately inside each test module or test class, depending on the value given."), 3)
	if !strings.HasPrefix(r.Answer, "--order-scope: ") {
		t.Errorf("the question's --order-scope-level hid the entry's own option:\n%s", r.Answer)
	}
}

// TestReview61ShortOptionInsideAWord: the same substring test makes a short
// option heading ("-n", pytest-xdist style) count as written whenever the
// quote has a hyphenated word holding it ("non-negative", "per-test" for
// "-t", …): the quote is answered without the option, while the same quote
// saying "positive" is named. Suggested rule: whole-token match.
func TestReview61ShortOptionInsideAWord(t *testing.T) {
	t.Parallel()
	r := Extractive("How can I run my tests on several CPUs at once?", review61Source("Command-line options > -n",
		"Distributes the tests across the given number of worker processes, which run on several CPUs at once; the value is a non-negative integer or auto."), 3)
	if !strings.HasPrefix(r.Answer, "-n: ") {
		t.Errorf("\"non-negative\" hid the -n option the entry is headed by:\n%s", r.Answer)
	}
}

// TestReview61QuestionSayingVersionOrAddedStillNamesTheEntry: withEntryName
// runs only when asksRelease does not match, and asksRelease matches any
// question with "version", "added", "removed", "deprecated" … as words. A
// how-do-I question about the Python version mypy checks against, or about
// fixtures "added" to every test, takes the withRelease branch, which finds
// no release heading and writes nothing: the setting (mypy's
// python_version, exactly the heading-only case the commit targets) is
// never named. Suggested rule: when withRelease writes no release, fall
// through to withEntryName.
func TestReview61QuestionSayingVersionOrAddedStillNamesTheEntry(t *testing.T) {
	t.Parallel()
	r := Extractive("How do I type-check my code against an older Python version than the one mypy runs under?",
		review61Source("The mypy configuration file > python_version",
			"Specifies the Python version used to parse and check the target program. The string should be in the format MAJOR.MINOR, for example 2.7. "+
				"The default is the version of the Python interpreter used to run mypy."), 3)
	if !strings.HasPrefix(r.Answer, "python_version: ") {
		t.Errorf("\"version\" in the question suppressed the setting's name:\n%s", r.Answer)
	}
	r = Extractive("How do I make a fixture get added to every test automatically?", review61Source("Configuration > AUTOUSE_FIXTURES",
		"Lists fixtures that are requested by every test, as if each test function named them as arguments."), 3)
	if !strings.HasPrefix(r.Answer, "AUTOUSE_FIXTURES: ") {
		t.Errorf("\"added\" in the question suppressed the setting's name:\n%s", r.Answer)
	}
}

// TestReview61PostgresSettingHeadingWithType: the PostgreSQL manual heads
// each setting "shared_buffers (integer)"; a chunk of one definition has
// that term as the last element of its heading path (chunk.Split on the
// manual's HTML gives "20.4. Resource Consumption > 20.4.1. Memory >
// shared_buffers (integer)"), and a later chunk of a long entry does not
// repeat the term. entryName rejects the heading for its " (integer)", so
// the answer to "what starting value for the buffer memory" says 25% but
// never which setting; the same text under "… > shared_buffers" is named.
// Suggested rule: strip a trailing parenthesised type ("(integer)",
// "(string)", "(boolean)", "(enum)", "(floating point)") before matching.
func TestReview61PostgresSettingHeadingWithType(t *testing.T) {
	t.Parallel()
	r := Extractive("What is a reasonable starting value for the buffer memory on a dedicated database server?",
		review61Source("20.4. Resource Consumption > 20.4.1. Memory > shared_buffers (integer)",
			"If you have a dedicated database server with 1GB or more of RAM, a reasonable starting value is 25% of the memory in your system. "+
				"There are some workloads where even larger settings are effective."), 3)
	if !strings.Contains(r.Answer, "shared_buffers") {
		t.Errorf("the PostgreSQL setting the entry is headed by is not named:\n%s", r.Answer)
	}
}

// TestReview61OptionHeadingWithArgument: Sphinx's option directive (and
// sphinx-argparse, click) heads an option "--order-scope=<scope>", and a
// man page's OPTIONS entries read "-O file, --output-document=file"; both
// become the last heading-path element of a chunk of one definition. The
// regexp allows no "=", "<", space or comma, so the very option pages the
// commit is about lose the name. Suggested rule: take the first long
// option of such a heading ("--order-scope", "--output-document"),
// dropping "=VALUE", "<value>" and a following argument word.
func TestReview61OptionHeadingWithArgument(t *testing.T) {
	t.Parallel()
	r := Extractive("How do I order tests only inside each test class?", review61Source("Configuration > --order-scope=<scope>",
		"With the value class, tests are ordered separately inside each test class, and tests outside of classes are ordered at module level."), 3)
	if !strings.Contains(r.Answer, "--order-scope") {
		t.Errorf("the option of a Sphinx option heading is not named:\n%s", r.Answer)
	}
	r = Extractive("How do I write the output to a file instead of standard output?", review61Source("wget(1) > OPTIONS > -O file, --output-document=file",
		"The documents will not be written to the appropriate files, but all will be concatenated together and written to file. "+
			"If - is used as file, documents will be printed to standard output."), 3)
	if !strings.Contains(r.Answer, "--output-document") {
		t.Errorf("the option of a man page's option entry is not named:\n%s", r.Answer)
	}
}

// TestReview61SingleWordSettingNames: a settings reference heads entries
// with names that have no underscore: Django's DEBUG (beside ALLOWED_HOSTS,
// which is named), Docusaurus's onBrokenLinks, tsconfig's
// strictNullChecks. The quotes never write them, so the answer says what
// to change without saying which setting. Suggested rule: an all-caps word
// of 3+ letters under a heading path naming settings/configuration/
// environment variables (not a man page's NAME, OPTIONS, DESCRIPTION …),
// and a camelCase word (lower-case start, an inner capital followed by
// lower case: onBrokenLinks, not macOS or iPhone).
func TestReview61SingleWordSettingNames(t *testing.T) {
	t.Parallel()
	r := Extractive("How do I show detailed error pages with tracebacks?", review61Source("Settings > Core settings > DEBUG",
		"A boolean that turns on/off debug mode. When it is on, detailed error pages with tracebacks are displayed."), 3)
	if !strings.HasPrefix(r.Answer, "DEBUG: ") {
		t.Errorf("Django's DEBUG setting is not named:\n%s", r.Answer)
	}
	r = Extractive("How do I make the build fail when a page links to a page that does not exist?", review61Source("docusaurus.config.js > onBrokenLinks",
		"The behavior of Docusaurus when it detects any broken link. By default, it throws an error, to ensure you never ship any broken link, "+
			"but you can lower this security if needed, so that the build does not fail on a page that links to a page that does not exist."), 3)
	if !strings.HasPrefix(r.Answer, "onBrokenLinks: ") {
		t.Errorf("the camelCase option is not named:\n%s", r.Answer)
	}
}

// TestReview61NameTheQuestionWroteInAnotherCase: the "question already
// names it" test is case-sensitive; users type setting names in lower
// case, so "What does mptt_admin_level_indent do?" is answered
// "MPTT_ADMIN_LEVEL_INDENT: The number of pixels …", repeating the name
// the user asked about (the commit's own rule says a name the question has
// is not written). Low severity. Suggested rule: compare case-insensitively
// (strings.EqualFold over tokens).
func TestReview61NameTheQuestionWroteInAnotherCase(t *testing.T) {
	t.Parallel()
	r := Extractive("What does mptt_admin_level_indent do?", review61Source("Settings > MPTT_ADMIN_LEVEL_INDENT",
		"The number of pixels each tree level is indented by in the admin change list."), 3)
	if strings.HasPrefix(r.Answer, "MPTT_ADMIN_LEVEL_INDENT:") {
		t.Errorf("the setting the question names is written again:\n%s", r.Answer)
	}
}
