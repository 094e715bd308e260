package extract_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/extract"
)

// A linked heading inside a blockquote (mdBook's "> ##### Integer
// Overflow" aside, a Markdown site's "> ### Note") now opens a section;
// but the aside ends with its blockquote. The outer section's text that
// follows the quote is not the aside's: its chunks must keep the outer
// section's heading path and anchor, not the aside's ("Integer Overflow"
// / #integer-overflow), or a citation of "Floating-point numbers …"
// links to the overflow aside.
func TestHR43TextAfterQuotedSectionBelongsToOuterSection(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Floating-point numbers are represented according to the IEEE-754 standard and come in two sizes. ", 30)
	aside := strings.Repeat("When you compile in release mode, Rust performs two's complement wrapping of the value. ", 30)
	in := `<html><head><title>Data Types</title></head><body><main>
<h2 id="data-types"><a class="header" href="#data-types">Data Types</a></h2>
<p>Every value in Rust is of a certain data type, which tells Rust what kind of data is being specified.</p>
<blockquote>
<h5 id="integer-overflow"><a class="header" href="#integer-overflow">Integer Overflow</a></h5>
<p>Let's say you have a variable of type u8 that can hold values between 0 and 255. ` + aside + `</p>
</blockquote>
<p>` + long + `</p>
</main></body></html>`
	doc, err := extract.Extract("text/html", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	cfg := chunk.DefaultConfig()
	chunks, err := chunk.Split(doc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range chunks {
		i := strings.Index(doc.Text, "Floating-point numbers")
		if c.Start > i || c.End <= i {
			continue
		}
		found = true
		if strings.Contains(c.HeadingPath, "Integer Overflow") || c.Anchor == "integer-overflow" {
			t.Errorf("chunk of the outer section's text after the quote: heading path %q, anchor %q; want Data Types' (#data-types)",
				c.HeadingPath, c.Anchor)
		}
	}
	if !found {
		t.Fatalf("no chunk holds the text after the quote")
	}
}
