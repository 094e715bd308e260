package analyze

import (
	"slices"
	"strings"
	"testing"
)

// TestR62LeadingNameCarriesWhatAQuestionSends: DocumentFusedParts' comment
// says that, indexed with its leading names, a document "has the lexeme a
// question naming the object sends". A question naming request.args sends
// two terms, though: the whole name's lexeme (request.args) and, from
// FusedParts, its last part ("args"), and every lexeme of Query is a
// required term (store.KeywordTerms: optional only for analyze.Alternates'
// forms). A document that writes only request.args.get(…) is indexed with
// "get" and "request.args", never "args", so the question still has a term
// that no such document holds: the keyword leg's idf-based confidence
// counts it as absent at the highest idf, which is the refusal the new
// keywords were meant to end ("was told no document mentions it"); it is
// only hidden when some other page happens to write the last part alone.
// The same for "sqlalchemy.orm.Session" (sends "Session") over a page of
// sqlalchemy.orm.Session.execute, and "django.contrib.auth" (sends
// "auth").
func TestR62LeadingNameCarriesWhatAQuestionSends(t *testing.T) {
	for _, tc := range []struct{ doc, question string }{
		{"page = request.args.get(get_page_parameter(), type=int)", "What does request.args hold?"},
		{"sqlalchemy.orm.Session.execute(statement) runs the statement.", "How do I open a sqlalchemy.orm.Session?"},
		{"Call django.contrib.auth.models.User.objects.create_user().", "What is in django.contrib.auth?"},
	} {
		indexed := map[string]bool{}
		for _, f := range strings.Fields(Keywords(tc.doc)) {
			indexed[strings.ToLower(f)] = true
		}
		// The parser's words of the text, roughly: a dotted name is one
		// lexeme (host), the rest split at punctuation.
		for _, f := range strings.FieldsFunc(tc.doc, func(r rune) bool { return !WordRune(r) && r != '.' }) {
			indexed[strings.ToLower(strings.Trim(f, "."))] = true
		}
		for _, sent := range strings.Fields(FusedParts(tc.question)) {
			if !indexed[strings.ToLower(sent)] {
				t.Errorf("question %q sends %q, which the document %q is not indexed with (Keywords %q)",
					tc.question, sent, tc.doc, Keywords(tc.doc))
			}
		}
	}
}

// TestR62NoLeadingNamesOfHostNames: dottedPrefixes' comment says what it
// reads are object paths ("a longer one is a domain, a generated name or a
// run of text, not an object path"), but a host name of three parts is
// read as an object path too: every bare host a page writes
// (docs.python.org, www.example.com, api.github.com, db.example.com:5432,
// which the colon split now reaches) adds a lexeme no question ever sends
// ("docs.python", "www.example", "api.github", "db.example"), and so do
// minified and doubly-extended file names ("jquery.min" of jquery.min.js).
// Noise in every chunk that names a host; a URL with a scheme is skipped,
// so it is the scheme-less hosts of prose and configuration that pay.
func TestR62NoLeadingNamesOfHostNames(t *testing.T) {
	text := "Read docs.python.org or www.example.com; call api.github.com; connect to db.example.com:5432; load jquery.min.js"
	got := strings.Fields(DocumentFusedParts(text))
	for _, junk := range []string{"docs.python", "www.example", "api.github", "db.example", "jquery.min"} {
		if slices.Contains(got, junk) {
			t.Errorf("DocumentFusedParts(%q) = %q: %q is no object's leading name", text, got, junk)
		}
	}
}
