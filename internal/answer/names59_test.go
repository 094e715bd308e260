package answer

import (
	"strings"
	"testing"
)

// TestSectionNamedByItsHeading: a quote that opens a section headed by a
// name (a command, an option, a filter: "build", "clean", "sass_bin") is
// written under that name when it does not say it. webassets' commands are
// sections whose descriptions never name them ("Will clear out the cache,
// which after a while can grow quite large."), and asked how to clear the
// cache the answer said what the command does and not which it is (a
// held-out trial). A section titled in words ("Included Commands",
// "Installation") is not a name, and a quote that names its section's name
// is written as it is.
func TestSectionNamedByItsHeading(t *testing.T) {
	t.Parallel()
	const page = "Command Line Interface — webassets 0.12.1 documentation"
	src := []Source{{N: 1, Title: page, HeadingPath: page + " > Included Commands",
		Titles: []string{page, "Included Commands", "build", "watch", "clean"},
		Content: "Included Commands\n\nThe following describes the commands that will be available to you through the webassets CLI interface.\n\n" +
			"build\n\nBuilds all bundles, regardless of whether they are detected as having changed or not.\n\n" +
			"watch\n\nStart a daemon which monitors your bundle source files, and automatically rebuilds bundles when a change is detected.\n\n" +
			"This can be useful during development, if building is not instantaneous, and you are losing valuable time waiting for the build to finish while trying to access your site.\n\n" +
			"clean\n\nWill clear out the cache, which after a while can grow quite large."}}
	for _, c := range []struct{ q, want, not string }{
		{"The webassets cache directory has grown quite large, how do I clear it out?", "clean: Will clear out the cache", ""},
		{"Which command line command rebuilds every bundle regardless of whether anything changed?", "build: Builds all bundles", ""},
		{"Is there a way to automatically rebuild bundles whenever I edit a source file during development?", "watch: Start a daemon", ""},
	} {
		r := Extractive(c.q, src, 0)
		if !strings.Contains(r.Answer, c.want) {
			t.Errorf("%s\nAnswer =\n%s\nwant %q", c.q, r.Answer, c.want)
		}
	}
	// Titled in words: no label.
	words := []Source{{N: 1, Title: "Guide", HeadingPath: "Guide > Setup",
		Titles:  []string{"Guide", "Setup", "Clearing the cache"},
		Content: "Setup\n\nInstall the package with pip.\n\nClearing the cache\n\nWill clear out the cache, which after a while can grow quite large."}}
	if r := Extractive("How do I clear out the cache when it has grown large?", words, 0); strings.Contains(r.Answer, "Clearing the cache:") {
		t.Errorf("Answer =\n%s\nwant no label from a heading in words", r.Answer)
	}
	// The quote names it already: written as it is.
	named := []Source{{N: 1, Title: "Filters", HeadingPath: "Filters > rjsmin",
		Titles:  []string{"Filters", "rjsmin"},
		Content: "rjsmin\n\nThe rjsmin filter minifies JavaScript with the rJSmin library, which is included with webassets."}}
	if r := Extractive("Which JavaScript minifier works without installing another package?", named, 0); strings.Contains(r.Answer, "rjsmin: ") {
		t.Errorf("Answer =\n%s\nwant no label: the quote names rjsmin", r.Answer)
	}
	for h, want := range map[string]bool{"build": true, "sass_bin": true, "SASS_BIN": true, "--no-cache": true, "get_config()": true, "Environment.auto_build": true,
		"Included Commands": false, "Installation": false, "usage": false, "examples": false, "Less": false, "v0.10.2": false, "1.3": false, "": false} {
		if got := nameHeading(h); got != want {
			t.Errorf("nameHeading(%q) = %v, want %v", h, got, want)
		}
	}
}
