package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestListedConstantIsDefined: a list item giving a constant its value
// ("NOSPLIT = 4" above what the flag does, as the Go assembler's guide
// lists its flags) defines the constant, and a question naming it in
// capitals is answered by its entry.
func TestListedConstantIsDefined(t *testing.T) {
	t.Parallel()
	content := "Directives\n\nThe TEXT directive declares the symbol and the instructions that follow form the body of the function. " +
		"After the symbol, the arguments are flags (see below) and the frame size.\n\n" +
		"There may be one or two arguments to the directives. If there are two, the first is a bit mask of flags. Their values, defined in the standard #include file textflag.h, are:\n\n" +
		"- NOPROF = 1\n  (For TEXT items.) Don't profile the marked function. This flag is deprecated.\n" +
		"- DUPOK = 2\n  It is legal to have multiple instances of this symbol in a single binary.\n" +
		"- NOSPLIT = 4\n  (For TEXT items.) Don't insert the preamble to check if the stack must be split. The frame for the routine must fit in the spare space remaining in the current stack segment.\n" +
		"- RODATA = 8\n  (For DATA and GLOBL items.) Put this data in a read-only section.\n"
	us := parseTitledUnits(content, "asm.html > Directives", nil)
	if !slices.ContainsFunc(us, func(u unit) bool { return slices.Contains(u.defines, "nosplit") }) {
		t.Errorf("no unit defines NOSPLIT: %v", us)
	}
	r := Extractive("What does the NOSPLIT flag on a TEXT directive do?", []Source{{N: 1, HeadingPath: "asm.html > Directives", Content: content}}, 0)
	if !strings.Contains(r.Answer, "Don't insert the preamble to check if the stack must be split") {
		t.Errorf("Answer =\n%s\nwant NOSPLIT's entry", r.Answer)
	}
	if !parameterAssignedName("NOSPLIT = 4") || parameterAssignedName("x = 4") || parameterAssignedName("Note = this") {
		t.Error("parameterAssigned")
	}
}

func parameterAssignedName(s string) bool { return parameterAssigned.MatchString(s) }
