package answer

import (
	"slices"
	"strings"
	"testing"
)

// headOf returns the text of the unit a definition's term heads.
func review60HeadOf(t *testing.T, content string) string {
	t.Helper()
	d := parseUnits(content, "API")
	i := slices.IndexFunc(d, func(u unit) bool { return u.head })
	if i < 0 {
		t.Fatalf("no head unit in %v", d)
	}
	return d[i].text
}

// C++ scope operators ("std::size_t") are read as annotation colons: the
// parameter's name is dropped and the type's namespace kept, so the
// quoted constructor reads "Widget::Widget(std, const std=std::string(), …)".
func TestReview60CompactSignatureCppScope(t *testing.T) {
	t.Parallel()
	in := "Widget::Widget(std::size_t capacity, const std::string& name = std::string(), bool verbose = false)"
	if got, ok := compactSignature(in); ok && (strings.Contains(got, "(std,") || strings.Contains(got, "std=") || !strings.Contains(got, "capacity") || !strings.Contains(got, "name")) {
		t.Errorf("compactSignature(%q) = %q: names lost, namespaces kept as names", in, got)
	}
	content := "Constructors\n\nWidget::Widget(std::size_t capacity, const std::string& name = std::string(), bool verbose = false, int retries = 3, std::chrono::milliseconds timeout = std::chrono::milliseconds(500))\n" +
		"Constructs a widget holding up to capacity items.\n"
	if h := review60HeadOf(t, content); strings.Contains(h, "Widget::Widget(std,") || strings.Contains(h, "std=") {
		t.Errorf("quoted as %q", h)
	}
}

// A TypeScript function type ("(msg: Message) => Promise<void>") ends its
// annotation at "=>" read as a default: "handler=> Promise<void>".
func TestReview60CompactSignatureArrowType(t *testing.T) {
	t.Parallel()
	in := "subscribe(topic: string, handler: (msg: Message, ctx: Context) => Promise<void>, retries: number = 3, timeoutMs: number = 5000): Subscription"
	want := "subscribe(topic, handler, retries=3, timeoutMs=5000)"
	if got, ok := compactSignature(in); ok && got != want {
		t.Errorf("compactSignature(%q) = %q, want %q (or no compact form)", in, got, want)
	}
}

// A Rust lifetime ("&'a str") opens a "string" inside the skipped
// annotation that closes at the next lifetime: the parameters between
// vanish without a trace ("fn parse(input, strict)" lost opts).
func TestReview60CompactSignatureRustLifetime(t *testing.T) {
	t.Parallel()
	in := "fn parse(input: &'a str, opts: &'a Options, strict: bool) -> Result<Doc<'a>, Error>"
	if got, ok := compactSignature(in); ok && !strings.Contains(got, "opts") {
		t.Errorf("compactSignature(%q) = %q: parameter opts dropped", in, got)
	}
}

// A lambda default with two parameters: its ", b: a < b" is read as a
// new parameter b annotated "a < b", so the default reads "lambda a, b".
func TestReview60CompactSignatureLambdaTwoParams(t *testing.T) {
	t.Parallel()
	in := "sort(items: list, key: Callable = lambda a, b: a < b, reverse: bool = False)"
	if got, ok := compactSignature(in); ok && !strings.Contains(got, "lambda a, b: a < b") {
		t.Errorf("compactSignature(%q) = %q: the default is cut", in, got)
	}
}

// A signature with a second parameter list (Scala's implicit list,
// curried definitions) loses it: "def foo(a=0)".
func TestReview60CompactSignatureSecondParameterList(t *testing.T) {
	t.Parallel()
	in := "def retry(times: Int = 3, delay: Duration = 1.second)(implicit ec: ExecutionContext): Future[Int]"
	if got, ok := compactSignature(in); ok && !strings.Contains(got, "implicit") {
		t.Errorf("compactSignature(%q) = %q: the implicit parameter list is gone", in, got)
	}
}

// A signature that fits synopsisChars whole was quoted whole; compacted
// regardless, it loses its return type and parameter types though nothing
// needed cutting ("parse(data, strict=False)" for a question on what
// parse returns).
func TestReview60CompactSignatureShortKeepsWhole(t *testing.T) {
	t.Parallel()
	term := "parse(data: bytes, strict: bool = False) -> Document;"
	if len(term) > synopsisChars {
		t.Fatalf("term is %d bytes", len(term))
	}
	content := "Parsing\n\n" + term + "\nParses the data into a tree of nodes.\n"
	if h := review60HeadOf(t, content); !strings.Contains(h, "-> Document") {
		t.Errorf("quoted as %q, want the whole signature %q that fits", h, term)
	}
}
