package answer

import (
	"strings"
	"testing"
)

// TestDifferenceQuestionsQuoteTheContrast (h-trial36): "difference between
// Response and StreamResponse" was answered with the sentence that names
// both ("three classes: …"), and the sentence after it that tells them
// apart was left out. A question that asks how things differ goes on
// through the section's sentences that name them; another question stops
// where it did.
func TestDifferenceQuestionsQuoteTheContrast(t *testing.T) {
	t.Parallel()
	content := "Response classes\n\n" +
		"The web module has three classes for an HTTP response: StreamReply, BodyReply and FileReply.\n\n" +
		"Usually you need the second one. StreamReply sends its body in parts as the handler writes them, while BodyReply holds the whole body and sends it at once with its length.\n\n" +
		"A handler returns the reply it built."
	src := []Source{{N: 1, Title: "Server Reference", HeadingPath: "Server Reference", Content: content}}
	got := Extractive("difference between BodyReply and StreamReply", src, 3).Answer
	if !strings.Contains(got, "while BodyReply holds the whole body") {
		t.Errorf("difference question:\n%s\nwant the sentence that contrasts them", got)
	}
	got = Extractive("Which classes can an HTTP response of the web module be: BodyReply, StreamReply?", src, 3).Answer
	if strings.Contains(got, "while BodyReply holds") {
		t.Errorf("a question of which:\n%s\nwant the sentence naming the classes alone", got)
	}
}
