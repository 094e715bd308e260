package extract

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestHTMLDropsChrome(t *testing.T) {
	t.Parallel()
	in := `<!DOCTYPE html><html><head><title>  Real   Title </title>
<style>body { color: red }</style><script>alert("SCRIPT")</script></head>
<body>
<header><a href="/">HEADERLOGO</a></header>
<nav><ul><li>NAVITEM</li></ul></nav>
<div class="navheader"><table><tr><td>Prev NAVHEADER</td></tr></table></div>
<div class="Breadcrumb">Home &gt; BREADCRUMB</div>
<div id="sidebar">SIDEBAR</div>
<div role="navigation">ROLENAV</div>
<aside>ASIDE</aside>
<form><input value="FORMINPUT"><button>FORMBUTTON</button> FORMTEXT</form>
<noscript>NOSCRIPT</noscript>
<template><p>TEMPLATE</p></template>
<p hidden>HIDDEN</p><p style="display: none">DISPLAYNONE</p><span aria-hidden="true">ARIAHIDDEN</span>
<svg><text>SVGTEXT</text></svg>
<h1>Main heading</h1>
<p>Body text stays.</p>
<div class="toc"><dl><dt>TOCENTRY</dt></dl></div>
<div class="navfooter">NAVFOOTER</div>
<footer>FOOTERTEXT</footer>
<script>var SCRIPT2 = 1</script>
</body></html>`
	doc := mustExtract(t, "html", in)
	for _, bad := range []string{"SCRIPT", "color", "HEADERLOGO", "NAVITEM", "NAVHEADER", "BREADCRUMB", "SIDEBAR",
		"ROLENAV", "ASIDE", "FORM", "NOSCRIPT", "TEMPLATE", "HIDDEN", "DISPLAYNONE", "ARIAHIDDEN", "SVGTEXT",
		"TOCENTRY", "NAVFOOTER", "FOOTERTEXT"} {
		if strings.Contains(doc.Text, bad) {
			t.Errorf("Text contains chrome %q:\n%s", bad, doc.Text)
		}
	}
	if doc.Title != "Real Title" {
		t.Errorf("Title = %q, want %q", doc.Title, "Real Title")
	}
	if want := "Main heading\n\nBody text stays."; doc.Text != want {
		t.Errorf("Text = %q, want %q", doc.Text, want)
	}
}

func TestHTMLMainContent(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"main", `<body><div>OUTSIDE</div><main><header><h1>Post</h1></header><p>Inside.</p><footer>By me</footer></main></body>`,
			"Post\n\nInside.\n\nBy me"},
		{"role main", `<body><p>OUTSIDE</p><div role="main"><p>Inside.</p></div></body>`, "Inside."},
		{"single article", `<body><p>OUTSIDE</p><article><h2>A</h2><p>Inside.</p></article></body>`, "A\n\nInside."},
		{"two articles use body", `<body><p>Intro.</p><article><p>One.</p></article><article><p>Two.</p></article></body>`,
			"Intro.\n\nOne.\n\nTwo."},
		{"empty main falls back to body", `<body><p>Body text.</p><main><script>render()</script></main></body>`, "Body text."},
	}
	for _, c := range cases {
		doc := mustExtract(t, "html", c.in)
		if doc.Text != c.want {
			t.Errorf("%s: Text = %q, want %q", c.name, doc.Text, c.want)
		}
	}
}

func TestHTMLTitleFallsBackToFirstH1(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<h2>Sub</h2><h1> The   <em>Real</em> one </h1><h1>Second</h1>`)
	if doc.Title != "The Real one" {
		t.Errorf("Title = %q", doc.Title)
	}
	doc = mustExtract(t, "html", `<p>No headings</p>`)
	if doc.Title != "" {
		t.Errorf("Title = %q, want empty", doc.Title)
	}
}

func TestHTMLHeadings(t *testing.T) {
	t.Parallel()
	in := `<h1>One</h1><p>a</p><h2>Two</h2><h3>Three <code>x</code></h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>
<div class="note"><h3 class="title">Note</h3><p>Careful.</p></div>
<ul><li><h2>In list</h2></li></ul><blockquote><h2>Quoted</h2></blockquote>`
	doc := mustExtract(t, "html", in)
	var got []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			got = append(got, strings.Repeat("#", b.Level)+" "+doc.Text[b.Start:b.End])
		}
	}
	want := []string{"# One", "## Two", "### Three x", "#### Four", "##### Five", "###### Six"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("headings = %q, want %q", got, want)
	}
	for _, p := range []string{"Note", "Careful.", "Quoted"} {
		found := false
		for _, s := range blockTexts(doc, KindParagraph) {
			found = found || s == p
		}
		if !found {
			t.Errorf("paragraph %q missing; paragraphs: %q", p, blockTexts(doc, KindParagraph))
		}
	}
	if items := blockTexts(doc, KindListItem); len(items) != 1 || items[0] != "- In list" {
		t.Errorf("list items = %q", items)
	}
}

func TestHTMLWhitespaceAndBreaks(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", "<p>  lots   of\n\t spaces&nbsp;&nbsp;here <b>bold</b><i>italic</i>  </p><p>line one<br>line two<br/><br>  line three</p>")
	want := "lots of spaces here bolditalic\n\nline one\nline two\nline three"
	if doc.Text != want {
		t.Errorf("Text = %q, want %q", doc.Text, want)
	}
	doc = mustExtract(t, "html", "text directly in body<div>and a div</div>tail")
	if want := "text directly in body\n\nand a div\n\ntail"; doc.Text != want {
		t.Errorf("Text = %q, want %q", doc.Text, want)
	}
}

func TestHTMLPreIsVerbatim(t *testing.T) {
	t.Parallel()
	in := "<p>Example:</p><pre class=\"programlisting\">\n\nSELECT a,\n       b   -- <em>aligned</em>\n\tFROM t &lt;x&gt;;\n\n   \n</pre><p>after</p>"
	doc := mustExtract(t, "html", in)
	code := blockTexts(doc, KindCode)
	want := "SELECT a,\n       b   -- aligned\n\tFROM t <x>;"
	if len(code) != 1 || code[0] != want {
		t.Fatalf("code = %q, want %q", code, want)
	}
}

func TestHTMLTables(t *testing.T) {
	t.Parallel()
	t.Run("thead", func(t *testing.T) {
		doc := mustExtract(t, "html", `<table><caption>Sizes</caption><thead><tr><th>Name</th><th>Size</th></tr></thead>
<tbody><tr><td>a <p>para</p></td><td>1</td></tr><tr><td></td><td></td></tr><tr><td>b</td><td><table><tr><td>in</td><td>ner</td></tr></table></td></tr></tbody></table>`)
		if got := blockTexts(doc, KindCaption); len(got) != 1 || got[0] != "Sizes" {
			t.Errorf("captions = %q", got)
		}
		var tb Block
		for _, b := range doc.Blocks {
			if b.Kind == KindTable {
				tb = b
			}
		}
		if tb.HeaderRow != "Name | Size" {
			t.Errorf("HeaderRow = %q", tb.HeaderRow)
		}
		if got := doc.Text[tb.Start:tb.End]; got != "Name | Size\na para | 1\nb | in ner" {
			t.Errorf("table text = %q", got)
		}
		if len(tb.Rows) != 2 || doc.Text[tb.Rows[1].Start:tb.Rows[1].End] != "b | in ner" {
			t.Errorf("rows = %+v", tb.Rows)
		}
	})
	t.Run("entries", func(t *testing.T) {
		// A one-column table of entries (the manual's function tables:
		// signature, description and example in one cell) is a definition
		// list: each cell's first paragraph a term, the rest its
		// definition, so one entry's sentences do not run into the next's.
		doc := mustExtract(t, "html", `<table><thead><tr><th><p>Function</p><p>Description</p></th></tr></thead><tbody>
<tr><td><p>length ( text ) → integer</p><p>Returns the number of characters in the string.</p><p>length('jose') → 4</p></td></tr>
<tr><td><p>lpad ( string text, length integer ) → text</p><p>Extends the string to length length.</p></td></tr>
</tbody></table>`)
		if got := blockTexts(doc, KindTerm); len(got) != 2 || got[0] != "length ( text ) → integer" || got[1] != "lpad ( string text, length integer ) → text" {
			t.Errorf("terms = %q", got)
		}
		if got := blockTexts(doc, KindTable); len(got) != 0 {
			t.Errorf("tables = %q, want none", got)
		}
		want := "Function Description\n\nlength ( text ) → integer\nReturns the number of characters in the string.\n\nlength('jose') → 4\n\nlpad ( string text, length integer ) → text\nExtends the string to length length."
		if doc.Text != want {
			t.Errorf("text = %q\nwant %q", doc.Text, want)
		}
		// One paragraph per cell is a table as before.
		doc = mustExtract(t, "html", `<table><tr><td><p>a</p></td></tr><tr><td><p>b</p></td></tr></table>`)
		if got := blockTexts(doc, KindTerm); len(got) != 0 {
			t.Errorf("terms = %q, want none", got)
		}
	})
	t.Run("spans", func(t *testing.T) {
		// A cell spanning columns or rows stands in each; a row of one
		// cell (a group label) is not repeated; an empty cell spanning
		// rows of data keeps its column; spans are capped.
		doc := mustExtract(t, "html", `<table><thead><tr><th>Feature</th><th>XML</th><th>SQLite</th><th>PostgreSQL</th></tr></thead><tbody>
<tr><td>Additional software</td><td colspan="2">None</td><td>PostgreSQL server</td></tr>
<tr><td colspan="4">Accounts</td></tr>
<tr><td rowspan="2">Increase</td><td>Assets</td><td>debit</td><td>left</td></tr>
<tr><td>Expenses</td><td>debit</td><td>left</td></tr>
<tr><td rowspan="2"></td><td>Note</td><td>x</td><td>y</td></tr>
<tr><td>z</td><td>w</td><td>v</td></tr>
<tr><td colspan="100000">wide</td><td>1</td></tr>
</tbody></table>`)
		var tb Block
		for _, b := range doc.Blocks {
			if b.Kind == KindTable {
				tb = b
			}
		}
		want := "Feature | XML | SQLite | PostgreSQL\nAdditional software | None | None | PostgreSQL server\nAccounts\n" +
			"Increase | Assets | debit | left\nIncrease | Expenses | debit | left\n | Note | x | y\n | z | w | v\n" +
			strings.TrimSuffix(strings.Repeat("wide | ", maxColSpan), " | ") + " | 1"
		if got := doc.Text[tb.Start:tb.End]; got != want {
			t.Errorf("table text =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("th first row", func(t *testing.T) {
		doc := mustExtract(t, "html", `<table><tr><th>K</th><th>V</th></tr><tr><td>x</td><td>1</td></tr></table>`)
		if doc.Blocks[0].HeaderRow != "K | V" || len(doc.Blocks[0].Rows) != 1 {
			t.Errorf("block = %+v", doc.Blocks[0])
		}
	})
	t.Run("no header", func(t *testing.T) {
		doc := mustExtract(t, "html", `<table><tr><td>K</td><th>V</th></tr><tr><td>x</td><td>1</td></tr></table>`)
		if doc.Blocks[0].HeaderRow != "" || len(doc.Blocks[0].Rows) != 2 {
			t.Errorf("block = %+v", doc.Blocks[0])
		}
	})
	t.Run("layout table", func(t *testing.T) {
		doc := mustExtract(t, "html", `<table><tr><td><h2>Inside</h2><p>One.</p><p>Two.</p></td></tr></table>`)
		if doc.Text != "Inside\n\nOne.\n\nTwo." || len(doc.Blocks) != 3 {
			t.Errorf("Text = %q blocks=%d", doc.Text, len(doc.Blocks))
		}
	})
}

func TestHTMLLists(t *testing.T) {
	t.Parallel()
	in := `<ul><li>one</li><li><p>two</p><p>more of two</p><ol start="3"><li>three</li><li>four<ul><li>deep</li></ul></li></ol></li></ul><p>after</p>`
	doc := mustExtract(t, "html", in)
	want := "- one\n- two\n  more of two\n  3. three\n  4. four\n    - deep\n\nafter"
	if doc.Text != want {
		t.Errorf("Text = %q, want %q", doc.Text, want)
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindListItem && strings.HasSuffix(doc.Text[b.Start:b.End], "deep") && b.Level != 3 {
			t.Errorf("deep item level = %d, want 3", b.Level)
		}
	}
}

func TestHTMLDefinitionList(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<dl><dt><code>work_mem</code> (integer)</dt><dd><p>Sets memory.</p><p>More.</p></dd><dt>b</dt><dd>plain def</dd></dl>`)
	want := "work_mem (integer)\nSets memory.\n\nMore.\n\nb\nplain def"
	if doc.Text != want {
		t.Errorf("Text = %q, want %q", doc.Text, want)
	}
	if got := blockTexts(doc, KindTerm); len(got) != 2 {
		t.Errorf("terms = %q", got)
	}
}

func TestHTMLDeepNesting(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"divs":   strings.Repeat("<div>", 100_000) + "<h2>Deep</h2><pre>  code\n  here</pre>hello" + strings.Repeat("</div>", 100_000),
		"spans":  "<p>x" + strings.Repeat("<span>", 100_000) + "hello",
		"tables": strings.Repeat("<table><tr><td>", 20_000) + "hello",
		"mixed":  strings.Repeat("<div><b><i><ul><li><blockquote>", 20_000) + "hello",
	} {
		start := time.Now()
		doc := mustExtract(t, "html", in)
		if el := time.Since(start); el > 20*time.Second { // generous: -race on a loaded 2-core box; quadratic would be minutes
			t.Errorf("%s: took %v", name, el)
		}
		if !strings.Contains(doc.Text, "hello") {
			t.Errorf("%s: text lost: %q", name, doc.Text)
		}
		if name == "divs" && (len(blockTexts(doc, KindHeading)) != 1 || len(blockTexts(doc, KindCode)) != 1) {
			t.Errorf("divs: fallback lost structure: %+v", doc.Blocks)
		}
	}
}

func TestHTMLGarbage(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"<", "<<<>>>", "</p></div></html>", "<table><td>cell<tr>x</table>stray", "<p><li>a<dt>b<dd>c<h1>d",
		"<pre>", "<pre>\n\n", "<title>only title", "<a href='x'>link</a", "&amp;&#x1F600;&bogus;", "<!-- unterminated",
		"<svg><foreignObject><p>fo</p></foreignObject></svg>text", "<math><mi>x</mi></math>y",
	} {
		doc, err := Extract("html", []byte(in))
		if err == nil {
			checkDocument(t, doc)
		}
	}
}

func TestHTMLFixtures(t *testing.T) {
	t.Parallel()
	t.Run("errcodes", func(t *testing.T) {
		doc, err := Extract("text/html", readFixture(t, "errcodes-appendix.html"))
		if err != nil {
			t.Fatal(err)
		}
		checkDocument(t, doc)
		if doc.Title != "Appendix A. PostgreSQL Error Codes" {
			t.Errorf("Title = %q", doc.Title)
		}
		for _, bad := range []string{"Prev", "Next", "Home", "Part VIII. Appendixes"} {
			if strings.Contains(doc.Text, bad) {
				t.Errorf("navigation %q leaked into Text", bad)
			}
		}
		tables := 0
		for _, b := range doc.Blocks {
			if b.Kind == KindTable {
				tables++
				if b.HeaderRow != "Error Code | Condition Name" || len(b.Rows) < 250 {
					t.Errorf("table header %q rows %d", b.HeaderRow, len(b.Rows))
				}
			}
		}
		if tables != 1 {
			t.Errorf("tables = %d, want 1", tables)
		}
		if !strings.Contains(doc.Text, "\n23505 | unique_violation\n") || !strings.Contains(doc.Text, "\nClass 22 — Data Exception\n") {
			t.Errorf("table rows not rendered as expected")
		}
		if got := blockTexts(doc, KindCaption); len(got) != 1 || got[0] != "Table A.1. PostgreSQL Error Codes" {
			t.Errorf("captions = %q", got)
		}
	})
	t.Run("createtable", func(t *testing.T) {
		doc, err := Extract("html", readFixture(t, "sql-createtable.html"))
		if err != nil {
			t.Fatal(err)
		}
		checkDocument(t, doc)
		if doc.Title != "CREATE TABLE" {
			t.Errorf("Title = %q", doc.Title)
		}
		if !strings.HasPrefix(doc.Text, "CREATE TABLE\n\nCREATE TABLE — define a new table\n\nSynopsis\n\nCREATE [ [ GLOBAL | LOCAL ] { TEMPORARY | TEMP } | UNLOGGED ] TABLE") {
			t.Errorf("Text starts %q", doc.Text[:200])
		}
		found := false
		for _, c := range blockTexts(doc, KindCode) {
			found = found || c == filmsExample
		}
		if !found {
			t.Errorf("films example not extracted verbatim")
		}
		headings := strings.Join(blockTexts(doc, KindHeading), "|")
		if headings != "CREATE TABLE|Synopsis|Description|Parameters|Storage Parameters|Notes|Examples|Compatibility|Temporary Tables|Non-Deferred Uniqueness Constraints|Column Check Constraints|EXCLUDE Constraint|Foreign Key Constraints|NULL “Constraint”|Constraint Naming|Inheritance|Zero-Column Tables|Multiple Identity Columns|Generated Columns|LIKE Clause|WITH Clause|Tablespaces|Typed Tables|PARTITION BY Clause|PARTITION OF Clause|See Also" {
			t.Errorf("headings = %s", headings)
		}
	})
	t.Run("runtime-config", func(t *testing.T) {
		doc, err := Extract("html", readFixture(t, "runtime-config-resource.html"))
		if err != nil {
			t.Fatal(err)
		}
		checkDocument(t, doc)
		if strings.Contains(doc.Text, "20.4.1. Memory\n\n20.4.2. Disk") {
			t.Errorf("table of contents leaked")
		}
		terms := blockTexts(doc, KindTerm)
		if len(terms) < 30 || terms[0] != "shared_buffers (integer)" {
			t.Errorf("terms = %d, first %q", len(terms), terms[0])
		}
		if !strings.Contains(doc.Text, "20.4.1. Memory\n\nshared_buffers (integer)\nSets the amount of memory the database server uses for shared memory buffers.") {
			t.Errorf("variablelist not rendered as term + definition")
		}
	})
}

// filmsExample is a pre.programlisting of sql-createtable.html, verbatim.
const filmsExample = `CREATE TABLE films (
    code        char(5) CONSTRAINT firstkey PRIMARY KEY,
    title       varchar(40) NOT NULL,
    did         integer NOT NULL,
    date_prod   date,
    kind        varchar(10),
    len         interval hour to minute
);

CREATE TABLE distributors (
     did    integer PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY,
     name   varchar(40) NOT NULL CHECK (name <> '')
);`

// TestHTMLExponents: a number superscripted after a number is an exponent
// and keeps its caret (SQLite's limits page: "2<sup>31</sup>-1" read as
// "231-1", another number); an unlinked superscript after a word and
// ordinals stay as written, and a footnote mark linking to its note is
// dropped (footnoteMark).
func TestHTMLExponents(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`<p>up to 2<small><sup>31</sup></small>-1 bytes</p>`, "up to 2^31-1 bytes"},
		{`<p>up to 2<sup>31</sup>-1 or 10<sup>-6</sup> or (n+1)<sup>2</sup></p>`, "up to 2^31-1 or 10^-6 or (n+1)^2"},
		{`<p>See the note<sup>1</sup>, the 1<sup>st</sup> row and ref 3<sup><a href="#n4">4</a></sup>.</p>`, "See the note1, the 1st row and ref 3."},
		{`<table><tr><th>Limit</th></tr><tr><td>2<sup>63</sup></td></tr></table>`, "Limit\n2^63"},
		// A power of a variable (the Go specification's).
		{`<p>computed modulo 2<sup><i>n</i></sup>, where n is the bit width, scaled by 10<sup>exp</sup> or 2<sup>n-1</sup>.</p>`, "computed modulo 2^n, where n is the bit width, scaled by 10^exp or 2^n-1."},
		{`<p>the 2<sup>nd</sup> and 23<sup>rd</sup> rows</p>`, "the 2nd and 23rd rows"},
	} {
		doc := mustExtract(t, "html", c.in)
		if want := strings.ReplaceAll(c.want, "\\n", "\n"); !strings.Contains(doc.Text, want) {
			t.Errorf("%s: Text = %q, want it to contain %q", c.in, doc.Text, want)
		}
	}
}

// TestHTMLDropsPermalinks: a heading's link to itself ("¶" in Sphinx and
// the Apache manual) is not part of the heading; every citation of such a
// corpus ended in "¶".
func TestHTMLDropsPermalinks(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<h2 id="a">AllowOverride Directive <a class="permalink" href="#a" title="Permanent link">&para;</a></h2>`+
		`<p>Types of directive.</p><h3 id="b">os.path<a class="headerlink" href="#b">¶</a></h3><p>Paths. See <a href="#a">the directive</a>.</p>`)
	if h := blockTexts(doc, KindHeading); len(h) != 2 || h[0] != "AllowOverride Directive" || h[1] != "os.path" {
		t.Errorf("headings = %q", h)
	}
	if !strings.Contains(doc.Text, "See the directive.") {
		t.Errorf("a link with words is content: %q", doc.Text)
	}
}

// TestHTMLKeepsProseSidebars: DocBook draws a book's asides (TIP,
// SECURITY, …) as div.sidebar; a navigation sidebar is mostly links. The
// aside is content, the navigation is not.
func TestHTMLKeepsProseSidebars(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<div class="sidebar"><ul><li><a href="a.html">Install</a></li><li><a href="b.html">Configure</a></li>`+
		`<li><a href="c.html">Upgrade</a></li></ul></div><div class="section"><p>Main text about packages.</p>`+
		`<div class="sidebar"><p><strong>TIP</strong> Copying the package selection</p><p>Run dpkg --get-selections on the old machine `+
		`and dpkg --set-selections on the new one to install the same packages there.</p></div></div>`)
	if !strings.Contains(doc.Text, "dpkg --set-selections") {
		t.Errorf("the prose aside is dropped: %q", doc.Text)
	}
	if strings.Contains(doc.Text, "Configure") {
		t.Errorf("the navigation sidebar is kept: %q", doc.Text)
	}
}

// TestHTMLDefinitionBlocksAreMarked: the blocks of a dd (paragraphs, code)
// are at its term's definition depth; the paragraph after the list is not.
func TestHTMLDefinitionBlocksAreMarked(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<html><body><h2>Settings</h2><dl>
<dt>work_mem (integer)</dt><dd><p>Sets the base maximum amount of memory.</p><pre>SET work_mem = '64MB';</pre><p>The default is four megabytes.</p></dd>
<dt>temp_buffers (integer)</dt><dd><p>Sets the maximum amount of memory for temporary buffers.</p></dd></dl>
<p>Settings take effect at once.</p></body></html>`)
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, fmt.Sprintf("%s %d: %s", b.Kind, b.Definition, doc.Text[b.Start:b.End]))
	}
	want := []string{"heading 0: Settings", "term 1: work_mem (integer)", "paragraph 1: Sets the base maximum amount of memory.",
		"code 1: SET work_mem = '64MB';", "paragraph 1: The default is four megabytes.", "term 1: temp_buffers (integer)",
		"paragraph 1: Sets the maximum amount of memory for temporary buffers.", "paragraph 0: Settings take effect at once."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHTMLTitleFromLeadingMetadata: a page without <title> that opens with
// a comment of JSON metadata (the Go project's pages) is titled by it, its
// subtitle after a dash.
func TestHTMLTitleFromLeadingMetadata(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", "<!--{\n\t\"Title\": \"The Go Programming Language Specification\",\n\t\"Subtitle\": \"Version of June 29, 2022\",\n\t\"Path\": \"/ref/spec\"\n}-->\n\n<h2 id=\"Introduction\">Introduction</h2>\n<p>This is the reference manual for the Go programming language.</p>")
	if want := "The Go Programming Language Specification — Version of June 29, 2022"; doc.Title != want {
		t.Errorf("Title = %q, want %q", doc.Title, want)
	}
	doc = mustExtract(t, "html", "<!-- not metadata -->\n<h2>Introduction</h2><p>Text of the page.</p>")
	if strings.Contains(doc.Title, "metadata") {
		t.Errorf("Title = %q, taken from a comment that is no metadata", doc.Title)
	}
}

// TestHTMLPagerListIsChrome: a pager written as a list of links (the zsh
// FAQ's "Table of Contents", "Previous Chapter", "Next Chapter" above and
// below each chapter) is chrome; a short list of links to pages that says
// what they are stays.
func TestHTMLPagerListIsChrome(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<html><head><title>FAQ</title></head><body><hr><ul><li> <a href="FAQ.html">Table of Contents</a>`+
		`<li> <a href="FAQ02.html">Previous Chapter</a><li> <a href="FAQ04.html">Next Chapter</a></ul><hr>`+
		`<h1>Chapter 3: How to get various things to work</h1><p>In most Bourne-shell derivatives, multiple-word variables are split.</p>`+
		`<p>See also:</p><ul><li><a href="install.html">Installing zsh</a><li><a href="startup.html">Startup files</a></ul></body></html>`)
	for _, gone := range []string{"Previous Chapter", "Next Chapter", "Table of Contents"} {
		if strings.Contains(doc.Text, gone) {
			t.Errorf("pager link %q kept:\n%s", gone, doc.Text)
		}
	}
	if !strings.Contains(doc.Text, "Installing zsh") || !strings.Contains(doc.Text, "multiple-word variables") {
		t.Errorf("content lost:\n%s", doc.Text)
	}
}
