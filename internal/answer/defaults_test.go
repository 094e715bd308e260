package answer

import (
	"strings"
	"testing"
)

// devAddr is MkDocs 1.4's configuration entry for dev_addr as the site
// writes it: the description, then its default on a line of its own, in
// lower case.
func devAddr() []Source {
	return []Source{{
		N:           1,
		HeadingPath: "Configuration - MkDocs > Live Reloading > dev_addr",
		Content: "dev_addr\n\nDetermines the address used when running mkdocs serve. Must be of the format IP:PORT.\n\n" +
			"Allows a custom default to be set without the need to pass it through the --dev-addr option every time the mkdocs serve command is called.\n\n" +
			"default: '127.0.0.1:8000'\n\nSee also: site_url.",
	}}
}

// TestExtractiveDefaultQuestionQuotesTheDefault: a question asking what
// is used by default is answered with the entry's default line, which
// the reference writes two sentences below the description; a question
// not asking for the default is not.
func TestExtractiveDefaultQuestionQuotesTheDefault(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"What address and port does the local preview server use by default?", "Which address does mkdocs serve listen on if I don't set anything?"} {
		r := Extractive(q, devAddr(), 0)
		if !strings.Contains(r.Answer, "default: '127.0.0.1:8000' [1]") {
			t.Errorf("%s\nAnswer =\n%s\nwant the default line quoted", q, r.Answer)
		}
	}
	r := Extractive("What format must the address of mkdocs serve have?", devAddr(), 0)
	if strings.Contains(r.Answer, "127.0.0.1:8000") {
		t.Errorf("Answer =\n%s\nquotes the default for a question that does not ask for it", r.Answer)
	}
}

// TestLowerCaseDefaultIsAField: "default: …" in lower case is the entry's
// field, as "Default: …" is, not the caption of a new section.
func TestLowerCaseDefaultIsAField(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"default: '127.0.0.1:8000'", "Default: False", "type: bool"} {
		if !fieldLine(s) {
			t.Errorf("fieldLine(%q) = false", s)
		}
	}
	for _, s := range []string{"note: see below", "Step 7: Detail View"} {
		if fieldLine(s) {
			t.Errorf("fieldLine(%q) = true", s)
		}
	}
	us := parseTitledUnits(devAddr()[0].Content, devAddr()[0].HeadingPath, nil)
	for _, u := range us {
		if u.text == "default: '127.0.0.1:8000'" {
			return
		}
	}
	t.Errorf("units %v: the default line is not a unit", us)
}
