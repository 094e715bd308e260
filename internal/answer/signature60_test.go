package answer

import (
	"strings"
	"testing"
)

// TestTypedSignatureKeepsItsDefaults: a long signature with type
// annotations is quoted without them, its parameters' names and defaults
// whole; cut at its first 60 bytes it kept one parameter's type and lost
// every default ("wait_incrementing(start: Union[int…", a held-out trial).
func TestTypedSignatureKeepsItsDefaults(t *testing.T) {
	t.Parallel()
	content := "Wait Functions\n\n" +
		"class backoffkit.wait.wait_stepped(start: Union[int, float, timedelta] = 0, step: Union[int, float, timedelta] = 100, cap: Union[int, float, timedelta] = 30)\n" +
		"Wait a stepped amount of time after each attempt.\n\n" +
		"Starting at a starting value and adding a step each time, up to the cap.\n"
	r := Extractive("What does wait_stepped do and what are its defaults?", []Source{{N: 1, Content: content, HeadingPath: "API Reference > Wait Functions"}}, 3)
	for _, want := range []string{"wait_stepped(start=0, step=100, cap=30)", "Wait a stepped amount of time"} {
		if r.Refused || !strings.Contains(r.Answer, want) {
			t.Errorf("answer:\n%s\nwant %q", r.Answer, want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"handler(cb: Callable[[], Optional[int]], n: int = 1) → None", "handler(cb, n=1)"},
		{"split(text: str, sep: str = ':', *, limit: int = -1)", "split(text, sep=':', *, limit=-1)"},
		{"make(cfg: dict = {'a': 1}, name='x')", "make(cfg={'a': 1}, name='x')"},
	} {
		if got, ok := compactSignature(c.in); !ok || got != c.want {
			t.Errorf("compactSignature(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{"plain(a, b=1)", "broken(a: int = (1", "name: value"} {
		if got, ok := compactSignature(in); ok {
			t.Errorf("compactSignature(%q) = %q, want no compact form", in, got)
		}
	}
}
