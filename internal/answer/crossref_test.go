package answer

import (
	"strings"
	"testing"
)

// A reference entry's "See also" line, its "Arguments : none" and its
// table of where it may be used share the question's words but say
// nothing: the extractive answer quotes the entry's description. Measured
// on the HAProxy manual, these were the quotation for 15 of 30 questions.
func TestExtractiveSkipsCrossReferencesAndFlagRows(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "configuration.html", Title: "Configuration", HeadingPath: "Configuration > 4.2. Keywords > option httpchk",
		Content: `option httpchk

May be used in sections :

| defaults | frontend | listen | backend |
|---|---|---|---|
| yes | no | yes | yes |

Arguments : none

Enables HTTP protocol to check on the servers health, which a server passes by answering with a 2xx or 3xx status.

See also : "option httpchk", "http-check send" and "http-check expect".`}}
	r := Extractive("what does option httpchk do", src, 1)
	if !strings.Contains(r.Answer, "Enables HTTP protocol to check") || strings.Contains(r.Answer, "See also") ||
		strings.Contains(r.Answer, "defaults: yes") || strings.Contains(r.Answer, "Arguments") {
		t.Errorf("answer %q; want the description alone", r.Answer)
	}
}

func TestCrossReferenceAndFlagRow(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		`See also : "timeout client", "timeout server".`: true,
		"See also the user_version pragma.":              true,
		"see also: fd-hard-limit, ulimit-n":              true,
		"Seealso nothing":                                false,
		"Seeing also matters.":                           false,
		"The manual (see also chapter 4) says more.":     false,
	} {
		if got := crossReference(s); got != want {
			t.Errorf("crossReference(%q) = %v", s, got)
		}
	}
	for s, want := range map[string]bool{
		"defaults: yes; frontend: no; listen: yes; backend: yes": true,
		"defaults: yes(!); frontend: –":                          true,
		"Error Code: 42P01; Condition Name: undefined_table":     false,
		"yes":                       false,
		"timeout: 30s; retries: no": false,
	} {
		if got := flagRow(s); got != want {
			t.Errorf("flagRow(%q) = %v", s, got)
		}
	}
	for s, want := range map[string]bool{"Arguments : none": true, "Return value: none.": true, "Arguments : <timeout> is the value": false} {
		if got := emptyLabel.MatchString(s); got != want {
			t.Errorf("emptyLabel(%q) = %v", s, got)
		}
	}
}
