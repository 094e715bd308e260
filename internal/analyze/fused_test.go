package analyze

import (
	"slices"
	"strings"
	"testing"
)

func TestFusedParts(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"exception werkzeug.exceptions.RequestEntityTooLarge(description=None)", "RequestEntityTooLarge"},
		{"It speaks HTTP/1.1 over TCP/IP.", "HTTP IP TCP"},
		{"secure_filename(\"../../../etc/passwd\") returns 'etc_passwd'", "passwd etc"},
		{"Edit pg_hba.conf, then call os.path.join().", "pg_hba join"},
		{"Vue.js and settings.py", "Vue settings"},
		{"The end.Next sentence", "Next"},
		// Not fused: numbers, sentence ends, single letters, URLs, mail,
		// times, CJK.
		{"Python 3.13 is out. See e.g. I/O and and/or.", "or and"},
		{"https://docs.python.org/3/library/os.html user@example.com 12:30", ""},
		{"配置.文件", ""},
	} {
		if got := FusedParts(tc.text); got != tc.want {
			t.Errorf("FusedParts(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestDocumentFusedPartsLeadingNames: a document is indexed with the
// leading names of its dotted names and their last parts, so that a
// question naming request.args (which sends request.args and args) finds
// request.args.get(…); a question sends none, and numbers, pairs and URLs
// give none.
func TestDocumentFusedPartsLeadingNames(t *testing.T) {
	for text, want := range map[string]string{
		"page = request.args.get(get_page_parameter(), type=int)": "get request.args args",
		"sqlalchemy.orm.Session.execute(statement)":               "execute sqlalchemy.orm orm sqlalchemy.orm.Session Session",
		"Edit pg_hba.conf, then call os.path.join().":             "pg_hba join os.path path",
		"Python 3.11.4 and os.path":                               "path",
		"logging.Logger.info(msg)":                                "info logging.Logger Logger",
		"see https://docs.python.org/3/library/os.path.html":      "",
	} {
		if got := DocumentFusedParts(text); got != want {
			t.Errorf("DocumentFusedParts(%q) = %q, want %q", text, got, want)
		}
	}
	if got := FusedParts("Why is request.args.get empty?"); got != "get" {
		t.Errorf("FusedParts of a question = %q, want the last part only", got)
	}
}

// TestFusedPartsOfAnElementPath: an XML element's path with namespace
// prefixes ("rss/channel/item/psc:chapters") gives the names on both sides
// of each colon, which the parser reads as a file and a word; a time gives
// none.
func TestFusedPartsOfAnElementPath(t *testing.T) {
	for text, want := range map[string]string{
		"rss/channel/item/psc:chapters":     "psc item channel rss",
		"atom:feed/atom:entry/psc:chapters": "atom feed psc entry",
		"run myapp.cli:main at 12:30":       "cli",
	} {
		if got := FusedParts(text); got != want {
			t.Errorf("FusedParts(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestSchemeWords: a URL's scheme is a word of the text (the parser drops
// it with its "://"), once per text; e-mail, times and bare hosts give
// none. A document is indexed with it; a question sends it as an
// alternative, never a required term.
func TestSchemeWords(t *testing.T) {
	for text, want := range map[string]string{
		"normalize feed:// and itpc:// URLs to http://; see http://example.com": "feed itpc http",
		"DATABASE_URL=postgres://u@h/db or redis://localhost:6379/0":            "postgres redis",
		"pip install git+ssh://git@github.com/a/b.git":                          "git ssh",
		"write to user@example.com at 12:30 on example.com":                     "",
	} {
		if got := SchemeWords(text); got != want {
			t.Errorf("SchemeWords(%q) = %q, want %q", text, got, want)
		}
	}
	if q := Query("How do I turn itpc:// links into http ones?"); slices.Contains(strings.Fields(q), "itpc") {
		t.Errorf("Query sends itpc as a required term: %q", q)
	}
	if !slices.ContainsFunc(Alternates("How do I turn itpc:// links into http ones?", "english"), func(a Alternate) bool { return a.Form == "itpc" }) {
		t.Error("no alternative itpc for the question's itpc://")
	}
	if k := Keywords("Connect with postgres://user@host/db."); !slices.Contains(strings.Fields(k), "postgres") {
		t.Errorf("Keywords index no postgres: %q", k)
	}
}

// TestNumberedNames: a name and a small number written apart get their
// joined form as an alternative; a release's decimal number, a longer
// number and a lone number do not.
func TestNumberedNames(t *testing.T) {
	got := NumberedNames("Is bootstrap 5 supported, like Python 3 and HTML 5, in Python 3.11 or port 8080 at 5?")
	var forms []string
	for _, a := range got {
		forms = append(forms, a.Word+"="+a.Form)
	}
	want := []string{"bootstrap 5=bootstrap5", "Python 3=Python3", "HTML 5=HTML5"}
	if !slices.Equal(forms, want) {
		t.Errorf("NumberedNames = %q, want %q", forms, want)
	}
}
