package answer

import (
	"strings"
	"testing"
)

// wrapwidthPage is a frobpo page whose conditional sentence is complete
// but, as often in technical writing, has no comma after its condition:
// "If wrapwidth is 0 no wrapping is done." has its main clause.
const wrapwidthPage = "Wrapping width\n\nThe wrapwidth argument of save() sets the column at which msgstr lines are wrapped. " +
	"It is 78 by default. " +
	"If wrapwidth is 0 no wrapping is done. " +
	"Encodings are described in the next chapter."

// TestReview57CommaLessConditionalIsComplete: a conditional sentence whose
// main clause follows without a comma ("If wrapwidth is 0 no wrapping is
// done.", "When the write fails the temporary file is removed.") says
// everything it promises. A user asking what happens when wrapwidth is 0
// expects the passage to stop there; danglingCondition takes it for a bare
// condition and the answer goes on with an unrelated sentence of the
// paragraph ("Encodings are described in the next chapter.", "Line endings
// follow the platform …"), which the answer did not quote before.
func TestReview57CommaLessConditionalIsComplete(t *testing.T) {
	t.Parallel()
	save := "Saving catalogs\n\nThe save() method writes the catalog through a temporary file in the same directory. " +
		"The temporary file is renamed over the original only once it is complete. " +
		"When the write fails the temporary file is removed. " +
		"Line endings follow the platform unless newline is given."
	for _, c := range []struct{ title, content, q, unwanted string }{
		{"Wrapping width", wrapwidthPage, "What is the default of wrapwidth and what happens if it is 0?", "Encodings are described"},
		{"Wrapping width", wrapwidthPage, "What happens if wrapwidth is 0?", "Encodings are described"},
		{"Saving catalogs", save, "What happens to the temporary file of save() when the write fails?", "Line endings"},
	} {
		r := Extractive(c.q, []Source{{N: 1, Title: "frobpo", HeadingPath: "frobpo > " + c.title, Content: c.content}}, 0)
		if strings.Contains(r.Answer, c.unwanted) {
			t.Errorf("%s\nAnswer =\n%s\nwant the passage to end at the complete conditional, without %q", c.q, r.Answer, c.unwanted)
		}
	}
}

// TestReview57DanglingExtensionKeepsSubject: asked for wrapwidth's default
// and what 0 does, a user expects the sentence that names wrapwidth and
// says what it is ("The wrapwidth argument of save() sets the column …").
// Taking "If wrapwidth is 0 no wrapping is done." for a bare condition,
// complete() makes room for the next sentence by dropping the passage's
// first one: the answer opens on "It is 78 by default." (what is "it"?)
// and ends on an unrelated sentence.
func TestReview57DanglingExtensionKeepsSubject(t *testing.T) {
	t.Parallel()
	page := "Wrapping width\n\nThe wrapwidth argument of save() sets the column at which msgstr lines are wrapped. " +
		"It is 78 by default. " +
		"Only msgstr and msgid lines are wrapped, never comments. " +
		"If wrapwidth is 0 no wrapping is done. " +
		"Encodings are described in the next chapter."
	q := "What is the default of wrapwidth, are comments wrapped, and what happens if it is 0?"
	r := Extractive(q, []Source{{N: 1, Title: "frobpo", HeadingPath: "frobpo > Wrapping width", Content: page}}, 0)
	if !strings.Contains(r.Answer, "The wrapwidth argument of save() sets the column") || strings.HasPrefix(r.Answer, "It is 78") {
		t.Errorf("%s\nAnswer =\n%s\nwant the sentence naming wrapwidth, not an answer opening on \"It\"", q, r.Answer)
	}
	// With a tenant's smaller passage the same happens to a plainer question.
	q = "What is the default of wrapwidth and what happens if it is 0?"
	r = Extractive(q, []Source{{N: 1, Title: "frobpo", HeadingPath: "frobpo > Wrapping width", Content: wrapwidthPage}}, 2)
	if strings.HasPrefix(r.Answer, "It is 78") {
		t.Errorf("%s (2 sentences)\nAnswer =\n%s\nwant the sentence naming wrapwidth, not an answer opening on \"It\"", q, r.Answer)
	}
}
