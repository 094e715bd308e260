package extract

import (
	"strings"
	"testing"
)

// hr44Heads lists a document's headings and terms as "H<level> text#anchor"
// and "T text#anchor".
func hr44Heads(doc *Document) []string {
	var out []string
	for _, b := range doc.Blocks {
		switch b.Kind {
		case KindHeading:
			out = append(out, "H"+string(rune('0'+b.Level))+" "+doc.Text[b.Start:b.End]+"#"+b.Anchor)
		case KindTerm:
			out = append(out, "T "+doc.Text[b.Start:b.End]+"#"+b.Anchor)
		}
	}
	return out
}

func hr44Extract(t *testing.T, page string) *Document {
	t.Helper()
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func hr44HasHeading(doc *Document, text, anchor string) bool {
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading && doc.Text[b.Start:b.End] == text && b.Anchor == anchor {
			return true
		}
	}
	return false
}

// TestHR44RustdocPageKeepsItsSections: rustdoc (Debian bookworm's
// rust-doc, 1.63; every page of std, core and the crates' docs under
// /usr/share/doc/cargo/doc) writes the item's title as
// `<section id="main-content"><div class="main-heading"><h1>…</h1><span
// class="out-of-band">…</span></div>…`: an id'd element whose first child
// is a div classed *-heading. entryHeading (3113422) takes that for an RDoc
// method entry (blockElements holds no h1–h6, so the h1 inside does not
// disqualify it): the whole page becomes one definition whose term is
// "Struct std::env::VarsOs1.0.0 · source · [−]", and every heading under
// it (Examples, Trait Implementations, each impl and method, with their
// anchors) is demoted to a label. entryHeading fires on 20,197 pages of
// this machine's /usr/share/doc, every one of them rustdoc's; in a random
// 8% sample 1,616 rustdoc pages extract differently after the commit, and
// std's struct.Vec.html went from 200+ headings to none.
func TestHR44RustdocPageKeepsItsSections(t *testing.T) {
	t.Parallel()
	page := `<!DOCTYPE html><html lang="en"><head><title>VarsOs in std::env - Rust</title></head>
<body class="rustdoc struct"><div class="main"><div class="width-limiter"><div class="sub-container"><nav class="sub"><form class="search-form"><div class="search-container"><input class="search-input" name="search" placeholder="Click or press ‘S’ to search"></div></form></nav></div>
<section id="main-content" class="content"><div class="main-heading">
    <h1 class="fqn"><span class="in-band">Struct <a href="../index.html">std</a>::<wbr><a href="index.html">env</a>::<wbr><a class="struct" href="#">VarsOs</a><button id="copy-path" onclick="copy_path(this)" title="Copy item path to clipboard"><img src="../../clipboard1.63.0.svg" width="19" height="18" alt="Copy item path"></button></span></h1><span class="out-of-band"><span class="since" title="Stable since Rust version 1.0.0">1.0.0</span> · <a class="srclink" href="../../src/std/env.rs.html#103-105">source</a> · <a id="toggle-all-docs" href="javascript:void(0)" title="collapse all docs">[<span class="inner">&#x2212;</span>]</a></span></div><div class="docblock item-decl"><pre class="rust struct"><code>pub struct VarsOs { /* private fields */ }</code></pre></div><details class="rustdoc-toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>An iterator over a snapshot of the environment variables of this process.</p>
<p>This structure is created by <a href="fn.vars_os.html"><code>env::vars_os()</code></a>. See its documentation for more.</p>
<h2 id="examples"><a href="#examples">Examples</a></h2><p>Iterating over the variables prints each name and value once.</p>
</div></details><h2 id="trait-implementations" class="small-section-header">Trait Implementations<a href="#trait-implementations" class="anchor"></a></h2><div id="trait-implementations-list"><details class="rustdoc-toggle implementors-toggle" open><summary><section id="impl-Iterator" class="impl has-srclink"><span class="rightside"><a class="srclink" href="../../src/std/env.rs.html#186-194">source</a></span><a href="#impl-Iterator" class="anchor"></a><h3 class="code-header in-band">impl <a class="trait" href="../iter/trait.Iterator.html" title="trait std::iter::Iterator">Iterator</a> for <a class="struct" href="struct.VarsOs.html" title="struct std::env::VarsOs">VarsOs</a></h3></section></summary><div class="impl-items"><details class="rustdoc-toggle method-toggle" open><summary><section id="method.next" class="method trait-impl has-srclink"><span class="rightside"><a class="srclink" href="../../src/std/env.rs.html#188-190">source</a></span><a href="#method.next" class="anchor"></a><h4 class="code-header">fn <a href="../iter/trait.Iterator.html#tymethod.next" class="fnname">next</a>(&amp;mut self) -&gt; Option&lt;(OsString, OsString)&gt;</h4></section></summary><div class='docblock'><p>Advances the iterator and returns the next value. <a href="../iter/trait.Iterator.html#tymethod.next">Read more</a></p>
</div></details></div></details></div></section></div></div></div></body></html>`
	doc := hr44Extract(t, page)
	for _, want := range [][2]string{
		{"Examples", "examples"},
		{"Trait Implementations", "trait-implementations"},
		{"impl Iterator for VarsOs", "impl-Iterator"},
	} {
		if !hr44HasHeading(doc, want[0], want[1]) {
			t.Errorf("no heading %q#%s; headings and terms:\n%s", want[0], want[1], strings.Join(hr44Heads(doc), "\n"))
		}
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindTerm && strings.Contains(doc.Text[b.Start:b.End], "Struct std::env::VarsOs") {
			t.Errorf("the page's title is a definition's term %q#%s, its whole page the definition", doc.Text[b.Start:b.End], b.Anchor)
		}
	}
}

// TestHR44PanelWithHeadingDivKeepsItsSections: the same rule on an ordinary
// layout, a Bootstrap 3 panel (`<div id="…" class="panel"><div
// class="panel-heading">Installation</div><div class="panel-body">…`),
// whose body holds the page's real h2 sections: they are demoted to
// labels and the panel's text becomes one definition, so "Debian" and
// "From source" have no section, no anchor and no heading path.
func TestHR44PanelWithHeadingDivKeepsItsSections(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Install - Frobtool</title></head><body><main>
<h1 id="install">Installing Frobtool</h1><p>Frobtool runs on Linux and macOS.</p>
<div id="platforms" class="panel panel-default"><div class="panel-heading">Platforms</div>
<div class="panel-body"><h2 id="debian">Debian</h2><p>Install the frobtool package with apt.</p>
<h2 id="source">From source</h2><p>Run make install in the unpacked tarball.</p></div></div>
</main></body></html>`
	doc := hr44Extract(t, page)
	for _, want := range [][2]string{{"Debian", "debian"}, {"From source", "source"}} {
		if !hr44HasHeading(doc, want[0], want[1]) {
			t.Errorf("no heading %q#%s; headings and terms:\n%s", want[0], want[1], strings.Join(hr44Heads(doc), "\n"))
		}
	}
}

// TestHR44OperatorMethodLinksAreKept: symbolLink (3113422) drops every
// in-page link whose text has no letter or digit, meant for RDoc's "↑".
// RDoc's own class pages link their operator methods in-page, and in the
// trial's Ruby documentation (Integer.html, "What's Here" → "Comparing")
// the definition list's terms are exactly such links: `<dt><a
// href="#method-i-3C">&lt;</a>`, `<=`, `<=>`, `==`, `>`, `>=`. They are
// all gone from the text, leaving six descriptions with no method name
// ("- Returns whether self is less than the given value."); String.html
// loses "#==, #===", "#<=>" and "#=~" the same way. Before the commit
// they were there.
func TestHR44OperatorMethodLinksAreKept(t *testing.T) {
	t.Parallel()
	page := `<!DOCTYPE html><html><head><title>class Integer - Ruby 3.1 Documentation</title></head>
<body id="top" role="document" class="class"><main role="main" aria-labelledby="class-Integer">
<h1 id="class-Integer" class="class">class Integer</h1>
<section class="description">
<h3 id="class-Integer-label-Comparing">Comparing<span><a href="#class-Integer-label-Comparing">&para;</a> <a href="#top">&uarr;</a></span></h3>
<ul><li><dl class="rdoc-list note-list"><dt><a href="#method-i-3C"><</a>
<dd>
<p>Returns whether <code>self</code> is less than the given value.</p>
</dd></dl>
</li><li><dl class="rdoc-list note-list"><dt><a href="#method-i-3C-3D-3E"><=></a>
<dd>
<p>Returns a number indicating whether <code>self</code> is less than, equal to, or greater than the given value.</p>
</dd></dl>
</li><li><dl class="rdoc-list note-list"><dt><a href="#method-i-3D-3D">==</a> (aliased as <a href="Integer.html#method-i-3D-3D-3D"><code>===</code></a>)
<dd>
<p>Returns whether <code>self</code> is equal to the given value.</p>
</dd></dl>
</li><li><dl class="rdoc-list note-list"><dt><a href="#method-i-3E-3D">>=</a>
<dd>
<p>Returns whether <code>self</code> is greater than or equal to the given value.</p>
</dd></dl>
</li></ul>
</section></main></body></html>`
	doc := hr44Extract(t, page)
	var terms []string
	for _, b := range doc.Blocks {
		if b.Kind == KindTerm {
			terms = append(terms, doc.Text[b.Start:b.End])
		}
	}
	got := strings.Join(terms, " | ")
	for _, op := range []string{"<", "<=>", "==", ">="} {
		found := false
		for _, term := range terms {
			if term == op || strings.HasPrefix(term, op+" ") {
				found = true
			}
		}
		if !found {
			t.Errorf("operator method %q is not a term (terms %q); text:\n%s", op, got, doc.Text)
		}
	}
	if strings.Contains(doc.Text, "↑") {
		t.Errorf("the back-to-top arrow is in the text:\n%s", doc.Text)
	}
}

// TestHR44FootnoteMarkIsKept: a footnote's mark in the text is an in-page
// link of a symbol alone (`<a href="#note-intel">*</a>`, "†"); symbolLink
// drops it with RDoc's "↑", so "macOS*" reads "macOS" and the caveat the
// footnote adds is detached from the claim it qualifies (the Rust
// Reference's grammar loses its "†" marks the same way:
// "OuterAttribute*†" became "OuterAttribute*"). The back-reference "↩"
// is chrome; the forward mark is content.
func TestHR44FootnoteMarkIsKept(t *testing.T) {
	t.Parallel()
	page := `<html><body><main><h1 id="platforms">Platforms</h1>
<p>Frobtool runs on Linux and macOS<sup><a href="#note-intel" id="ref-intel">*</a></sup>, and on FreeBSD<a href="#note-ports" id="ref-ports">†</a>.</p>
<ol class="footnotes"><li id="note-intel">* Intel Macs only. <a href="#ref-intel">↩</a></li>
<li id="note-ports">† From the ports tree. <a href="#ref-ports">↩</a></li></ol></main></body></html>`
	doc := hr44Extract(t, page)
	if !strings.Contains(doc.Text, "macOS*") || !strings.Contains(doc.Text, "FreeBSD†") {
		t.Errorf("footnote marks lost from the text:\n%s", doc.Text)
	}
	if strings.Contains(doc.Text, "↩") {
		t.Errorf("back-references kept:\n%s", doc.Text)
	}
}

// TestHR44LabelledLinkTableIsContent: barLabel (3113422) lets a table's
// header cell of one to three words ending with a colon stand outside the
// "every letter inside a link" test of linkBar, for texinfo's "Jump to:"
// letter bar. Any one- or two-row table that labels a list of links with
// such a header is now dropped as navigation: "See also:" with two
// commands, a package page's "Depends:" / "Suggests:" rows. linkLine's own
// comment says links separated by commas under "See also:" are content;
// before the commit the label's letters kept the table.
func TestHR44LabelledLinkTableIsContent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ page, want string }{
		{`<html><body><main><h1 id="pg_dump">pg_dump</h1><p>pg_dump extracts a database into a script file.</p>
<table class="seealso"><tr><th>See also:</th><td><a href="app-pgrestore.html">pg_restore</a>, <a href="app-pg-dumpall.html">pg_dumpall</a></td></tr></table>
</main></body></html>`, "pg_restore"},
		{`<html><body><main><h1 id="frobtool">Package: frobtool</h1><p>A tool that frobnicates widgets.</p>
<table><tr><th>Depends:</th><td><a href="../libc6">libc6</a> <a href="../zlib1g">zlib1g</a></td></tr>
<tr><th>Suggests:</th><td><a href="../frobtool-doc">frobtool-doc</a></td></tr></table>
</main></body></html>`, "zlib1g"},
	} {
		doc := hr44Extract(t, c.page)
		if !strings.Contains(doc.Text, c.want) {
			t.Errorf("the labelled table of links is gone (no %q):\n%s", c.want, doc.Text)
		}
	}
}

// TestHR44ListingOfLinkedTitlesKeepsTheFirst: bannerHeading (339643d)
// takes the first h1 for a site's banner when all its text is one link to
// another page and a later h1 exists. A blog's or news page's listing
// writes every entry's title that way (`<article><h1><a
// href="posts/…">…</a></h1>`): the first entry's title alone is dropped,
// its text filed under no heading while the second and third keep
// theirs; and a post whose title links to its permalink (rel="bookmark",
// WordPress themes) loses its title when its body has an h1 of its own.
func TestHR44ListingOfLinkedTitlesKeepsTheFirst(t *testing.T) {
	t.Parallel()
	listing := `<html><head><title>News - Frobtool</title></head><body><main>
<article><h1><a href="posts/frobtool-2-4.html">Frobtool 2.4 released</a></h1><p>Frobtool 2.4 adds widget caching and drops Python 3.7.</p></article>
<article><h1><a href="posts/frobtool-2-3.html">Frobtool 2.3 released</a></h1><p>Frobtool 2.3 fixes the config parser.</p></article>
<article><h1><a href="posts/security.html">Security advisory</a></h1><p>Upgrade to 2.2.1 to fix the token leak.</p></article>
</main></body></html>`
	doc := hr44Extract(t, listing)
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, doc.Text[b.Start:b.End])
		}
	}
	if want := "Frobtool 2.4 released | Frobtool 2.3 released | Security advisory"; strings.Join(heads, " | ") != want {
		t.Errorf("listing headings %q, want %q", strings.Join(heads, " | "), want)
	}
	post := `<html><head><title>Upgrading to 2.4 - Frobtool blog</title></head><body>
<article class="post"><header class="entry-header"><h1 class="entry-title"><a href="https://frobtool.example/2024/05/upgrading-to-2-4/" rel="bookmark">Upgrading to 2.4</a></h1></header>
<div class="entry-content"><p>This post walks through the upgrade.</p><h1 id="backup">Back up first</h1><p>Copy the widget cache away.</p></div></article>
</body></html>`
	doc = hr44Extract(t, post)
	if b := doc.Blocks[0]; b.Kind != KindHeading || doc.Text[b.Start:b.End] != "Upgrading to 2.4" {
		t.Errorf("the post's title is no heading; headings and terms %q", hr44Heads(doc))
	}
}

// TestHR44NameWithLeadingUnderscoreIsRejoined: brokenIdentifier (339643d)
// rejoins a lower-case name TeX broke after an underscore when the
// document writes the joined name elsewhere (vocab). The vocabulary is
// built with wordOf, which trims a leading underscore ("_comp_cd" is
// stored as "comp_cd"), but the lookup keeps it ("_comp_cd"): in the Bash
// reference manual's PDF, "_comp_ cd modifies the value of IFS" stays
// broken though "_comp_cd" is written whole twice on the same page.
func TestHR44NameWithLeadingUnderscoreIsRejoined(t *testing.T) {
	t.Parallel()
	raw := []pdfPage{{lines: []pdfLine{
		{text: "why we might want to extend _comp_cd to append a slash", y: 700, x: 72, size: 10},
		{text: "once installed using complete, _comp_cd will be called", y: 688, x: 72, size: 10},
	}}}
	vocab := rawVocabulary(raw)
	ls := []line{ln("(see Section 4.3.2 [The Shopt Builtin], page 71). _comp_", 0), ln("cd modifies the value of IFS so that it", 0)}
	if got, want := joinLines(ls, vocab), "(see Section 4.3.2 [The Shopt Builtin], page 71). _comp_cd modifies the value of IFS so that it"; got != want {
		t.Errorf("joinLines = %q, want %q", got, want)
	}
}
