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
		Content: "Caching\n\nCompiled templates are written to a module directory."}
	q := "What value does a template variable get when it was never passed to render()?"
	r := Extractive(q, []Source{src, other}, 2)
	if !strings.Contains(r.Answer, "pulls the variables it references") {
		t.Fatalf("answer %q: want the passage holding the question's words first", r.Answer)
	}
	if !strings.Contains(r.Answer, "special value MISSING, which raises an error when printed [1].") {
		t.Errorf("answer %q: want the sentence naming the value quoted beside the passage", r.Answer)
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
