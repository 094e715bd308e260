package extract

import (
	"errors"
	"strings"
	"testing"
)

// darkfishPage is the shape of a page RDoc's Darkfish generator writes
// (Ruby's and its gems' documentation): headings with "¶ ↑" links, and
// each method an entry of divs, its id on the entry, its call sequence in
// a div classed method-heading, a heading inside its description.
const darkfishPage = `<!DOCTYPE html><html><head><title>module Kernel - Ruby 3.1 Documentation</title></head>
<body id="top" role="document" class="module"><main role="main" aria-labelledby="module-Kernel">
<h1 id="module-Kernel" class="module">module Kernel</h1>
<section class="description">
<h2 id="module-Kernel-label-Subprocesses">Subprocesses<span><a href="#module-Kernel-label-Subprocesses">&para;</a> <a href="#top">&uarr;</a></span></h2>
<p>Methods that run other programs.</p>
</section>
<section id="public-instance-5Buntitled-5D-method-details" class="method-section">
<header><h3>Public Instance Methods</h3></header>
<div id="method-i-select" class="method-detail ">
  <div class="method-heading"><span class="method-callseq">select(read_array [, write_array]) &rarr; array or nil</span></div>
  <div class="method-description"><p>Calls select(2) system call.</p>
  <h4 id="method-i-select-label-Example">Example<span><a href="#method-i-select-label-Example">&para;</a> <a href="#top">&uarr;</a></span></h4>
  <pre class="ruby">IO.select([io])</pre></div>
</div>
<div id="method-i-sprintf" class="method-detail ">
  <div class="method-heading"><span class="method-callseq">sprintf(format_string [, arguments...]) &rarr; string</span></div>
  <div class="method-description"><p>Returns the string resulting from applying format_string to any additional arguments.</p></div>
</div>
</section>
<table><tr><th valign="top">Jump to: &nbsp; </th><td><a class="summary-letter" href="#idx-A"><b>A</b></a> &nbsp; <a class="summary-letter" href="#idx-B"><b>B</b></a></td></tr></table>
</main></body></html>`

// TestDarkfishMethodsAreEntries: each method is a definition's term that
// links to the method's id, its description its definition, and a
// heading inside the description is a label, so that no later method is
// filed under it (Kernel#sprintf was cited as #method-i-select-label-Example);
// the "↑" back-to-top links and an index's "Jump to:" letter bar are
// left out.
func TestDarkfishMethodsAreEntries(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypeHTML, []byte(darkfishPage))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading || b.Kind == KindTerm {
			got = append(got, doc.Text[b.Start:b.End]+"#"+b.Anchor)
		}
	}
	want := []string{"module Kernel#module-Kernel", "Subprocesses#module-Kernel-label-Subprocesses", "Public Instance Methods#public-instance-5Buntitled-5D-method-details",
		"select(read_array [, write_array]) → array or nil#method-i-select",
		"sprintf(format_string [, arguments...]) → string#method-i-sprintf"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("headings and terms:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, b := range doc.Blocks {
		if text := doc.Text[b.Start:b.End]; strings.Contains(text, "Returns the string") && b.Definition != 1 {
			t.Errorf("sprintf's description %q at definition depth %d, want 1", text, b.Definition)
		}
	}
	for _, chrome := range []string{"↑", "Jump to"} {
		if strings.Contains(doc.Text, chrome) {
			t.Errorf("text holds %q:\n%s", chrome, doc.Text)
		}
	}
	if !strings.Contains(doc.Text, "Example") {
		t.Errorf("the description's heading is gone from the text:\n%s", doc.Text)
	}
}

// TestDarkfishTableOfContentsIsNoDocument: the page RDoc writes as the
// documentation's table of contents says so of itself.
func TestDarkfishTableOfContentsIsNoDocument(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Table of Contents - Ruby 3.1 Documentation</title></head><body id="top" class="table-of-contents">
<main role="main"><h1 class="class">Table of Contents - Ruby 3.1 Documentation</h1><h2 id="pages">Pages</h2><ul>
<li class="file"><a href="NEWS_md.html">NEWS</a><ul><li><a href="NEWS_md.html#label-Language+changes">Language changes</a></li></ul></li></ul>
<h2 id="methods">Methods</h2><ul><li class="method"><a href="Array.html#method-i-pack">#pack</a> &mdash; <span class="container">Array</span></li></ul>
</main></body></html>`
	if _, err := Extract(TypeHTML, []byte(page)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("Extract = %v, want ErrLinksOnly", err)
	}
}

// TestDarkfishCallSequencesAreTerms: a method with several call sequences
// (a heading div for each, Comparable#clamp) has each as a term linking to
// the method, so its description does not start after a line of the
// second call sequence taken for its text.
func TestDarkfishCallSequencesAreTerms(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>module Comparable</title></head><body class="module"><main>
<h1 id="module-Comparable">module Comparable</h1><section id="public-instance-5Buntitled-5D-method-details" class="method-section">
<div id="method-i-clamp" class="method-detail ">
  <div class="method-heading"><span class="method-callseq">clamp(min, max) &rarr; obj</span></div>
  <div class="method-heading"><span class="method-callseq">clamp(range) &rarr; obj</span></div>
  <div class="method-description"><p>In (min, max) form, returns min if obj &lt;=&gt; min is less than zero.</p></div>
</div></section></main></body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	var terms []string
	for _, b := range doc.Blocks {
		if b.Kind == KindTerm {
			terms = append(terms, doc.Text[b.Start:b.End]+"#"+b.Anchor)
		}
	}
	if got, want := strings.Join(terms, " | "), "clamp(min, max) → obj#method-i-clamp | clamp(range) → obj#method-i-clamp"; got != want {
		t.Errorf("terms %q, want %q", got, want)
	}
}
