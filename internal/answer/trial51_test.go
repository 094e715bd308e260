package answer

import (
	"strings"
	"testing"
)

// statsSource is Hypothesis's "Test statistics" section as extraction
// gives it: two examples, each a program and, under "You would see:",
// what it prints (a list of "- during generate phase …" lines, no log by
// outputBlock's measure).
func statsSource() Source {
	var b spanned
	b.WriteString("Test statistics\n\nIf you are using pytest you can see a number of statistics about the executed tests by passing the command line argument --hypothesis-show-statistics. " +
		"This will include some general statistics about the test:\n\nFor example if you ran the following with --hypothesis-show-statistics:\n\n")
	b.code("from hypothesis import given, strategies as st\n\n\n@given(st.integers())\ndef test_integers(i):\n    pass")
	b.WriteString("You would see:\n\n")
	b.code("- during generate phase (0.06 seconds):\n    - Typical runtimes: < 1ms, ~ 47% in data generation\n    - 100 passing examples, 0 failing examples, 0 invalid examples\n- Stopped because settings.max_examples=100")
	b.WriteString("The final “Stopped because” line is particularly important to note: It tells you the setting value that determined when the test should stop trying new examples. " +
		"This can be useful for understanding the behaviour of your tests. Ideally you’d always want this to be max_examples.\n\n" +
		"In some cases (such as filtered and recursive strategies) you will see events mentioned which describe some aspect of the data generation:\n\n")
	b.code("from hypothesis import given, strategies as st\n\n\n@given(st.integers().filter(lambda x: x % 2 == 0))\ndef test_even_integers(i):\n    pass")
	b.WriteString("You would see something like:\n\n")
	b.code("test_even_integers:\n\n  - during generate phase (0.08 seconds):\n      - Typical runtimes: < 1ms, ~ 57% in data generation\n      - 100 passing examples, 0 failing examples, 12 invalid examples\n" +
		"      - Events:\n        * 51.79%, Retried draw from integers().filter(lambda x: x % 2 == 0) to satisfy filter\n  - Stopped because settings.max_examples=100")
	return Source{N: 1, Title: "Details and advanced features", HeadingPath: "Details and advanced features > Test statistics", Content: b.String(), Code: b.spans}
}

// spanned builds a source's content with its code spans, as extraction
// gives them.
type spanned struct {
	strings.Builder
	spans []Span
}

// code adds text as a code span and a blank line.
func (b *spanned) code(text string) {
	start := b.Len()
	b.WriteString(text)
	b.spans = append(b.spans, Span{Start: start, End: b.Len()})
	b.WriteString("\n\n")
}

// TestSeenOutputIsOutput: a code block under "You would see:" or "you
// should see something like:" is what a program prints, whatever its
// shape; one under "For example if you ran the following with …:" is the
// program.
func TestSeenOutputIsOutput(t *testing.T) {
	t.Parallel()
	s := statsSource()
	us := parseTitledUnits(s.Content, s.HeadingPath, nil, s.Code...)
	var programs, outputs int
	for _, u := range us {
		if u.kind != unitCode {
			continue
		}
		if u.output {
			outputs++
			if strings.Contains(u.text, "@given") {
				t.Errorf("the program %q read as output", u.text)
			}
		} else {
			programs++
			if strings.Contains(u.text, "passing examples") {
				t.Errorf("the printed statistics %q read as code", u.text)
			}
		}
	}
	if programs != 2 || outputs != 2 {
		t.Errorf("%d programs and %d outputs, want 2 and 2", programs, outputs)
	}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"You would see:", true},
		{"You should see something like:", true},
		{"Running it, you’ll see:", true},
		{"This prints:", true},
		{"The output is:", true},
		{"The following example shows this:", false},
		{"The following code prints the list:", false},
		{"You can see the statistics by running:", false},
		{"In some cases you will see events mentioned which describe some aspect of the data generation:", false},
		{"For example if you ran the following with --hypothesis-show-statistics:", false},
	} {
		if got := seesOutput.MatchString(c.s); got != c.want {
			t.Errorf("seesOutput(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestWhichOptionQuotesTheOption: "Which pytest option prints statistics
// like passing examples and time spent generating data?" was answered
// with the second example's sentences and what it prints ("data
// generation", "passing examples"), not the sentence naming the option.
func TestWhichOptionQuotesTheOption(t *testing.T) {
	t.Parallel()
	r := Extractive("Which pytest option prints statistics like passing examples and time spent generating data?", []Source{statsSource()}, 3)
	if !strings.Contains(r.Answer, "--hypothesis-show-statistics") || !strings.HasPrefix(r.Answer, "If you are using pytest") {
		t.Errorf("answer %q: want the sentence naming --hypothesis-show-statistics first", r.Answer)
	}
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"Which pytest option prints statistics?", true},
		{"What flag makes git push skip hooks?", true},
		{"What is option --foo for?", false},
		{"Which options does the command take?", false},
	} {
		if got := asksWhichOption(c.q); got != c.want {
			t.Errorf("asksWhichOption(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// TestSuchAsIsNoBackReference: "If upstream does not use a normal
// versioning scheme such as 2.30.32 …" refers to nothing before it ("such
// as" gives examples); read as a back-reference, it brought the unrelated
// paragraph above it ("In order to avoid name collisions, …") into the
// answer. A condition holding "such" before a noun still leans on the
// sentence before ("If such a file exists, …").
func TestSuchAsIsNoBackReference(t *testing.T) {
	t.Parallel()
	c := "Package name and version\n\nYou must adjust the package name and upstream version accordingly for the Debian packaging.\n\n" +
		"In order to manage the package name and version information effectively under popular tools such as the aptitude command, it is a good idea to keep the length of package name to be equal or less than 30 characters; and the total length of version and revision to be equal or less than 14 characters.\n\n" +
		"In order to avoid name collisions, the user visible binary package name should not be chosen from any generic words.\n\n" +
		"If upstream does not use a normal versioning scheme such as 2.30.32 but uses some kind of date such as 11Apr29, a random codename string, or a VCS hash value as part of the version, " +
		"make sure to remove them from the upstream version. Such information can be recorded in the debian/changelog file. " +
		"If you need to invent a version string, use the YYYYMMDD format such as 20110429 as upstream version.\n"
	r := Extractive("Upstream versions its releases with dates like 11Apr29; what version string should I use for the Debian package?",
		[]Source{{N: 1, Title: "Basics", HeadingPath: "Basics > Package name and version", Content: c}}, 3)
	if !strings.HasPrefix(r.Answer, "If upstream does not use") {
		t.Errorf("answer %q: want it to open with the sentence about dates", r.Answer)
	}
	if opensWithBackReference("If upstream uses a scheme such as 2.30.32, keep it.") || !opensWithBackReference("If such a file exists, it is read first.") {
		t.Error(`"such as" read as a back-reference, or "such a" not`)
	}
}

// TestLongCodeShowsTheLineAsked: a long example cut after its first lines
// lost the line the question asked about (structlog's dict_tracebacks
// processor under "# Also print structured tracebacks."); the cut keeps
// the first lines and shows the lines around the one holding the
// question's terms the first lines lack.
func TestLongCodeShowsTheLineAsked(t *testing.T) {
	t.Parallel()
	intro := "Pretty Printing vs. Structured Output\n\nIn production you should emit structured output (like JSON). You can even generate structured exception tracebacks. " +
		"This makes analyzing errors easier, since log aggregators can render JSON much better than multiline strings.\n\n" +
		"Here is a simple example of how you can have pretty logs during development and JSON output when your app is running in a production context:\n\n"
	code := ">>> import sys\n>>> import structlog\n>>>\n>>> shared_processors = [\n...     # Processors that have nothing to do with output,\n...     # e.g., add timestamps or log level names.\n... ]\n" +
		">>> if sys.stderr.isatty():\n...     # Pretty printing when we run in a terminal session.\n...     # Automatically prints pretty tracebacks when \"rich\" is installed\n" +
		"...     processors = shared_processors + [\n...         structlog.dev.ConsoleRenderer(),\n...     ]\n... else:\n...     # Print JSON when we run, e.g., in a Docker container.\n" +
		"...     # Also print structured tracebacks.\n...     processors = shared_processors + [\n...         structlog.processors.dict_tracebacks,\n" +
		"...         structlog.processors.JSONRenderer(),\n...     ]\n>>> structlog.configure(processors)\n>>> log = structlog.get_logger()\n>>> log.info(\"hello\")"
	var b spanned
	b.WriteString(intro)
	b.code(code)
	src := Source{N: 1, Title: "Logging Best Practices", HeadingPath: "Logging Best Practices > Pretty Printing vs. Structured Output", Content: b.String(), Code: b.spans}
	r := Extractive("How do I get exceptions logged as structured JSON tracebacks instead of one long multiline string?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "structlog.processors.dict_tracebacks") {
		t.Errorf("answer %q: want the dict_tracebacks line", r.Answer)
	}
	if !strings.Contains(r.Answer, ">>> import sys") {
		t.Errorf("answer %q: want the example's first lines kept", r.Answer)
	}
}

// TestPassageStaysInItsEntry: psycopg2's parse_dsn() entry ends with "See
// also" above "libpq docs for PQconninfoParse()."; a passage opening
// there ran on into quote_ident()'s definition, which was quoted as how
// to parse a connection string into a dict.
func TestPassageStaysInItsEntry(t *testing.T) {
	t.Parallel()
	c := "psycopg2.extensions – Extensions to the DB API\n\n" +
		"psycopg2.extensions.make_dsn(dsn=None, **kwargs)\nCreate a valid connection string from arguments.\n\nNew in version 2.7.\n\n" +
		"psycopg2.extensions.parse_dsn(dsn)\nParse connection string into a dictionary of keywords and values.\n\n" +
		"Parsing is delegated to the libpq: different versions of the client library may support different formats or parameters (for example, connection URIs are only supported from libpq 9.2). Raise ProgrammingError if the dsn is not valid.\n\n" +
		"New in version 2.7.\n\nSee also\n\nlibpq docs for PQconninfoParse().\n\n" +
		"psycopg2.extensions.quote_ident(str, scope)\nReturn quoted identifier according to PostgreSQL quoting rules.\n\n" +
		"The scope must be a connection or a cursor, the underlying connection encoding is used for any necessary character conversion.\n\nNew in version 2.7.\n"
	r := Extractive("How can I split a libpq connection string or a postgresql:// URI into a dict of its parameters?",
		[]Source{{N: 1, Title: "psycopg2.extensions", HeadingPath: "psycopg2.extensions – Extensions to the DB API", Content: c}}, 3)
	if strings.Contains(r.Answer, "quote_ident") || !strings.Contains(r.Answer, "parse_dsn") {
		t.Errorf("answer %q: want parse_dsn's entry, not quote_ident's", r.Answer)
	}
}

// TestAnyOptionIsNotTheAskedOne (a review's case): "Which storage option
// keeps sessions fastest?" asks for a kind of storage; a sentence naming
// an unrelated command-line option (--nothreading) is no answer to it.
func TestAnyOptionIsNotTheAskedOne(t *testing.T) {
	t.Parallel()
	c := "Sessions\n\nThe cache backend keeps sessions in memory and is the fastest way to store sessions. The database backend is the default.\n\n" +
		"Start the development server with --nothreading to keep sessions in one thread when debugging them.\n"
	r := Extractive("Which storage option keeps sessions fastest?", []Source{{N: 1, Title: "Sessions", HeadingPath: "Sessions", Content: c}}, 3)
	if !strings.HasPrefix(r.Answer, "The cache backend") {
		t.Errorf("answer %q: want the cache backend sentence first", r.Answer)
	}
}

// TestProgramAfterOutputIsCode (a review's case): a program in a code
// block of its own right under a printed output is a program (joined to
// the output as one block, the block is code); only the rest of the same
// block, cut by a blank line, goes on with the output.
func TestProgramAfterOutputIsCode(t *testing.T) {
	t.Parallel()
	var b spanned
	b.WriteString("Settings\n\nYou would see:\n\n")
	b.code("test_even_integers:\n\n  - during generate phase (0.08 seconds):\n      - 100 passing examples")
	b.code("from hypothesis import given, settings\n\n@settings(max_examples=500)\n@given(st.integers())\ndef test_more(i):\n    pass")
	us := parseTitledUnits(b.String(), "Settings", nil, b.spans...)
	for _, u := range us {
		if u.kind == unitCode && strings.Contains(u.text, "max_examples=500") && u.output {
			t.Errorf("the program %q read as output", u.text)
		}
	}
}

// TestSplitKeepsWhatBelongsToTheSentence: a parenthesis after a
// paragraph's last full stop ("… than random PBT. (Löscher and
// Sagonas)") is that sentence's (split off, it opened the next
// paragraph's sentence in an answer: "(Löscher and Sagonas) [2] This is
// not always a good idea …"), and so is a list of quoted values after a
// full stop ("on_redefinition (str) – action to take in case a unit is
// redefined. ‘warn’, ‘raise’, ‘ignore’": the answer to which values the
// option accepts stopped before them). A parenthesis or a quoted value
// opening a sentence of its own opens that sentence.
func TestSplitKeepsWhatBelongsToTheSentence(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, last string
		n          int
	}{
		{"This explores the input space more effectively than random PBT. (Löscher and Sagonas)", "random PBT. (Löscher and Sagonas)", 1},
		{"on_redefinition (str) – action to take in case a unit is redefined. ‘warn’, ‘raise’, ‘ignore’", "‘warn’, ‘raise’, ‘ignore’", 1},
		{"Configure the proxy first. (Optional) Set a timeout.", "Set a timeout.", 2},
		{"Set the mode. 'fast' is the default.", "is the default.", 2},
	} {
		got := splitUnit(c.text)
		if len(got) != c.n || !strings.HasSuffix(got[len(got)-1], c.last) {
			t.Errorf("splitUnit(%q) = %q, want %d units, the last ending %q", c.text, got, c.n, c.last)
		}
	}
}

// TestReportingVerbsAreNoTerms: "A bug against my package says FTBFS …,
// what does that abbreviation stand for?" matched "(say, if it is an old
// compatibility library …)" through "says", a rare word there, and the
// sentence saying what FTBFS means was left out of the answer.
func TestReportingVerbsAreNoTerms(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"say", "says", "said", "saying"} {
		if got := terms(w); len(got) != 0 {
			t.Errorf("terms(%q) = %q, want none", w, got)
		}
	}
	removal := Source{N: 1, Title: "Handling packages", HeadingPath: "Handling packages > Removing packages", Content: "Removing packages\n\n" +
		"If for some reason you want to completely remove a package (say, if it is an old compatibility library which is no longer required), " +
		"you need to file a bug against ftp.debian.org asking that the package be removed; as with all bugs, this bug should normally have normal severity. " +
		"The bug title should be in the form RM: package [architecture list] -- reason.\n"}
	bugs := Source{N: 2, Title: "Handling packages", HeadingPath: "Handling packages > Responding to bugs", Content: "Responding to bugs\n\n" +
		"When responding to bugs, make sure that any discussion you have about bugs is sent to the original submitter of the bug. " +
		"If you get a bug which mentions FTBFS, this means Fails to build from source. Porters frequently use this acronym.\n"}
	r := Extractive("A bug against my package says FTBFS on some architecture, what does that abbreviation stand for?", []Source{removal, bugs}, 3)
	if !strings.Contains(r.Answer, "Fails to build from source") {
		t.Errorf("answer %q: want the sentence saying what FTBFS means", r.Answer)
	}
}

// TestAnnouncedEntriesFollow: "Each processors receives three positional
// arguments:" above three entries (logger, method_name, event_dict, each
// a term and its description) was answered with the first entry alone.
func TestAnnouncedEntriesFollow(t *testing.T) {
	t.Parallel()
	c := "Processors\n\nThe true power of structlog lies in its combinable log processors. A log processor is a regular callable, i.e. a function or an instance of a class with a __call__() method.\n\n" +
		"Chains\n\nThe processor chain is a list of processors. Each processors receives three positional arguments:\n\n" +
		"logger\nYour wrapped logger object. For example logging.Logger or structlog.typing.FilteringBoundLogger (default).\n\n" +
		"method_name\nThe name of the wrapped method. If you called log.warning(\"foo\"), it will be \"warning\".\n\n" +
		"event_dict\nCurrent context together with the current event. If the context was {\"a\": 42} and the event is \"foo\", the initial event_dict will be {\"a\":42, \"event\": \"foo\"}.\n\n" +
		"The return value of each processor is passed on to the next one as event_dict until finally the return value of the last processor gets passed into the wrapped logging method.\n"
	r := Extractive("What arguments get passed to a processor function when it is called?", []Source{{N: 1, Title: "Processors", HeadingPath: "Processors", Content: c}}, 3)
	for _, w := range []string{"logger: Your wrapped logger object", "method_name: The name of the wrapped method", "event_dict: Current context"} {
		if !strings.Contains(r.Answer, w) {
			t.Errorf("answer %q: want %q", r.Answer, w)
		}
	}
}
