package answer

import "testing"

// TestRepeatsTheOtherCopysWording: the same manual stored as HTML and as
// PDF writes a definition's term with a colon in one and without it in
// the other; the second copy's sentence repeats the first's and is left
// out, where a sentence differing in a word is not.
func TestRepeatsTheOtherCopysWording(t *testing.T) {
	t.Parallel()
	quoted := []string{"BASH_ALIASES: An associative array variable whose members correspond to the internal list of aliases."}
	if !repeats(quoted, "BASH_ALIASES An associative array variable whose members correspond to the internal list of aliases") {
		t.Error("the PDF copy's wording of the quoted definition does not repeat it")
	}
	if repeats(quoted, "BASH_CMDS: An associative array variable whose members correspond to the internal hash table of commands.") {
		t.Error("another variable's definition repeats the quoted one")
	}
}
