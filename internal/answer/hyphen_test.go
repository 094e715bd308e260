package answer

import (
	"slices"
	"strings"
	"testing"
)

func TestTermsOfHyphenatedWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text       string
		want, nots []string
	}{
		// The joined form, whichever way the word is written; a prefix
		// that is no word alone is no term.
		{"How do I re-run failed tests?", []string{"rerun", "run", "fail", "test"}, []string{"re"}},
		{"Rerunning only failures", []string{"rerun"}, nil},
		{"their re-running", []string{"rerun", "run"}, []string{"re"}},
		{"send an e-mail", []string{"email", "mail"}, nil},
		{"a built-in fixture", []string{"builtin", "built", "fixture"}, nil},
		{"a non-blocking socket", []string{"nonblock", "block"}, []string{"non"}},
		// Not words written joined: options, dates, long compounds,
		// dangling hyphens.
		{"--no-verify on 2024-01-31, state-of-the-art, pre- and post-", []string{"verify", "2024"},
			[]string{"noverify", "20240131", "stateoftheart", "stateof"}},
	} {
		got := terms(tc.text)
		for _, w := range tc.want {
			if !slices.Contains(got, stem(w)) {
				t.Errorf("terms(%q) = %q, want %q among them", tc.text, got, stem(w))
			}
		}
		for _, w := range tc.nots {
			if slices.Contains(got, w) {
				t.Errorf("terms(%q) = %q, want no %q", tc.text, got, w)
			}
		}
	}
}

// A question's hyphenated word finds the section that writes it joined,
// and the prefix no longer makes any "re-" word of another source the
// answer.
func TestExtractiveMatchesHyphenatedWordJoined(t *testing.T) {
	t.Parallel()
	sources := []Source{
		{N: 1, HeadingPath: "Cache > Rerunning only failures or failures first", Content: "Rerunning only failures or failures first\n\n" +
			"The plugin provides two command line options to rerun failures from the last pytest invocation.\n\n" +
			"Use --lf to rerun only the failures of the last run."},
		{N: 2, HeadingPath: "Fixtures > Parametrizing fixtures", Content: "Parametrizing fixtures\n\n" +
			"Test functions usually do not need to be aware of their re-running. Fixture parametrization helps to write exhaustive tests."},
	}
	r := Extractive("Is there a way to re-run only the tests that broke in my previous run?", sources, 3)
	if !strings.Contains(r.Answer, "--lf") || !strings.Contains(r.Answer, "[1]") {
		t.Fatalf("answer does not quote the section on rerunning:\n%s", r.Answer)
	}
	if strings.HasPrefix(r.Answer, "Test functions") {
		t.Fatalf("answer leads with the fixture page's re-running:\n%s", r.Answer)
	}
}
