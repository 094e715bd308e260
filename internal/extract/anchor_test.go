package extract

import (
	"maps"
	"strings"
	"testing"
)

// TestHeadingAnchors: each heading and definition term carries the
// fragment identifier that links to it, in the forms documentation
// generators write (Texinfo's: an option's anchors in an empty element
// before its term); a heading with text between it and any id gets none.
func TestHeadingAnchors(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>T</title></head><body>
<h2 id="own">Own id</h2><p>text</p>
<h2>Sphinx<a class="headerlink" href="#sphinx-section" title="Permalink">¶</a></h2><p>text</p>
<a name="named"></a>
<h2>Named before</h2><p>text</p>
<div class="section" id="texi-section">
<table class="header"><tr><td>[<a href="#prev"> &lt; </a>]</td><td>[<a href="#up"> Up </a>]</td></tr></table>
<h2 class="section">Texinfo</h2><p>text</p></div>
<div class="sect1" id="DOCBOOK-SECT"><div class="titlepage"><div><div><h2 class="title">DocBook</h2></div></div></div><p>text</p></div>
<h2><a id="inner"></a>Inner anchor</h2><p>text</p>
<div id="wrapper"><p>Some words first.</p><h2>No anchor</h2><p>text</p></div>
<dl><dt id="os.getcwd">os.getcwd()</dt><dd><p>Return the directory.</p></dd><dt>plain term</dt><dd><p>Defined.</p></dd></dl>
<dl compact="compact"><dd><span id="option_002dbackup"></span><span id="index-_002db"></span>
<span id="index-backup"></span></dd>
<dt><span>-b, --backup</span></dt><dd><p>Generate backing-up information.</p>
<span id="option_002ddebug"></span><span id="index-_002dd"></span>
</dd>
<dt><span>-d, --debug</span></dt><dd><p>Debug mode.</p></dd></dl>
<h2 id="has space">Spaced id</h2><p>text</p>
<h2 id="tab&#9;id">Bad id</h2><p>text</p>
</body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Own id": "own", "Sphinx": "sphinx-section", "Named before": "named", "Texinfo": "texi-section",
		"DocBook": "DOCBOOK-SECT", "Inner anchor": "inner", "No anchor": "", "os.getcwd()": "os.getcwd", "plain term": "", "Spaced id": "has%20space", "Bad id": "",
		// Texinfo puts an option's anchors in an empty <dd> before its <dt>.
		"-b, --backup": "option_002dbackup",
		// The next option's anchors end the description before it.
		"-d, --debug": "option_002ddebug",
	}
	seen := 0
	for _, b := range doc.Blocks {
		if b.Kind != KindHeading && b.Kind != KindTerm {
			if b.Anchor != "" {
				t.Errorf("%v block %q has anchor %q", b.Kind, doc.Text[b.Start:b.End], b.Anchor)
			}
			continue
		}
		text := doc.Text[b.Start:b.End]
		w, ok := want[text]
		if !ok {
			t.Errorf("unexpected heading or term %q", text)
			continue
		}
		seen++
		if b.Anchor != w {
			t.Errorf("%q: anchor %q, want %q", text, b.Anchor, w)
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of %d headings and terms:\n%s", seen, len(want), doc.Text)
	}
}

// TestNamedTitleLines: a reference entry's title line — a div of one short
// line opening with bold text that carries a named anchor, or that an
// empty named anchor precedes — is a heading one level under the section
// it is in, linked by its anchor; bold text without an anchor, or a long
// line, stays text.
func TestNamedTitleLines(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>T</title></head><body>
<h2 id="keywords">4.2. Keywords</h2>
<a class="anchor" name="timeout server"></a><div class="keyword"><b><a class="anchor" name="timeout server"></a><a href="#4.2-timeout%20server">timeout server</a></b> <span>&lt;timeout&gt;</span></div>
<pre class="text">Set the maximum inactivity time on the server side.</pre>
<a name="balance"></a><div><b>balance</b> &lt;algorithm&gt;</div><pre>Define the load balancing algorithm.</pre>
<div><b>Note</b> that this bold line has no anchor at all.</div>
<div><b><a name="long"></a>long</b> ` + strings.Repeat("words ", 40) + `</div>
<a name="q2"></a>
<p><b>(2) What datatypes does
   it support?</b></p>
<blockquote>It uses dynamic typing.</blockquote>
<a name="mixed"></a><p><b>Note</b> that a paragraph with more than its bold text is no title.</p>
<h3 id="next">4.3. Next</h3><p>text</p>
</body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	type head struct {
		level  int
		anchor string
	}
	got := map[string]head{}
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			got[doc.Text[b.Start:b.End]] = head{b.Level, b.Anchor}
		}
	}
	want := map[string]head{
		"4.2. Keywords":                       {2, "keywords"},
		"timeout server <timeout>":            {3, "timeout%20server"},
		"balance <algorithm>":                 {3, "balance"},
		"(2) What datatypes does it support?": {3, "q2"},
		"4.3. Next":                           {3, "next"},
	}
	if !maps.Equal(got, want) {
		t.Errorf("headings %v, want %v", got, want)
	}
}
