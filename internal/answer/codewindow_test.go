package answer

import (
	"fmt"
	"strings"
	"testing"
)

// TestLongCodeIsQuotedWhereTheQuestionIs (h-trial38): a command's --help
// output longer than maxCodeLines was quoted from its start and cut before
// the option the question asked about ("what does --use-fuzzy do when
// compiling catalogs"). The block is quoted with its first lines and the
// lines from just above the first one writing an option the question
// names; a question naming no option, or one the start writes, gets the
// block from its start.
func TestLongCodeIsQuotedWhereTheQuestionIs(t *testing.T) {
	t.Parallel()
	var help []string
	help = append(help, "$ pybabel compile --help", "Usage: pybabel compile [options]", "", "Options:")
	for i := range 20 {
		help = append(help, fmt.Sprintf("  --option-%02d     sets the %02d behaviour of the compiler", i, i))
	}
	help = append(help, "  -f, --use-fuzzy   also include fuzzy translations", "  --statistics      print statistics about translations")
	content := "Compile catalogs\n\nThe compile command turns message catalogs into binary MO files:\n\n" + strings.Join(help, "\n")
	src := []Source{{N: 1, Title: "Command-Line Interface", HeadingPath: "Command-Line Interface > compile", Content: content}}
	got := Extractive("what does --use-fuzzy do when compiling catalogs", src, 3).Answer
	if !strings.Contains(got, "--use-fuzzy   also include fuzzy translations") || !strings.Contains(got, "$ pybabel compile --help") {
		t.Errorf("answer:\n%s\nwant the command and the --use-fuzzy line", got)
	}
	if containsOption("  --use-fuzzy-all   x", "--use-fuzzy") || !containsOption("-f, --use-fuzzy   x", "--use-fuzzy") {
		t.Error("containsOption: an option is written whole")
	}
	got = Extractive("which options does pybabel compile take, and what do fuzzy translations do?", src, 3).Answer
	if !strings.Contains(got, "Usage: pybabel compile") || !strings.Contains(got, "--option-00") {
		t.Errorf("answer:\n%s\nwant the block from its start", got)
	}
}

// TestLongHelpIsQuotedAtTheOptionAskedFor: a question asking which option
// does something names no option; the option line below the block's first
// lines whose description holds the most of its terms is quoted ("Which
// option makes pybabel compile include fuzzy translations?" had been cut
// at -d, eight lines above -f, --use-fuzzy).
func TestLongHelpIsQuotedAtTheOptionAskedFor(t *testing.T) {
	t.Parallel()
	help := []string{"$ pybabel compile --help", "Usage: pybabel compile [options]", "", "compile message catalogs to MO files", "", "Options:",
		"  -h, --help            show this help message and exit", "  -D DOMAIN, --domain=DOMAIN", "                        domains of PO files (space separated list, default", "                        'messages')",
		"  -d DIRECTORY, --directory=DIRECTORY", "                        path to base directory containing the catalogs", "  -i INPUT_FILE, --input-file=INPUT_FILE",
		"                        name of the input file", "  -o OUTPUT_FILE, --output-file=OUTPUT_FILE", "                        name of the output file", "  -l LOCALE, --locale=LOCALE",
		"                        locale of the catalog to compile", "  -f, --use-fuzzy       also include fuzzy translations", "  --statistics          print statistics about translations"}
	lead := "compile\n\nThe compile sub-command can be used to compile translation catalogs into binary MO files:\n\n"
	content := lead + strings.Join(help, "\n")
	src := []Source{{N: 1, Title: "Command-Line Interface", HeadingPath: "Command-Line Interface > compile", Content: content, Code: []Span{{Start: len(lead), End: len(content)}}}}
	got := Extractive("Which option makes pybabel compile include fuzzy translations in the MO file?", src, 3).Answer
	if !strings.Contains(got, "-f, --use-fuzzy       also include fuzzy translations") {
		t.Errorf("answer:\n%s\nwant the --use-fuzzy line", got)
	}
}
