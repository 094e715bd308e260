package answer

import (
	"strings"
	"testing"
)

// TestListParagraphBetweenCommandsIsProse: where extraction recorded the
// code, a list item's next paragraph, which extraction indents under the
// item, is prose even right after a command: gevent's install notes quoted
// "On Fedora Rawhide …, one might need to do this:" and the note after it
// inside the Alpine command's code block.
func TestListParagraphBetweenCommandsIsProse(t *testing.T) {
	t.Parallel()
	apk := "apk add --virtual build-deps file make gcc musl-dev libffi-dev"
	yum := "yum install python3-devel gcc kernel-devel kernel-headers make diffutils file"
	content := "Installing from source\n\n" +
		"- You’ll need a working C compiler toolchain that can build Python extensions. Installing make and other common utilities such as file may also be required.\n" +
		"  For example, on Alpine Linux, one might need to do this:\n\n" + apk + "\n\n" +
		"  On Fedora Rawhide for Fedora 33, one might need to do this:\n\n" + yum + "\n\n" +
		"  (Newer versions of Fedora use dnf for package management.)\n" +
		"- Installing from source requires setuptools."
	i, j := strings.Index(content, apk), strings.Index(content, yum)
	src := Source{N: 1, Title: "Installing", HeadingPath: "Installing > Installing from source", Content: content,
		Code: []Span{{i, i + len(apk)}, {j, j + len(yum)}}}
	us := parseUnits(src.Content, src.HeadingPath, src.Code...)
	var fedora *unit
	for k := range us {
		if strings.Contains(us[k].text, "On Fedora Rawhide") {
			fedora = &us[k]
		}
	}
	if fedora == nil || fedora.kind != unitSentence || strings.Contains(fedora.text, "apk add") {
		t.Fatalf("units %+v: want the Fedora paragraph a sentence of its own", us)
	}
	// Without recorded code (a plain-text file), an indented block is code.
	plain := parseUnits("Usage\n\nRun it:\n\n    frob --all\n    frob --none\n", "Usage")
	if len(plain) < 2 || plain[len(plain)-1].kind != unitCode {
		t.Errorf("units %+v: want the indented lines of a plain-text file read as code", plain)
	}
}

// TestCodeCuttingASentenceBringsItsRest: a passage ending on code that cut
// a sentence in two ("If you usually use: $ pytest arg1 then you can run
// your tests under coverage with: $ coverage run -m pytest arg1") goes on
// with the sentence's rest and the code it announces.
func TestCodeCuttingASentenceBringsItsRest(t *testing.T) {
	t.Parallel()
	first, second := "$ pytest arg1 arg2", "$ frobcov run -m pytest arg1 arg2"
	content := "Quick start\n\nIf you usually run your test suite with pytest, like this:\n\n" + first + "\n\n" +
		"then you can measure it with:\n\n" + second + "\n\nMany people choose a plugin instead."
	i, j := strings.Index(content, first), strings.Index(content, second)
	src := Source{N: 1, Title: "Quick start", HeadingPath: "Quick start", Content: content,
		Code: []Span{{i, i + len(first)}, {j, j + len(second)}}}
	r := Extractive("How do I run my pytest test suite?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "$ pytest arg1 arg2") {
		t.Fatalf("answer %q: want the passage holding pytest's command", r.Answer)
	}
	if !strings.Contains(r.Answer, "then you can measure it with") || !strings.Contains(r.Answer, "frobcov run -m pytest") {
		t.Errorf("answer %q: want the rest of the sentence the code cut and the code it announces", r.Answer)
	}
	// A capital after the code opens a sentence of its own.
	src.Content = strings.Replace(content, "then you can measure it with:", "And a second example follows:", 1)
	j = strings.Index(src.Content, second)
	src.Code = []Span{{i, i + len(first)}, {j, j + len(second)}}
	r = Extractive("How do I run my pytest test suite?", []Source{src}, 2)
	if strings.Contains(r.Answer, "second example") {
		t.Errorf("answer %q: took the next sentence after the code for the rest of the one before it", r.Answer)
	}
}

// TestHowQuestionGetsTheSectionsMeans: asked how, when the passage is a
// section's opening that neither instructs nor holds code, the section's
// code further down that holds a question term is quoted after it, with
// the sentence announcing it (cmd2's "Hide Builtin Settings" stopped
// before remove_settable('debug')). A question that does not ask how
// does not get it, nor does code of the next section.
func TestHowQuestionGetsTheSectionsMeans(t *testing.T) {
	t.Parallel()
	code := "class MyApp(cmd2.Cmd):\n    def __init__(self):\n        super().__init__()\n        self.remove_settable('debug')"
	content := "Hide Builtin Settings\n\n" +
		"You may want to prevent a user from modifying a builtin setting. A setting must appear in the settable dictionary to be available to the set command.\n\n" +
		"Let’s say that you never want end users of your program to be able to enable full debug tracebacks. You might want to hide the debug setting. " +
		"To do so, take it out of the settable dictionary after you initialize your object. It is then gone from the set command's listing too. " +
		"The remove_settable() convenience method makes this easy:\n\n" + code + "\n\n" +
		"Builtin Settings\n\necho: If True, each command is repeated to the screen before it runs."
	i := strings.Index(content, code)
	src := Source{N: 1, Title: "Settings", HeadingPath: "Settings > Hide Builtin Settings", Content: content,
		Code: []Span{{i, i + len(code)}}, Titles: []string{"Hide Builtin Settings", "Builtin Settings"}}
	r := Extractive("How do I stop end users from enabling full debug tracebacks with the set command?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "prevent a user from modifying a builtin setting") {
		t.Fatalf("answer %q: want the section's opening", r.Answer)
	}
	if !strings.Contains(r.Answer, "self.remove_settable('debug')") || !strings.Contains(r.Answer, "makes this easy") {
		t.Errorf("answer %q: want the section's code and the sentence announcing it", r.Answer)
	}
	r = Extractive("Why would I prevent end users from enabling full debug tracebacks with the set command?", []Source{src}, 3)
	if strings.Contains(r.Answer, "remove_settable('debug')") {
		t.Errorf("answer %q: a question that does not ask how was given the code", r.Answer)
	}
}

// TestCodeAfterItsSourcesQuoteHasNoStrayMarker: code quoted alone right
// after a quote of its own source is cited by that quote; no "[1]" stands
// on a line of its own under it.
func TestCodeAfterItsSourcesQuoteHasNoStrayMarker(t *testing.T) {
	t.Parallel()
	code := "def task_use():\n    return {'actions': ['echo x=%(x)s'], 'getargs': {'x': ('compute', 'x')}}"
	content := "getargs\n\ngetargs provides a way to use values computed from one task in another task. " +
		"The values are taken from saved computed values, the dict a python-action returns. " +
		"Only values of tasks that ran are available. Values are kept in the dependency file.\n\n" +
		"They are stored after the task runs. Each value keeps its key. A task may read several of them.\n\n" + code + "\n\nSee also the calc_dep section."
	i := strings.Index(content, code)
	src := Source{N: 1, Title: "Dependencies", HeadingPath: "Dependencies > getargs", Content: content, Code: []Span{{i, i + len(code)}}}
	r := Extractive("How can one task use a value computed and returned by another task's python action?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "'getargs': {'x'") {
		t.Fatalf("answer %q: want the section's code", r.Answer)
	}
	for _, line := range strings.Split(r.Answer, "\n") {
		if strings.TrimSpace(line) == "[1]" {
			t.Errorf("answer %q: a marker stands alone under the code", r.Answer)
		}
	}
}

// TestHowQuestionAfterAnExampleGetsTheInstruction: asked how, a passage
// holding code that shows what a feature does (a repository's layout) is
// followed by its section's instruction holding a question term ("To
// activate one of templates within a subdirectory, use the --directory
// option:") and the command it announces.
func TestHowQuestionAfterAnExampleGetsTheInstruction(t *testing.T) {
	t.Parallel()
	tree := "https://github.com/user/repo-name.git\n    ├── directory1-name/\n    |   └── cookiecutter.json\n    └── directory2-name/\n        └── cookiecutter.json"
	cmd := "cookiecutter https://github.com/user/repo-name.git --directory=\"directory1-name\""
	content := "Organizing cookiecutters in directories\n\n" +
		"Cookiecutter introduces the ability to organize several templates in one repository or zip file, separating them by directories. " +
		"This allows using symlinks for general files. Here’s an example repository demonstrating this feature:\n\n" + tree + "\n\n" +
		"Each directory holds a template of its own, with its own cookiecutter.json. The templates may share hooks through symlinks. " +
		"To activate one of templates within a subdirectory, use the --directory option:\n\n" + cmd
	i, j := strings.Index(content, tree), strings.Index(content, cmd)
	src := Source{N: 1, Title: "Directories", HeadingPath: "Organizing cookiecutters in directories", Content: content,
		Code: []Span{{i, i + len(tree)}, {j, j + len(cmd)}}}
	r := Extractive("My repository holds several templates in separate subfolders; how do I tell cookiecutter which one to use?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "organize several templates in one repository") {
		t.Fatalf("answer %q: want the section's opening", r.Answer)
	}
	if !strings.Contains(r.Answer, "use the --directory option") || !strings.Contains(r.Answer, "--directory=\"directory1-name\"") {
		t.Errorf("answer %q: want the instruction and its command after the example", r.Answer)
	}
}
