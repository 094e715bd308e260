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

// TestRepeatsASentenceRunOnInTheCopy: a PDF copy's sentence that runs on
// from the line above it ("⇒configure.ac:11: the top level To avoid this
// warning, decide …") repeats the HTML sentence quoted before it; one
// that shares a few words with a quoted sentence does not.
func TestRepeatsASentenceRunOnInTheCopy(t *testing.T) {
	t.Parallel()
	quoted := []string{"Starting with version 2.64, this situation results in duplicate output and a warning:\n" +
		"To avoid this warning, decide what purpose the macro in question serves."}
	if !repeats(quoted, "⇒configure.ac:11: the top level To avoid this warning, decide what purpose the macro in question serves.") {
		t.Error("the copy's run-on sentence does not repeat the quoted one")
	}
	if repeats(quoted, "To avoid this warning, pass the option to the tool that expands the macro.") {
		t.Error("a sentence sharing its opening words repeats the quoted one")
	}
}

// TestSharedCodeLineIsNoRepeat: two examples sharing a line of code (the
// same comment on what both raise) say different things: the second is
// no repeat of the first.
func TestSharedCodeLineIsNoRepeat(t *testing.T) {
	t.Parallel()
	quoted := []string{"This class is not Integer-convertible (method to_int takes arguments):\nclass NotIntegerConvertible\n  def to_int(x)\n    3\n  end\nend\n# Raises ArgumentError (wrong number of arguments (given 0, expected 1))\nArray.new(NotIntegerConvertible.new)"}
	if repeats(quoted, "This class is not Array-convertible (method to_ary takes arguments):\nclass NotArrayConvertible\n  def to_ary(x)\n    [:foo, 'bar', 2]\n  end\nend\n# Raises ArgumentError (wrong number of arguments (given 0, expected 1))\n[1, 2, 3].to_h(NotArrayConvertible.new)") {
		t.Error("an example sharing a line of code repeats the quoted one")
	}
}

// TestQualifiedSentenceIsNoRepeat: a sentence that goes on past a quoted
// one ("… disabled by default on Linux only; on Windows it is enabled by
// default") adds to it, and a word holding another's letters ("unable",
// "able") is no repeat of it.
func TestQualifiedSentenceIsNoRepeat(t *testing.T) {
	t.Parallel()
	quoted := []string{"Compression of the cache is disabled by default.\nSet cache_compress to on to enable it."}
	if repeats(quoted, "Compression of the cache is disabled by default on Linux only; on Windows it is enabled by default.") {
		t.Error("a qualified sentence repeats the quoted one")
	}
	quoted = []string{"Then you will be\nable to connect to the remote server without a prompt."}
	if repeats(quoted, "You will be unable to connect to the remote server without a prompt.") {
		t.Error("unable repeats able")
	}
}
