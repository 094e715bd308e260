package answer

import (
	"slices"
	"strings"
	"testing"
)

// A bar inside a cell is the cell's: extraction joins cells with " | ",
// and Apache's syntax box "Syntax: | AllowOverride All|None|directive-type"
// was quoted as "Syntax:; AllowOverride All; None; directive-type". A
// Markdown row without blanks around its bars still splits at each.
func TestTableCellsKeepABarInsideACell(t *testing.T) {
	t.Parallel()
	for row, want := range map[string][]string{
		"Syntax: | AllowOverride All|None|directive-type [directive-type] ...": {"Syntax:", "AllowOverride All|None|directive-type [directive-type] ..."},
		"| a | b |": {"a", "b"},
		"a|b|c":     {"a", "b", "c"},
		"---|---":   {"---", "---"},
		"x |  | y":  {"x", "", "y"},
	} {
		if got := tableCells(row); !slices.Equal(got, want) {
			t.Errorf("tableCells(%q) = %q, want %q", row, got, want)
		}
	}
	src := []Source{{ChunkID: "a", SourceURI: "mod/core.html", Title: "core", HeadingPath: "core > AllowOverride Directive",
		Content: "AllowOverride Directive\n\nDescription: | Types of directives that are allowed in .htaccess files\nSyntax: | AllowOverride All|None|directive-type [directive-type] ...\nDefault: | AllowOverride None (2.3.9 and later), AllowOverride All (2.3.8 and earlier)"}}
	r := Extractive("What is the syntax of AllowOverride?", src, 1)
	if !strings.Contains(r.Answer, "AllowOverride All|None|directive-type") {
		t.Errorf("answer %q; want the syntax cell whole", r.Answer)
	}
}
