package answer

import (
	"strings"
	"testing"
)

// TestWhereQuestionQuotesTheLocation: a question asking where files are
// is answered by the sentence that gives their path, not by the
// section's first sentences, which hold the same words and say what the
// files are. A question that asks something else keeps the section's
// lead.
func TestWhereQuestionQuotesTheLocation(t *testing.T) {
	content := "Hook discovery\n\n" +
		"The frobnicator discovers hooks by looking for them in the hook directory whenever a job names one.\n\n" +
		"There are two types of files which can be put in the hook directory.\n\n" +
		"- .sock files are UNIX domain sockets.\n" +
		"- .spec files are text files containing a URL.\n\n" +
		"Hooks with socket files must run on the same host, whereas hooks with spec files can run anywhere.\n\n" +
		"Socket files must be located under /run/frob/hooks, whereas spec files can be located under /etc/frob/hooks.\n\n" +
		"The name of the file determines the hook name."
	src := []Source{{Content: content, Title: "Frobnicator hooks", HeadingPath: "Frobnicator hooks > Hook discovery"}}
	r := Extractive("Where does the frobnicator look for hook socket and spec files?", src, 3)
	if !strings.HasPrefix(r.Answer, "Socket files must be located under /run/frob/hooks") {
		t.Errorf("where question: %q, want the sentence giving the paths", r.Answer)
	}
	r = Extractive("How does the frobnicator discover hooks?", src, 3)
	if !strings.HasPrefix(r.Answer, "The frobnicator discovers hooks by looking for them") {
		t.Errorf("how question: %q, want the section's lead", r.Answer)
	}
}

// TestAnnouncedListIsQuotedWhole: when a passage's announced list does
// not fit whole, sentences before the announcing one that add no question
// term make room for its last items, which may be the one asked about.
func TestAnnouncedListIsQuotedWhole(t *testing.T) {
	content := "Builders\n\n" +
		"class widgets.builders.PDFBuilder\nThis builder produces a bunch of widget files in the output directory. " +
		"You have to specify which documents are to be included in which widget files via the widget_documents configuration value. " +
		"There are a few configuration values that customize the output of this builder, see the chapter Options for widget output for details. " +
		"The produced widget file uses several widget packages that may not be present in a minimal installation. " +
		"On Debian, the following packages need to be installed for successful PDF builds:\n\n" +
		"- widget-fonts-recommended\n- widget-latex-recommended\n- widget-gyre (if the engine is 'pdfwidget')\n" +
		"- widget-latex-extra\n- widgetmk (this is a requirement on GNU/Linux for make widgetpdf)\n"
	src := []Source{{Content: content, Title: "Builders", HeadingPath: "Builders"}}
	r := Extractive("Which Debian packages do I need to build PDF output with make widgetpdf?", src, 3)
	if !strings.Contains(r.Answer, "widgetmk") || !strings.Contains(r.Answer, "the following packages need to be installed") {
		t.Errorf("announced list cut: %q, want it whole with its announcing sentence", r.Answer)
	}
}

// TestWhereQuestionSkipsURLsAndPositionsInside: a URL's path is no place
// on disk ("the static URL will be /admin/static" lost the sentence on
// static_folder), and a question asking where inside a file ("Where
// should I put the ARG instruction in a Dockerfile?") asks for a position
// in it, which no sentence's path gives ("… would be /a/b/c" was quoted).
func TestWhereQuestionSkipsURLsAndPositionsInside(t *testing.T) {
	t.Parallel()
	static := []Source{{N: 1, HeadingPath: "Modular Applications with Blueprints > Static Files", Content: "Static Files\n\n" +
		"A blueprint can expose a folder with static files by providing the path to the folder on the filesystem with the static_folder argument. " +
		"It is either an absolute path or relative to the blueprint's location.\n\n" +
		"Because the folder is called static here it will be available at the url_prefix of the blueprint + /static. " +
		"If the blueprint has the prefix /admin, the static URL will be /admin/static."}}
	r := Extractive("Where do I put the static files of a blueprint?", static, 3)
	if !strings.HasPrefix(r.Answer, "A blueprint can expose a folder with static files") {
		t.Errorf("Answer =\n%s\nwant the sentence on static_folder first", r.Answer)
	}
	docker := []Source{{N: 1, HeadingPath: "Dockerfile reference > WORKDIR", Content: "WORKDIR\n\n" +
		"The WORKDIR instruction can be used multiple times in a Dockerfile. " +
		"The output of the final pwd command in this Dockerfile would be /a/b/c."}, {N: 2, HeadingPath: "Dockerfile reference > ARG", Content: "ARG\n\n" +
		"The ARG instruction defines a variable that users can pass at build-time to the builder with the docker build command. " +
		"An ARG instruction goes into effect from the line on which it is defined in the Dockerfile."}}
	r = Extractive("Where should I put the ARG instruction in a Dockerfile?", docker, 3)
	if strings.Contains(r.Answer, "/a/b/c") {
		t.Errorf("Answer =\n%s\nquotes an example's path for a position inside a Dockerfile", r.Answer)
	}
	for q, want := range map[string]bool{"where should i put the arg instruction in a dockerfile?": true, "where in the config file do i set the port?": true,
		"where does docker store images?": false, "where are the logs kept on disk?": false} {
		if got := asksPositionInside.MatchString(q); got != want {
			t.Errorf("asksPositionInside(%q) = %v, want %v", q, got, want)
		}
	}
}
