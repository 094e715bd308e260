package answer

import (
	"strings"
	"testing"
)

// A numbered listing's caption is no answer alone ("Listing 15-4: The
// error we get when attempting to define a recursive enum" was the whole
// answer to how to define one); under its code it is quoted with the
// code, whose words it gives ("Listing 8-24: Using the entry method to
// only insert if the key does not already have a value").
func TestExtractiveQuotesCaptionsOnlyWithTheirCode(t *testing.T) {
	t.Parallel()
	hashMap := []Source{{ChunkID: "a", SourceURI: "maps.html", Title: "Hash Maps", HeadingPath: "Hash Maps > Adding a Key and Value",
		Content: "It's common to check whether a particular key already exists in the hash map with a value. " +
			"If the key doesn't exist, insert it and a value for it.\n\n" +
			"Using the entry API, the code looks like Listing 8-24.\n\n" +
			"```\nlet mut scores = HashMap::new();\nscores.entry(String::from(\"Yellow\")).or_insert(50);\n```\n\n" +
			"Listing 8-24: Using the entry method to only insert if the key does not already have a value\n\n" +
			"The or_insert method on Entry returns a mutable reference to the value."}}
	r := Extractive("How do I insert a value into a HashMap only if the key isn't already there?", hashMap, 0)
	if !strings.Contains(r.Answer, "or_insert(50)") {
		t.Errorf("answer without the captioned code:\n%s", r.Answer)
	}
	recursive := []Source{{ChunkID: "b", SourceURI: "box.html", Title: "Box", HeadingPath: "Box > Recursive Types",
		Content: "A value of recursive type can have another value of the same type as part of itself.\n\n" +
			"```\nenum List {\n    Cons(i32, List),\n    Nil,\n}\n```\n\n" +
			"Listing 15-4: The error we get when attempting to define a recursive enum with a cons list\n\n" +
			"Because a Box<T> is a pointer, Rust always knows how much space a Box<T> needs, so we can define a cons list with Box<List> as the recursive part."}}
	r = Extractive("Why do I get an error when I define a recursive enum as a cons list?", recursive, 0)
	if strings.HasPrefix(r.Answer, "Listing 15-4") || strings.Contains(r.Answer, "Listing 15-4") && !strings.Contains(r.Answer, "Cons(i32, List)") {
		t.Errorf("answer opens with the caption or quotes it without its code:\n%s", r.Answer)
	}
}
