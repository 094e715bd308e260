package answer

import (
	"strings"
	"testing"
)

// TestSessionQuotesTheCellAskedFor: a long IPython transcript is quoted
// with its first cell and the cell whose input holds the question's
// terms, not cut after its setup; its prompts stay as written ("In
// [26]:" is no citation marker).
func TestSessionQuotesTheCellAskedFor(t *testing.T) {
	t.Parallel()
	session := strings.Join([]string{
		"In [22]: times = ['2020-01-01', '2020-01-03', '2020-01-04', '2020-01-05', '2020-01-29']",
		"",
		"In [23]: s = pd.Series(range(5), index=pd.DatetimeIndex(times))",
		"",
		"In [24]: s",
		"Out[24]: ",
		"2020-01-01    0",
		"2020-01-03    1",
		"2020-01-04    2",
		"2020-01-05    3",
		"2020-01-29    4",
		"dtype: int64",
		"",
		"# Window with 2 observations",
		"In [25]: s.rolling(window=2).sum()",
		"Out[25]: ",
		"2020-01-01    NaN",
		"2020-01-03    1.0",
		"dtype: float64",
		"",
		"# Window with 2 days worth of observations",
		"In [26]: s.rolling(window='2D').sum()",
		"Out[26]: ",
		"2020-01-01    0.0",
		"2020-01-03    1.0",
		"dtype: float64",
	}, "\n")
	lead := "Rolling window\n\nGeneric rolling windows support specifying windows as a fixed number of observations or a time based offset:\n\n"
	content := lead + session
	r := Extractive("How do I compute a sum over the last 2 days of observations with a rolling window?",
		[]Source{{N: 1, HeadingPath: "Windowing operations > Rolling window", Content: content, Code: []Span{{Start: len(lead), End: len(content)}}}}, 3)
	if !strings.Contains(r.Answer, "s.rolling(window='2D').sum()") || !strings.Contains(r.Answer, "In [22]: times") {
		t.Errorf("answer %q: want the setup cell and the 2D cell, prompts as written", r.Answer)
	}
}
