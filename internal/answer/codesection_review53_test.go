package answer

import (
	"strings"
	"testing"
)

// TestCodeOnlySectionIsQuoted: a section that is its heading and a command
// is quoted for a question its heading answers, not the sentence and
// command of the section before it; that section is still quoted for its
// own question.
func TestCodeOnlySectionIsQuoted(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "grubctl", HeadingPath: "grubctl > Plugins",
		Content: "Plugins\n\n## Install a plugin\n\nTo install a plugin from the registry you can run:\n\n```\n$ grubctl plugin add sample\n```\n\n" +
			"## Remove a plugin\n\n```\n$ grubctl plugin rm sample\n```\n\n## List plugins\n\n```\n$ grubctl plugin ls\n```\n"}
	for _, c := range []struct{ q, want, not string }{
		{"How do I remove a grubctl plugin?", "grubctl plugin rm sample", "plugin add"},
		{"How do I list grubctl plugins?", "grubctl plugin ls", "plugin add"},
		{"How do I install a grubctl plugin?", "grubctl plugin add sample", "plugin rm"},
	} {
		r := Extractive(c.q, []Source{src}, 3)
		if !strings.Contains(r.Answer, c.want) || strings.Contains(r.Answer, c.not) {
			t.Errorf("%q: answer %q, want %q and not %q", c.q, r.Answer, c.want, c.not)
		}
	}
}

// TestProseBlockIsNoCodeSection: prose a text edition sets as a literal
// block is not taken for a section's code; commands and listings are.
func TestProseBlockIsNoCodeSection(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"The quilt command (or its wrapped dquilt command) was needed to\n    manage the -p1 patches in the debian/patches/ directory before\n    the --commit feature was added to the dpkg-source command in\n    1.16.1.": true,
		"$ pip uninstall sampleproject\nUninstalling sampleproject:\nProceed (Y/n)? y":                                                       false,
		"# Turn the tracing off again: this is the default, and it is what you should use in production.\n$ acmetool config set trace false": false,
		"# apt-get install acmetool\n# acmetool --version":                                                                                   false,
		"Python 2 support dropped; interpreters older than 3.8 refused at start-up.":                                                         true,
		"for i in range(10):\n    if i % 2 == 0:\n        print(i, 'is even')\n    else:\n        pass":                                      false,
	} {
		if got := proseBlock(text); got != want {
			t.Errorf("proseBlock(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestCodeOnlySectionLeadsItsSection: the code of a heading-and-code
// section opens its section, as a first sentence does, with the same
// credit: asked with more words than its heading holds ("… to a new
// version"), the question was answered with the install section's
// sentence, which held only "plugin".
func TestCodeOnlySectionLeadsItsSection(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "grubctl plugins",
		Content: "grubctl plugins\n\n## Install a plugin\n\nTo install a plugin, run the add command with the plugin's name:\n\n```\n$ grubctl plugin add sample\n```\n\n" +
			"## Update all plugins\n\n```\n$ grubctl plugin update --all\n```\n\n" +
			"## Listing plugins\n\nInstalled plugins are shown by the status page of the web console, with their versions."}
	r := Extractive("How do I update a plugin to a new version?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "grubctl plugin update --all") || strings.Contains(r.Answer, "plugin add") {
		t.Errorf("answer %q: want the update section's code", r.Answer)
	}
}
