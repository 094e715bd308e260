package answer

import (
	"strings"
	"testing"
)

// TestAutodocBasesIsNoDefinition: Sphinx autodoc's "Bases: Exception"
// under a class's signature is not what the class is; the description
// after it is the definition the class's entry opens with ("class
// LoopExit: Bases: Exception" was the whole answer to what LoopExit means).
func TestAutodocBasesIsNoDefinition(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "hub", HeadingPath: "hub > Exceptions",
		Content: "Exceptions\n\nclass LoopExit\nBases: Exception\n\nException thrown when the hub finishes running.\n\n" +
			"In a normal application, this is never thrown or caught explicitly.\n\nproperty hub\nThe hub that raised the error."}
	r := Extractive("What does a LoopExit exception mean?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "class LoopExit: Exception thrown when the hub finishes running") {
		t.Errorf("answer %q: want the class's description as its definition", r.Answer)
	}
	if strings.Contains(r.Answer, "Bases:") {
		t.Errorf("answer %q: quotes the base classes as the definition", r.Answer)
	}
}

// TestBesideQuotedInsideTheEntry: when the passage opens a definition
// entry, a later sentence of the same entry holding a question term the
// passage lacks is quoted beside it even though the head's evidence,
// credited for the defined term, is more than twice its own; it is quoted
// from after the passage, not with the entry's head again. A sentence of
// the next entry is not.
func TestBesideQuotedInsideTheEntry(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "hub", HeadingPath: "hub > Exceptions",
		Content: "Exceptions\n\nclass LoopExit\nBases: Exception\n\nException thrown when the hub finishes running.\n\n" +
			"In a normal application, this is never thrown or caught explicitly.\n\n" +
			"Errors in application programming can also lead to this exception being raised.\n\n" +
			"class BlockingSwitchOutError\nBases: AssertionError\n\nRaised when a blocking function is called from a callback. Such a mistake is caught in tests.\n\n" +
			"property loop\nThe event loop the hub runs. It is created on first use.\n\n" +
			"property threadpool\nThe pool of native threads. Its size is set by the configuration."}
	r := Extractive("What does a LoopExit exception mean and what kinds of programming mistakes can cause it?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "class LoopExit: Exception thrown when the hub finishes running") {
		t.Fatalf("answer %q: want LoopExit's entry", r.Answer)
	}
	if !strings.Contains(r.Answer, "Errors in application programming can also lead to this exception being raised [1].") {
		t.Errorf("answer %q: want the entry's sentence on programming errors beside the passage", r.Answer)
	}
	if strings.Count(r.Answer, "class LoopExit") != 1 {
		t.Errorf("answer %q: quotes the entry's head twice", r.Answer)
	}
	if strings.Contains(r.Answer, "BlockingSwitchOutError") || strings.Contains(r.Answer, "Such a mistake") {
		t.Errorf("answer %q: quotes the next entry", r.Answer)
	}
}
