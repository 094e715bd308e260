package answer

import (
	"strings"
	"testing"
)

// TestHowQuestionReachesTheMeans: asked how, the answer quoted the
// sentence that restates the asker's situation and stopped two sentences
// short of what to use. A passage of prose giving no means goes on to the
// next sentence of its section, within two, that gives one.
func TestHowQuestionReachesTheMeans(t *testing.T) {
	t.Parallel()
	content := "Inconsistent encodings\n\n" +
		"Sometimes a document is mostly in UTF-8, but contains Windows-1252 characters such as (again) Microsoft smart quotes. " +
		"This can happen when a website includes data from multiple sources. " +
		"You can use UnicodeDammit.detwingle() to turn such a document into pure UTF-8.\n\n" +
		"Beautiful Soup assumes that a document has a single encoding, whatever it might be."
	src := Source{N: 1, Title: "Beautiful Soup Documentation", HeadingPath: "Beautiful Soup Documentation > Encodings",
		Content: content, Titles: []string{"Inconsistent encodings"}}
	q := "My page is mostly UTF-8 but has some Windows-1252 smart quotes mixed in. How do I clean it up?"
	r := Extractive(q, []Source{src}, 1)
	if !strings.Contains(r.Answer, "detwingle()") {
		t.Errorf("answer %q: want the sentence naming what to use", r.Answer)
	}
	// A question that does not ask how gets the statement alone.
	r = Extractive("Which characters can a mostly UTF-8 document contain from Windows-1252?", []Source{src}, 1)
	if strings.Contains(r.Answer, "detwingle()") {
		t.Errorf("answer %q: a question that does not ask how was given the means", r.Answer)
	}
	// A means in words alone follows any passage: it is not reached for.
	src.Content = strings.Replace(content, "You can use UnicodeDammit.detwingle() to turn such a document into pure UTF-8.", "You can use a converter to repair such documents.", 1)
	if r = Extractive(q, []Source{src}, 1); strings.Contains(r.Answer, "converter") {
		t.Errorf("answer %q: reached a means that names no code", r.Answer)
	}
	// The means three sentences on is reached too, quoted after the
	// passage (howAfter); one in the next section is another matter.
	far := strings.Replace(content, "This can happen when a website includes data from multiple sources. ",
		"This can happen when a website includes data from multiple sources. It is common on old forums. ", 1)
	src.Content = far
	r = Extractive(q, []Source{src}, 1)
	if !strings.Contains(r.Answer, "detwingle()") {
		t.Errorf("answer %q: want the section's means three sentences on", r.Answer)
	}
	other := strings.Replace(far, "It is common on old forums. ", "It is common on old forums.\n\nRepairing documents\n\n", 1)
	src.Content, src.Titles = other, []string{"Inconsistent encodings", "Repairing documents"}
	r = Extractive(q, []Source{src}, 1)
	if strings.Contains(r.Answer, "detwingle()") {
		t.Errorf("answer %q: reached the means of the next section", r.Answer)
	}
}
