package extract

import (
	"strings"
	"testing"
)

// TestMySTSyntaxIsText: a Sphinx project's MyST Markdown is stored as the
// text it renders to: no target labels, roles as their text or code,
// admonitions as prose, navigation directives left out, other directives
// as code blocks without their options. Before, an answer quoted
// "(daemon-compat)=" inside a code block and "{file}requirements.txt".
func TestMySTSyntaxIsText(t *testing.T) {
	t.Parallel()
	src := "# Upgrading the daemon\n\nUpgrade the daemon by running:\n\n```sh\n$ quibctl daemon upgrade --channel stable\n```\n\n" +
		"(daemon-compat)=\n## Compatibility\n\nMany projects use {file}`requirements.txt` files, see {ref}`the user guide <user-guide>` and {pep}`518`.\n\n" +
		"```{note}\n:class: tip\nThe daemon keeps its *state* across upgrades.\n```\n\n" +
		":::{warning}\nNever downgrade a running daemon.\n:::\n\n" +
		"```{toctree}\n:maxdepth: 2\n\ninstall\nupgrade\n```\n\n" +
		"```{code-block} python\n:linenos:\nprint('hi')\n```\n\n" +
		"```{pip-cli}\n$ pip install quib\n```\n\n" +
		"````{admonition} Heads up\nRun this first:\n```\nquibctl stop\n```\n````\n\n" +
		"```text\n(not-a-target)=\n{file}`kept`\n```\n"
	doc, err := Extract(TypeMarkdown, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Many projects use requirements.txt files, see the user guide and PEP 518.",
		"The daemon keeps its state across upgrades.",
		"Never downgrade a running daemon.",
		"print('hi')",
		"$ pip install quib",
		"Heads up", "Run this first:", "quibctl stop",
		"(not-a-target)=\n{file}`kept`",
	} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text %q\nwant it to hold %q", doc.Text, want)
		}
	}
	for _, not := range []string{"(daemon-compat)=", "{file}", "{ref}", "user-guide", ":class:", ":linenos:", "maxdepth", "install\nupgrade", "{note}"} {
		if strings.Contains(strings.ReplaceAll(doc.Text, "(not-a-target)=\n{file}`kept`", ""), not) {
			t.Errorf("text %q\nholds %q", doc.Text, not)
		}
	}
	var codes, paras []string
	for _, b := range doc.Blocks {
		switch b.Kind {
		case KindCode:
			codes = append(codes, doc.Text[b.Start:b.End])
		case KindParagraph:
			paras = append(paras, doc.Text[b.Start:b.End])
		}
	}
	if !slicesHas(paras, "The daemon keeps its state across upgrades.") || slicesHas(codes, "The daemon keeps its state across upgrades.") {
		t.Errorf("paragraphs %q, code %q: want the note as prose", paras, codes)
	}
	if !slicesHas(codes, "$ quibctl daemon upgrade --channel stable") || slicesHas(codes, "(daemon-compat)=") {
		t.Errorf("code %q: want the fence without the target", codes)
	}
	// Markdown without MyST comes back unchanged.
	plain := []byte("# T\n\nA {brace} and `code` stay.\n")
	if got := myst(plain); string(got) != string(plain) {
		t.Errorf("myst(%q) = %q", plain, got)
	}
}

func slicesHas(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// TestMySTPrePassLeavesOrdinaryMarkdownAlone: braces inside or between
// code spans, indented code and quoted code are not MyST and stay as
// written; tabs keep their titles, admonitions their first line, version
// directives their version, and YAML options are left out.
func TestMySTPrePassLeavesOrdinaryMarkdownAlone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Run `echo ${HOME}` and then `ls -la` to list files.\n", "Run echo ${HOME} and then ls -la to list files."},
		{"Use `{name}` or `{value}` in the template.\n", "Use {name} or {value} in the template."},
		{"- `.d-{value}` for `xs`\n", ".d-{value} for xs"},
		{"The format `{property}{sides}-{size}` for `xs`.\n", "The format {property}{sides}-{size} for xs."},
		{"Intro.\n\n    (a)=\n    x = {file}`foo`\n", "(a)=\nx = {file}`foo`"},
		{"> ```python\n> print({pep}`8`)\n> ```\n", "print({pep}`8`)"},
		{"See {file}`setup.cfg` and {pep}`518`.\n", "See setup.cfg and PEP 518."},
	} {
		doc, err := Extract(TypeMarkdown, []byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Text, c.want) {
			t.Errorf("%q\n got %q\nwant it to hold %q", c.in, doc.Text, c.want)
		}
	}
	src := "# Cache\n\n````{tab-set}\n```{tab-item} Linux\nThe cache is in `~/.cache/pip`.\n```\n```{tab-item} Windows\nThe cache is in `%LocalAppData%\\pip\\Cache`.\n```\n````\n\n" +
		"```{warning} Never run the installer as root.\n```\n\n" +
		"```{versionchanged} 22.1\nThe out-of-tree build option was removed.\n```\n\n" +
		"```{note}\n---\nclass: tip\n---\nNotes keep their text.\n```\n"
	doc, err := Extract(TypeMarkdown, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Linux", "The cache is in ~/.cache/pip.", "Windows", "Never run the installer as root.",
		"Changed in version 22.1", "The out-of-tree build option was removed.", "Notes keep their text."} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text %q\nwant it to hold %q", doc.Text, want)
		}
	}
	for _, not := range []string{"class: tip", "{tab", "```"} {
		if strings.Contains(doc.Text, not) {
			t.Errorf("text %q\nholds %q", doc.Text, not)
		}
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindCode || b.Kind == KindHeading && strings.Contains(doc.Text[b.Start:b.End], "class") {
			t.Errorf("block %v %q: want prose only", b.Kind, doc.Text[b.Start:b.End])
		}
	}
}
