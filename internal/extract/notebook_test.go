package extract

import (
	"errors"
	"strings"
	"testing"
)

// TestNotebookOutputHeadingsAreLabels: a heading a notebook cell printed
// (nbsphinx's output_area: a styled table's "<h1>My Table</h1>") is the
// output's text, not a section of the page, so the page's text after it
// stays in its own section.
func TestNotebookOutputHeadingsAreLabels(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Table Visualization</title></head><body><main>
<h1 id="table-visualization">Table Visualization</h1>
<h2 id="extensibility">Extensibility</h2><p>Styler can be subclassed.</p>
<div class="nbinput docutils container"><div class="input_area highlight-ipython3"><pre>MyStyler(df).to_html(table_title="My Table")</pre></div></div>
<div class="nboutput docutils container"><div class="output_area rendered_html docutils container"><h1>My Table</h1><table><tr><td>1</td></tr></table></div></div>
<p>The template structure is shown below.</p>
</main></body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, doc.Text[b.Start:b.End])
		}
	}
	if got := strings.Join(heads, " | "); got != "Table Visualization | Extensibility" || !strings.Contains(doc.Text, "My Table") {
		t.Errorf("headings %q, want the page's two; text %q", got, doc.Text)
	}
}

// TestToctreePageIsNoDocument: a Sphinx page that is its title and a
// table of contents of the pages under it is no document; a page with
// prose beside its toctree keeps the prose and leaves the list of titles
// out.
func TestToctreePageIsNoDocument(t *testing.T) {
	t.Parallel()
	toc := `<div class="toctree-wrapper compound"><ul>
<li class="toctree-l1"><a class="reference internal" href="compare_with_r.html">Comparison with R / R libraries</a><ul>
<li class="toctree-l2"><a class="reference internal" href="compare_with_r.html#quick-reference">Quick reference</a></li></ul></li>
<li class="toctree-l1"><a class="reference internal" href="compare_with_sql.html">Comparison with SQL</a></li></ul></div>`
	bare := `<html><head><title>Comparison with other tools</title></head><body><main><h1 id="c">Comparison with other tools</h1>` + toc + `</main></body></html>`
	if _, err := Extract(TypeHTML, []byte(bare)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("a title and a toctree: %v, want ErrLinksOnly", err)
	}
	prose := `<html><head><title>User Guide</title></head><body><main><h1 id="u">User Guide</h1>
<p>The User Guide covers all of pandas by topic area. Each of the subsections introduces a topic and discusses how pandas approaches the problem.</p>` + toc + `</main></body></html>`
	doc, err := Extract(TypeHTML, []byte(prose))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "covers all of pandas") || strings.Contains(doc.Text, "Quick reference") {
		t.Errorf("text %q: want the prose without the toctree", doc.Text)
	}
}
