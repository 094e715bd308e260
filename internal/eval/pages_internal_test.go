package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/ask"
)

// TestAnswerChecksWithPages: an answer-check line may label the pages that
// answer it (a PDF's); pages on an unanswerable question, or below 1, are
// reported with their line.
func TestAnswerChecksWithPages(t *testing.T) {
	t.Parallel()
	checks, err := ParseAnswerChecks(strings.NewReader(`{"question":"How do I set a log scale?","answer_terms":["set logscale"],"pages":[120,121]}` + "\n"))
	if err != nil || len(checks) != 1 || len(checks[0].Pages) != 2 || checks[0].Pages[1] != 121 {
		t.Fatalf("checks %+v, err %v", checks, err)
	}
	_, err = ParseAnswerChecks(strings.NewReader(`{"question":"What is the capital of France?","answer_terms":[],"pages":[3]}` + "\n" +
		`{"question":"How do I plot?","answer_terms":["plot"],"pages":[0]}` + "\n"))
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 2 || ve.Problems[0].Code != "pages_unanswerable" || ve.Problems[1].Code != "bad_page" || ve.Problems[1].Line != 2 {
		t.Fatalf("err %v", err)
	}
}

// TestCitesPages: the first citation's page range must hold a labelled
// page; a citation without pages, a refusal and a later citation on the
// page do not count.
func TestCitesPages(t *testing.T) {
	t.Parallel()
	p := func(n int) *int { return &n }
	res := func(cs ...answer.Citation) ask.Response { return ask.Response{Citations: cs} }
	for _, tc := range []struct {
		name string
		res  ask.Response
		want bool
	}{
		{"range holds the page", res(answer.Citation{N: 1, PageStart: p(119), PageEnd: p(121)}), true},
		{"single page", res(answer.Citation{N: 1, PageStart: p(120)}), true},
		{"other pages", res(answer.Citation{N: 1, PageStart: p(10), PageEnd: p(11)}, answer.Citation{N: 2, PageStart: p(120), PageEnd: p(120)}), false},
		{"no pages", res(answer.Citation{N: 1}), false},
		{"refused", ask.Response{Refused: true}, false},
	} {
		if got := citesPages(tc.res, []int{120, 200}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
