package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestHReview32CodeIdentifiersThatLookLikePlaceholdersAreKept: the
// template-placeholder rule drops every text node that is just
// __NAME__, and a code span's text node is exactly that. What a user sees:
// the C preprocessor's __FILE__ and __LINE__, gcc's NEWS ("The new
// __PTX_SM__ predefined macro …"), Python's venv page ("__VENV_DIR__ is
// replaced with the absolute path …") and whatsnew/3.0 ("renamed to use
// the __X__ form") are indexed as "The new predefined macro", "is
// replaced with the absolute path", so a question naming the macro finds
// nothing and an answer quotes a sentence with a hole in it. Measured on
// /usr/share/doc: 27 NEWS.html copies, 4 Python pages, Rust's
// std::panic::Location ("C/C++ __FILE__").
func TestHReview32CodeIdentifiersThatLookLikePlaceholdersAreKept(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Macros</title></head><body>
<p>The <code>__FILE__</code> macro expands to the name of the current input file, and <code>__LINE__</code> to the current line number.</p>
<p>The new <code class="option">__PTX_SM__</code> predefined macro allows code to check the PTX ISA target architecture.</p>
<ul><li><p><code class="docutils literal notranslate"><span class="pre">__VENV_DIR__</span></code> is replaced with the absolute path of the environment directory.</p></li></ul>
</body></html>`
	d, err := extractHTML([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The __FILE__ macro", "__LINE__", "The new __PTX_SM__ predefined macro", "__VENV_DIR__ is replaced"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("text lost %q:\n%s", want, d.Text)
		}
	}
}

// TestHReview32ReleaseNotesListsOfLinksAreKept: a change log rendered from
// Markdown without a main/article/section element (rustdoc's standalone
// releases.html, pandoc's default template) writes each change as a link
// to its pull request, and each stabilised API as a link to its
// documentation. Every such list of five or more items is now left out as
// a "site menu". What a user sees: Rust's releases.html loses 8,806 of its
// 64,498 words (every "Stabilized APIs" list, most "Compiler", "Platform
// Support", "Libraries" lists), so "in which release was
// VecDeque::pop_front_if stabilized?" finds no release note.
func TestHReview32ReleaseNotesListsOfLinksAreKept(t *testing.T) {
	t.Parallel()
	var apis strings.Builder
	for _, a := range []string{"VecDeque::pop_front_if", "VecDeque::pop_back_if", "Duration::from_nanos_u128", "char::MAX_LEN_UTF8", "char::MAX_LEN_UTF16", "std::fmt::from_fn", "std::fmt::FromFn"} {
		fmt.Fprintf(&apis, "<li><a href=\"https://doc.rust-lang.org/stable/std/%s.html\"><code>%s</code></a></li>\n", strings.ToLower(a), a)
	}
	page := `<!DOCTYPE html><html><head><meta name="generator" content="rustdoc"><title>Rust Release Notes</title></head>
<body class="rustdoc"><h1 class="title">Rust Release Notes</h1>
<h1 id="version-194">Version 1.94 (2026-03-05)</h1>
<h2 id="compiler">Compiler</h2>
<ul>
<li><a href="https://github.com/rust-lang/rust/pull/1">Stabilize several s390x vector-related target features and the <code>is_s390x_feature_detected!</code> macro</a></li>
<li><a href="https://github.com/rust-lang/rust/pull/2">Stabilize declaration of C-style variadic functions for the <code>system</code> ABI</a></li>
<li><a href="https://github.com/rust-lang/rust/pull/3">Emit error when using some keyword as a <code>cfg</code> predicate</a></li>
<li><a href="https://github.com/rust-lang/rust/pull/4">Stabilize <code>asm_cfg</code></a></li>
<li><a href="https://github.com/rust-lang/rust/pull/5">During const-evaluation, support copying pointers byte-by-byte</a></li>
</ul>
<h2 id="stabilized-apis">Stabilized APIs</h2>
<ul>
` + apis.String() + `</ul>
<h2 id="cargo">Cargo</h2>
<ul><li>Cargo now warns about unused manifest keys in workspace members; see the <a href="https://github.com/rust-lang/cargo/pull/6">pull request</a>.</li></ul>
</body></html>`
	d, err := extractHTML([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Stabilize declaration of C-style variadic functions", "During const-evaluation, support copying pointers", "VecDeque::pop_front_if", "std::fmt::FromFn"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("release notes lost %q:\n%s", want, d.Text)
		}
	}
	// A release whose notes are such lists alone is no document at all:
	// ErrLinksOnly, "the page is an index or a table of contents", and a
	// directory's ingest skips it.
	var fixes strings.Builder
	for i := range 20 {
		fmt.Fprintf(&fixes, "<li><a href=\"https://github.com/example/tool/pull/%d\">Fix crash %d when the config file names a missing directory</a></li>\n", 100+i, i)
	}
	short := `<html><head><title>Release 2.4.1</title></head><body><h1>Release 2.4.1</h1><p>A bug-fix release.</p><h2>Fixes</h2><ul>` + fixes.String() + `</ul></body></html>`
	if d, err := extractHTML([]byte(short)); err != nil || !strings.Contains(d.Text, "Fix crash 7 when the config file") {
		t.Errorf("a release note made of linked fixes: %v, want its fixes kept", err)
	}
}
