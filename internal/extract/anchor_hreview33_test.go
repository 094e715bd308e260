package extract

import (
	"net/url"
	"strings"
	"testing"
)

// TestHReview33DuplicateKeywordNamesLinkToTheirEntry: haproxy-dconv (the
// HAProxy manual this change was made for) writes every keyword entry as
// below: the same keyword in several sections ("maxconn" is an entry of
// 3.2, 3.10, 4.2, 5.1 and 5.2 of the 2.6 manual; 162 of its 1,372 entries
// share their name with another) carries the same <a name="maxconn"> in its
// bold title, and only "4.2-maxconn" (the href of its title and a named
// anchor before it) is its own. A link to #maxconn opens the first entry
// of that name, the global section's, so the proxies' maxconn entry must
// not be linked by it.
func TestHReview33DuplicateKeywordNamesLinkToTheirEntry(t *testing.T) {
	t.Parallel()
	entry := func(chapter, top, title, args, text string) string {
		return `<a class="anchor" name="maxconn"></a><a class="anchor" name="` + top + `-maxconn"></a><a class="anchor" name="` + chapter + `-maxconn"></a>` +
			`<a class="anchor" name="maxconn (` + title + `)"></a><div class="keyword"><b><a class="anchor" name="maxconn"></a><a href="#` + chapter +
			`-maxconn">maxconn</a></b> <span style="color: #080">&lt;` + args + `&gt;</span></div><pre class="text">` + text + `</pre>`
	}
	page := `<html><head><title>HAProxy</title></head><body><div class="container">
<h2 id="chapter-3.2" data-target="3.2"><small><a class="small" href="#3.2">3.2.</a></small> Performance tuning</h2>` +
		entry("3.2", "3", "Performance tuning", "number", "Sets the maximum per-process number of concurrent connections to the given value.") +
		`<h2 id="chapter-4.2" data-target="4.2"><small><a class="small" href="#4.2">4.2.</a></small> Alphabetically sorted keywords reference</h2>` +
		entry("4.2", "4", "Proxies", "conns", "Fix the maximum number of concurrent connections on a frontend.") +
		`</div></body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	var anchors []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading && strings.HasPrefix(doc.Text[b.Start:b.End], "maxconn") {
			anchors = append(anchors, b.Anchor)
		}
	}
	if len(anchors) != 2 {
		t.Fatalf("want the two maxconn entries as headings, got anchors %q:\n%s", anchors, doc.Text)
	}
	// Where a browser goes: the first element named by the fragment.
	target := func(anchor string) int {
		name, err := url.PathUnescape(anchor)
		if err != nil {
			t.Fatal(err)
		}
		at := len(page)
		for _, attr := range []string{`name="`, `id="`} {
			if i := strings.Index(page, attr+name+`"`); i >= 0 && i < at {
				at = i
			}
		}
		return at
	}
	section42 := strings.Index(page, `id="chapter-4.2"`)
	if at := target(anchors[1]); at < section42 {
		t.Errorf("the 4.2 maxconn entry links to #%s, which opens the 3.2 entry (byte %d of the page, before 4.2 at %d); want its own anchor, e.g. 4.2-maxconn",
			anchors[1], at, section42)
	}
}

// TestHReview33PermalinkAnchorIsAURLFragment: an anchor is "the fragment as
// a URL writes it" (anchorOf), and one taken from an id is percent-encoded;
// the same section named by a permalink's href instead is kept raw, so a
// non-ASCII or quoted name gives a fragment that is no valid URI fragment
// and differs from the one its id gives.
func TestHReview33PermalinkAnchorIsAURLFragment(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>T</title></head><body>
<h2 id="caf&#233;-cr&#232;me">Own id</h2><p>text</p>
<h2>Permalink<a class="headerlink" href="#caf&#233;-cr&#232;me" title="Permalink">¶</a></h2><p>text</p>
<h2>Quoted<a class="headerlink" href="#say-&quot;hi&quot;" title="Permalink">¶</a></h2><p>text</p>
</body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			got[doc.Text[b.Start:b.End]] = b.Anchor
		}
	}
	if got["Permalink"] != got["Own id"] {
		t.Errorf("one section, two spellings: by its id %q, by its permalink %q", got["Own id"], got["Permalink"])
	}
	for h, a := range got {
		name, err := url.PathUnescape(a)
		if err != nil {
			t.Errorf("%q: anchor %q does not unescape: %v", h, a, err)
			continue
		}
		if want := (&url.URL{Fragment: name}).EscapedFragment(); a != want {
			t.Errorf("%q: anchor %q is no valid URL fragment; want %q", h, a, want)
		}
	}
}

// TestHReview33BoldSentenceIsNoHeading: Sphinx writes an index entry or a
// label before the paragraph it marks as an empty <span id>; an emphasised
// paragraph after one (all bold), or a div opening with a bold "Warning:"
// label after an empty anchor, is a statement, not a reference entry's
// title line, yet namedTitle makes each a heading (its sentence leaves the
// section's text and the paragraphs after it are filed under it).
func TestHReview33BoldSentenceIsNoHeading(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>T</title></head><body>
<h2 id="upgrading">Upgrading</h2><p>Run the migration when the service is stopped and the backup is done.</p>
<span class="target" id="index-0"></span><p><strong>Never run the migration twice on the same database.</strong></p>
<p>The second run finds the new columns and stops half way.</p>
<a id="warn-rm"></a><div><b>Warning:</b> the cleanup command removes every file in the directory you give it.</div>
<p>Give it the cache directory only.</p>
</body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading && doc.Text[b.Start:b.End] != "Upgrading" {
			t.Errorf("%q (level %d, anchor %q) is a heading; want a paragraph", doc.Text[b.Start:b.End], b.Level, b.Anchor)
		}
	}
}

// TestHReview33AlignedTableInPreStaysCode: a <pre> holding a table laid out
// in columns (an option and its meaning) is no wrapped prose; read as
// paragraphs, its rows become one paragraph of run-on sentences ("timeout
// the maximum time … retries the number …") and the layout the columns
// carry is lost to the answerer, which quotes code whole.
func TestHReview33AlignedTableInPreStaysCode(t *testing.T) {
	t.Parallel()
	table := `Option      Meaning
timeout     the maximum time to wait for the server to answer the request.
retries     the number of attempts made before the request is given up.
maxconn     the largest number of connections the server takes at once.
weight      the share of the traffic that the server receives from us.`
	doc, err := Extract(TypeHTML, []byte("<html><body><h1>Options</h1><p>The options of a server line:</p><pre>"+table+"</pre></body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	last := doc.Blocks[len(doc.Blocks)-1]
	if last.Kind != KindCode || doc.Text[last.Start:last.End] != table {
		t.Errorf("the table is a %v block %q; want it one code block as written", last.Kind, doc.Text[last.Start:last.End])
	}
}
