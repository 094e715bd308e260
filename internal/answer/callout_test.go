package answer

import (
	"strings"
	"testing"
)

// TestCalloutsBringTheirCode: numbered notes that explain the lines of
// the code block above them, marked <1>, <2> … (AsciiDoc's and DocBook's
// callouts; Asciidoctor writes (1)), are quoted with that code and its
// caption: a Git trial's answer to undoing a commit quoted "1. This is
// most often done when you remembered …" without `git reset --soft
// HEAD^`, the command the notes explain.
func TestCalloutsBringTheirCode(t *testing.T) {
	t.Parallel()
	for _, mark := range []string{"<%d>", "(%d)"} {
		m := func(n int) string { return strings.Replace(mark, "%d", string(rune('0'+n)), 1) }
		var b strings.Builder
		var code []Span
		block := func(caption string, lines []string, notes []string) {
			b.WriteString(caption + "\n")
			start := b.Len()
			b.WriteString(strings.Join(lines, "\n"))
			code = append(code, Span{Start: start, End: b.Len()})
			b.WriteString("\n\n")
			for i, n := range notes {
				b.WriteString(string(rune('1'+i)) + ". " + n + "\n")
			}
			b.WriteString("\n")
		}
		b.WriteString("EXAMPLES\n\n")
		block("Undo add", []string{"$ edit                                     " + m(1), "$ git add frotz.c filfre.c", "$ git reset                                " + m(2)},
			[]string{"You are happily working on something, and find the changes in these files are in good order.",
				"You revert the index changes for these two files; your changes in working tree remain there."})
		block("Undo a commit and redo", []string{"$ git commit ...", "$ git reset --soft HEAD^      " + m(1), "$ edit                        " + m(2), "$ git commit -a -c ORIG_HEAD  " + m(3)},
			[]string{"This is most often done when you remembered what you just committed is incomplete, or you misspelled your commit message, or both. Leaves working tree as it was before \"reset\".",
				"Make corrections to working tree files.",
				"\"reset\" copies the old head to .git/ORIG_HEAD; redo the commit by starting with its log message. If you do not need to edit the message further, you can give -C option instead."})
		block("Undo commits permanently", []string{"$ git commit ...", "$ git reset --hard HEAD~3   " + m(1)},
			[]string{"The last three commits (HEAD, HEAD^, and HEAD~2) were bad and you do not want to ever see them again."})
		r := Extractive("I committed too early. How do I undo the last commit but keep my edits so I can redo it?",
			[]Source{{N: 1, Title: "git-reset(1)", HeadingPath: "git-reset(1) > EXAMPLES", Content: b.String(), Code: code}}, 3)
		if !strings.Contains(r.Answer, "git reset --soft HEAD^") || !strings.Contains(r.Answer, "This is most often done") {
			t.Errorf("callouts %s: answer %q: want the notes with the code they explain", mark, r.Answer)
		}
	}
}
