package search

import "testing"

// TestAsksOpinionReadsTheQuestionNotItsContext (h-review18, commit
// ef7f057): asksOpinion now counts "should I/we" as an opinion only "in a
// yes/no question" or "one that weighs alternatives", and decides both by
// the surface of the whole query: yes/no means the query's first word is
// "should", and alternatives mean the word "or" anywhere in it.
//
// Both misread the questions users write, the very shape of the pytest
// trial question the commit fixed (a sentence of context, then the
// question):
//   - a yes/no "should we" question after a sentence of context, or after
//     an opening phrase, is no longer an opinion ("We are three developers
//     building a small CRUD app. Should we use microservices?" — the same
//     question the test counts as an opinion when it comes first), so an
//     opinion question loses the cue that refuses it;
//   - any "or" in the context or the task turns a how-to into an opinion
//     ("My test needs a scratch folder or file on disk that is different
//     for each test. What should I use?" — the commit's own question with
//     "or file" added), the wrong refusal the commit set out to remove.
//
// Expected: the "should I/we" clause itself decides (the sentence holding
// it starts with "should", or it weighs alternatives); the other sentences
// and an "or" that joins two things to do are no choice.
func TestAsksOpinionReadsTheQuestionNotItsContext(t *testing.T) {
	for q, want := range map[string]bool{
		"We are three developers building a small CRUD app. Should we use microservices?":                    true,
		"I'm new to programming. Should I learn Python first?":                                               true,
		"For a small team, should we use microservices?":                                                     true,
		"My test needs a scratch folder or file on disk that is different for each test. What should I use?": false,
		"What should I do when pip install fails on Windows or macOS?":                                       false,
		"Where should I put fixtures that two or more test modules share?":                                   false,
	} {
		if got := asksOpinion(q); got != want {
			t.Errorf("asksOpinion(%q) = %v, want %v", q, got, want)
		}
	}
}
