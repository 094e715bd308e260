package answer

import (
	"strings"
	"testing"
)

// TestAnnouncedDefinitionJoinsThePassage (h-trial37): "turn off validation
// in production" was answered with "Validators can be globally disabled
// if you want to run them only in development … because you fear their
// performance impact:" and stopped at the colon; the function it
// announces, a definition, came next. A passage ending on a sentence that
// announces what follows goes on to it.
func TestAnnouncedDefinitionJoinsThePassage(t *testing.T) {
	t.Parallel()
	content := "Validation\n\nValidators run when an instance is created.\n\n" +
		"Validators can be globally disabled if you want to run them only in development and tests but not in production because you fear their performance impact:\n\n" +
		"set_run_validators(run)\nSet whether or not validators are run. By default, they are run.\n\n" +
		"get_run_validators()\nReturn whether or not validators are run.\n"
	src := []Source{{N: 1, Title: "API Reference", HeadingPath: "API Reference > Validation", Content: content}}
	got := Extractive("turn off validation in production for performance", src, 3).Answer
	if !strings.Contains(got, "set_run_validators") {
		t.Errorf("answer:\n%s\nwant the announced function", got)
	}
}
