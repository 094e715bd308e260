package answer

import (
	"slices"
	"strings"
	"testing"
)

// treeProcessors is the section of Python-Markdown's extension API page
// that says what a tree processor is, with its pseudo example.
func treeProcessors() []Source {
	return []Source{{
		N:           1,
		HeadingPath: "Extension API > Writing Extensions > Phases of processing > Tree processors",
		Content: "Tree processors\n\n" +
			"Tree processors manipulate the tree created by block processors. They can even create an entirely new ElementTree object. " +
			"This is an excellent place for creating summaries, adding collected references, or last minute adjustments.\n\n" +
			"A tree processor must inherit from markdown.treeprocessors.Treeprocessor (note the capitalization). " +
			"A tree processor must implement a run method which takes a single argument root.\n\n" +
			"Example\n\nA pseudo example:\n\n" +
			"from markdown.treeprocessors import Treeprocessor\n\n" +
			"class MyTreeprocessor(Treeprocessor):\n    def run(self, root):\n        root.text = 'modified content'\n\n" +
			"Usages\n\nThe core InlineProcessor class is a tree processor. It walks the tree, matches patterns, and splits and creates nodes on matches.",
	}}
}

// TestExtractiveCompoundIsOneThing: the words of a question ("tree
// processor") and the same compound written whole in code (Treeprocessor)
// are one term, not three: counted apart, the pseudo example, holding the
// joined word besides a sentence with the two words, outscored the
// sentence that says what a tree processor is.
func TestExtractiveCompoundIsOneThing(t *testing.T) {
	t.Parallel()
	r := Extractive("What is a tree processor?", treeProcessors(), 0)
	if !strings.HasPrefix(r.Answer, "Tree processors manipulate the tree created by block processors [1].") {
		t.Errorf("Answer =\n%s\nwant the sentence that says what tree processors do first", r.Answer)
	}
	if strings.Contains(r.Answer, "class MyTreeprocessor") {
		t.Errorf("Answer =\n%s\nquotes the pseudo example for a question asking what the thing is", r.Answer)
	}
}

// TestExtractiveDefinitionGoesOnToItsNextSentence: a one-sentence answer to
// what something is goes on to the next sentence of its paragraph when
// that one refers back to it ("They can even create …"): a definition
// rarely ends at its first sentence. A question asking how does not.
func TestExtractiveDefinitionGoesOnToItsNextSentence(t *testing.T) {
	t.Parallel()
	r := Extractive("What are tree processors?", treeProcessors(), 0)
	want := "Tree processors manipulate the tree created by block processors [1]. They can even create an entirely new ElementTree object [1]."
	if !strings.HasPrefix(r.Answer, want) {
		t.Errorf("Answer =\n%s\nwant it to open with\n%s", r.Answer, want)
	}
	for _, q := range []string{"What is a tree processor?", "What's a tree processor?", "what does tree processor mean", "Define tree processor."} {
		if !asksDefinition.MatchString(q) {
			t.Errorf("asksDefinition(%q) = false", q)
		}
	}
	for _, q := range []string{"How do I write a tree processor?", "Which tree processors are built in?", "Is a tree processor what I need?"} {
		if asksDefinition.MatchString(q) {
			t.Errorf("asksDefinition(%q) = true", q)
		}
	}
}

// TestLinkedCompoundIsAName: two words of a question that a document
// writes joined by a hyphen or an underscore (line-length, primary_key)
// are a name, and the joined word stays a term of its own, as a
// setting's or option's name; written solid (Treeprocessor), the compound
// is the same two words.
func TestLinkedCompoundIsAName(t *testing.T) {
	t.Parallel()
	docs := [][]unit{parseUnits("In pyproject.toml, line-length = 88 sets the limit.", ""), parseUnits("A Treeprocessor changes the tree.", "")}
	q := questionTerms("What is the key for the line length of a tree processor?", docs)
	if !slices.Contains(q, "linelength") {
		t.Errorf("questionTerms = %q, want the hyphenated compound's joined word", q)
	}
	if slices.Contains(q, "treeprocessor") {
		t.Errorf("questionTerms = %q, want no term for the compound written solid", q)
	}
}
