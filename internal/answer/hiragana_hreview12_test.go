package answer

import (
	"strings"
	"testing"
)

// TestHiraganaQuestionChoosesItsPassage_hreview12: a question written in
// hiragana alone ("すしのつくりかたは？", as a child or a phone's input
// method leaves it) has no bigram analyze.ContentQuery keeps, so
// questionTerms drops all of them and the passage is no longer chosen by
// the question; analyze.Query keeps a hiragana-only question's bigrams for
// the search ("A question written in hiragana alone keeps its bigrams"),
// and the answer must too: the sushi passage, not the first source.
func TestHiraganaQuestionChoosesItsPassage_hreview12(t *testing.T) {
	t.Parallel()
	src := []Source{
		{HeadingPath: "てんぷら", Content: "てんぷらのあげかた：あぶらをねっして、ころもをつけたやさいをいれます。"},
		{HeadingPath: "すし", Content: "すしのつくりかた：ごはんにすをまぜて、さかなをのせます。"},
	}
	r := Extractive("すしのつくりかたは？", src, 1)
	if r.Refused || !strings.Contains(r.Answer, "ごはんにすをまぜて") {
		t.Errorf("Answer (refused %v) =\n%s\nwant the sushi passage", r.Refused, r.Answer)
	}
}
