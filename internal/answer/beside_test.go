package answer

import (
	"strings"
	"testing"
)

// TestBesideQuotedSaysWhatThePassageLacks: the best passage holds the
// question's generic words, and the sentence that answers sits further
// down its source holding a question term the passage lacks; it is quoted
// after the passage, cited with the same number, the source cited once.
// A sentence further down that adds no question term is not quoted.
func TestBesideQuotedSaysWhatThePassageLacks(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "Runtime", HeadingPath: "Runtime > Context variables",
		Content: "Context variables\n\n" +
			"Every template function pulls the variables it references from the context dictionary that render() was passed. " +
			"This is how a template can reference variable names that correspond to what was passed to render().\n\n" +
			"Compiled modules are cached on disk between runs. They are rebuilt when their source changes.\n\n" +
			"Referencing a name that is absent from the context gives back the special value MISSING, which raises an error when printed."}
	other := Source{N: 2, Title: "Caching", HeadingPath: "Caching",
		Content: "Caching\n\nCompiled templates are written to a module directory. A template variable passed to render() is never cached."}
	q := "What value does a template variable get when it was never passed to render()?"
	r := Extractive(q, []Source{src, other}, 2)
	if !strings.Contains(r.Answer, "pulls the variables it references") {
		t.Fatalf("answer %q: want the passage holding the question's words first", r.Answer)
	}
	if !strings.Contains(r.Answer, "special value MISSING, which raises an error when printed [1].") {
		t.Errorf("answer %q: want the sentence naming the value quoted beside the passage", r.Answer)
	}
	if i, j := strings.Index(r.Answer, "special value MISSING"), strings.Index(r.Answer, "is never cached"); j >= 0 && i > j {
		t.Errorf("answer %q: want the passage's own source's sentence before the other source's", r.Answer)
	}
	if strings.Contains(r.Answer, "cached on disk") {
		t.Errorf("answer %q: a sentence adding no question term is quoted", r.Answer)
	}
	if len(r.Citations) == 0 || r.Citations[0].N != 1 {
		t.Fatalf("citations %+v: want source 1 first", r.Citations)
	}
	n := 0
	for _, c := range r.Citations {
		if c.N == 1 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("citations %+v: source 1 cited %d times, want once", r.Citations, n)
	}
}

// TestBesideQuotedStaysInItsEntry: no sentence of another entry of a list
// of options is quoted beside the passage, its first or a later one: the
// --delete entry's "Asks for confirmation …" answered a question about
// --force. A beside sentence reads right after the passage, before other
// sources' sentences.
func TestBesideQuotedStaysInItsEntry(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "synctool", HeadingPath: "synctool > Options",
		Content: "Options\n\n" +
			"- --force: overwrite changed files on the target. Skips the confirmation prompt. Use it with care on shared folders.\n" +
			"- --dry-run: print what would be copied. Nothing is written.\n" +
			"- --delete: remove files from the target that no longer exist in the source. Asks for confirmation before it removes more than a hundred files."}
	r := Extractive("Does --force ask for confirmation before overwriting more than a hundred files?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "overwrite changed files on the target") {
		t.Errorf("answer %q: want --force's entry", r.Answer)
	}
	if strings.Contains(r.Answer, "Asks for confirmation") || strings.Contains(r.Answer, "--delete") {
		t.Errorf("answer %q: quotes another entry", r.Answer)
	}
}

// TestBesideQuotedStandsAlone: a sentence of the passage's section that
// holds a question term the passage lacks but turns against the sentence
// before it ("However, …") is quoted beside the passage without that
// sentence: the claim it turns against is not what the question asked
// (the demo's effective_io_concurrency answer added "(For RAID 5 the
// parity drive should not be counted.) However, if the database is often
// busy with multiple queries issued in concurrent sessions, …"), and the
// contrast may be the answer ("However, on Windows the timeout is rounded
// up to whole seconds."). A sentence going on about its subject is quoted
// with what it goes on from.
func TestBesideQuotedStandsAlone(t *testing.T) {
	t.Parallel()
	entry := "prefetch_depth (integer): Sets the number of concurrent disk reads that the server expects can run at once. " +
		"Raising it makes each session start more reads in parallel.\n\n" +
		"For spinning drives, a good start is the number of drives in the stripe. " +
		"(Parity drives are not counted.) "
	q := "How many concurrent disk reads can the server issue, and which setting controls it?"
	leaning := entry + "However, when many queries are issued in concurrent sessions, lower values may keep the disks busy."
	r := Extractive(q, []Source{{N: 1, Title: "Resources", HeadingPath: "Resources > Prefetching", Content: "Prefetching\n\n" + leaning}}, 2)
	if !strings.Contains(r.Answer, "prefetch_depth (integer): Sets the number of concurrent disk reads") {
		t.Fatalf("answer %q: want the setting's entry", r.Answer)
	}
	if strings.Contains(r.Answer, "Parity drives") {
		t.Errorf("answer %q: quotes the claim the beside sentence turns against", r.Answer)
	}
	if !strings.Contains(r.Answer, "However, when many queries are issued in concurrent sessions") {
		t.Errorf("answer %q: want the contrasting sentence quoted alone", r.Answer)
	}
	timeout := "Timeouts\n\nread_timeout (seconds): Sets how long the client waits for a response before it gives up. Raising it helps on slow links.\n\n" +
		"A value of 0 disables the timeout. However, on Windows the timeout is rounded up to whole seconds."
	r = Extractive("Is read_timeout rounded on Windows?", []Source{{N: 1, Title: "Client", HeadingPath: "Client > Timeouts", Content: timeout}}, 2)
	if !strings.Contains(r.Answer, "on Windows the timeout is rounded up to whole seconds") {
		t.Errorf("answer %q: want the contrasting sentence that answers", r.Answer)
	}
}

// TestBesideQuotedNamedEntry: another entry of the passage's list that the
// question names by what it defines ("overwrite it or skip existing
// files") is quoted beside the passage; one the question does not name
// (--force's neighbour --delete) is not, nor is the class whose signature
// holds the parameter the passage defines.
func TestBesideQuotedNamedEntry(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "Command Line Options", HeadingPath: "Command Line Options",
		Content: "Command Line Options\n\n" +
			"-V, --version\nShow the version and exit.\n\n" +
			"-s, --skip-if-file-exists\nSkip the files in the corresponding directories if they already exist.\n\n" +
			"-f, --overwrite-if-exists\nOverwrite the contents of the output directory if it already exists.\n\n" +
			"--delete\nRemove generated files that no longer exist in the template."}
	r := Extractive("The output directory already exists: should I overwrite it or skip existing files, and which flags do that?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "--skip-if-file-exists") || !strings.Contains(r.Answer, "--overwrite-if-exists: Overwrite the contents") {
		t.Errorf("answer %q: want both named options' entries", r.Answer)
	}
	if strings.Contains(r.Answer, "--delete") {
		t.Errorf("answer %q: quotes an entry the question does not name", r.Answer)
	}
}
