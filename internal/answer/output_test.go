package answer

import (
	"strings"
	"testing"
)

// Program output that a blank line splits (a page's <pre> keeps its blank
// lines) is still code after the blank line; prose after code is not.
func TestOutputAfterBlankLineStaysCode(t *testing.T) {
	t.Parallel()
	content := "If you run this for the first time you will see two failures:\n\n" +
		"$ pytest -q\n.................F.......F......   [100%]\n\n" +
		"test_50.py:7: Failed\n===== short test summary info =====\nFAILED test_50.py::test_num[17] - Failed: bad luck\nFAILED test_50.py::test_num[25] - Failed: bad luck\n2 failed, 48 passed in 0.12s\n\n" +
		"You have run only the two failing tests from the last run.\n\n" +
		"$ pytest --lf\n\n" +
		"The output lists what ran:\n\n" +
		"collected 2 items\nrun-last-failure: rerun previous 2 failures"
	us := parseUnits(content, "Cache > Rerunning only failures")
	var code, sentences []string
	for _, u := range us {
		switch u.kind {
		case unitCode:
			code = append(code, u.text)
		case unitSentence:
			sentences = append(sentences, u.text)
		}
	}
	for _, s := range sentences {
		if strings.Contains(s, "short test summary") || strings.Contains(s, "48 passed") {
			t.Errorf("program output read as a sentence: %q", s)
		}
	}
	if len(code) == 0 || !strings.Contains(code[0], "$ pytest -q") || !strings.Contains(code[0], "2 failed, 48 passed") {
		t.Errorf("the run and its output are not one code unit: %q", code)
	}
	want := "You have run only the two failing tests from the last run."
	found := false
	for _, s := range sentences {
		found = found || s == want
	}
	if !found {
		t.Errorf("the sentence after the output is not a sentence: %q", sentences)
	}
	r := Extractive("How do I rerun the failures of the last run?", []Source{{N: 1, HeadingPath: "Cache > Rerunning only failures", Content: content}}, 3)
	if strings.Contains(r.Answer, "Failed ===== short") {
		t.Errorf("answer quotes program output as prose:\n%s", r.Answer)
	}
}
