package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// 8e29ee9 made Thai, Lao, Khmer and Myanmar Unspaced, and analyze.Scripts
// counts every character of an Unspaced script as a unit (a Chinese
// character is about a word), so a Thai word now weighs one unit per
// letter: สวัสดีครับ (one greeting, two words) counts 7, against 3 for the
// English words around it ("What does สวัสดีครับ mean?"). scriptGap then finds the question "mostly" in a
// script use-lite does not represent and drops the vector leg of an
// English question that quotes one Thai word (before, the Thai run counted
// one word, 1 of 4). The same commit says of the answerability model that
// Thai characters are not words (two bigrams count as one); the vector
// leg's share must not count a Thai letter as an English word either.
func TestEnglishQuestionQuotingAThaiWordKeepsTheVectorLeg(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	res, err := s.Search(context.Background(), tn, search.Request{Query: "What does สวัสดีครับ mean?"})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.DegradedReasons {
		if d.Leg == search.LegVector {
			t.Errorf("an English question of three words quoting one Thai word ran without the vector leg: %s", d.Reason)
		}
	}
}
