package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestTerminalSafeFiltersC1Controls_hreview15: the CLI's stdout filter
// (terminalSafe) replaces C0 controls and DEL only. SECURITY.md says the
// filter is there "for text stored before extraction dropped them", and
// extraction now drops C1 too because those were stored as well (the
// h-break11 test's own expectation: "C0 but tab and newline, DEL, C1"); an
// evaluation question (only NUL is refused there) reaches
// `eval run --per-question` the same way. U+009B is CSI and U+009D OSC:
// xterm and VTE act on them in UTF-8, so "\u009b2J" clears the screen
// and "\u009d0;pwned\u009c" sets the window title, as ESC [ and ESC ]
// do.
//
// Expected: C1 controls (U+0080–U+009F, bytes C2 80–C2 9F) replaced too.
func TestTerminalSafeFiltersC1Controls_hreview15(t *testing.T) {
	var buf bytes.Buffer
	in := "The taro \u009b2J harvest \u009d0;pwned\u009c starts in May."
	if _, err := (terminalSafe{&buf}).Write([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.ContainsAny(out, "\u009b\u009c\u009d") {
		t.Errorf("terminalSafe wrote %q: C1 controls reach the terminal", out)
	}
}
