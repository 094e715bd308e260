package answer

import (
	"strings"
	"testing"
)

// numberedCaption names "Example 7.1. Creating a table" and "Figure 4-4.
// Representation …" (DocBook's, AsciiDoc's and O'Reilly's form: a full
// stop after the number) among the captions never quoted alone. But
// splitUnit cuts such a caption after its number ("Listing 15-4." and
// "The error we get …"), and the regexp wants a blank after the mark, so
// neither half is a caption: the caption's text alone is still the whole
// answer, the failure the change fixed for the colon form ("Listing
// 15-4: The error we get when attempting to define a recursive enum").
func TestHR43CaptionWithFullStopIsNotQuotedAlone(t *testing.T) {
	t.Parallel()
	recursive := []Source{{ChunkID: "b", SourceURI: "box.html", Title: "Box", HeadingPath: "Box > Recursive Types",
		Content: "A value of recursive type can have another value of the same type as part of itself.\n\n" +
			"```\nenum List {\n    Cons(i32, List),\n    Nil,\n}\n```\n\n" +
			"Listing 15-4. The error we get when attempting to define a recursive enum with a cons list\n\n" +
			"Because a Box<T> is a pointer, Rust always knows how much space a Box<T> needs, so we can define a cons list with Box<List> as the recursive part."}}
	r := Extractive("Why do I get an error when I define a recursive enum as a cons list?", recursive, 0)
	if strings.Contains(r.Answer, "The error we get when attempting") && !strings.Contains(r.Answer, "Cons(i32, List)") {
		t.Errorf("answer quotes the caption without its code:\n%s", r.Answer)
	}
}
