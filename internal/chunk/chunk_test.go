package chunk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// fixtures are small copies of manual pages kept by package extract.
const fixtures = "../extract/testdata"

func fixture(t testing.TB, name string) *extract.Document {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := extract.Extract("text/html", data)
	if err != nil {
		t.Fatalf("extract %s: %v", name, err)
	}
	return doc
}

func extractT(t testing.TB, typ, in string) *extract.Document {
	t.Helper()
	doc, err := extract.Extract(typ, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func split(t testing.TB, doc *extract.Document, cfg Config) []Chunk {
	t.Helper()
	chunks, err := Split(doc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkChunks(t, doc, cfg, chunks)
	return chunks
}

// checkChunks asserts the invariants Split promises for every document.
func checkChunks(t testing.TB, doc *extract.Document, cfg Config, chunks []Chunk) {
	t.Helper()
	count := cfg.Count
	if count == nil {
		count = WordCount
	}
	prevStart := 0
	for i, c := range chunks {
		if c.Index != i {
			t.Fatalf("chunk %d has Index %d", i, c.Index)
		}
		if c.Start < 0 || c.Start >= c.End || c.End > len(doc.Text) || c.Start < prevStart {
			t.Fatalf("chunk %d: range [%d,%d) invalid (text %d bytes, previous start %d)", i, c.Start, c.End, len(doc.Text), prevStart)
		}
		prevStart = c.Start
		if c.PrefixLen < 0 || c.PrefixLen > len(c.Content) || c.Content[c.PrefixLen:] != doc.Text[c.Start:c.End] {
			t.Fatalf("chunk %d: Content[PrefixLen:] != Text[Start:End]", i)
		}
		if strings.TrimSpace(c.Content) == "" {
			t.Fatalf("chunk %d is blank", i)
		}
		if len(c.Content) > cfg.MaxChars {
			t.Fatalf("chunk %d: %d bytes > MaxChars %d", i, len(c.Content), cfg.MaxChars)
		}
		if c.Tokens != count(c.Content) {
			t.Fatalf("chunk %d: Tokens %d != Count(Content) %d", i, c.Tokens, count(c.Content))
		}
		if c.Tokens > cfg.MaxTokens {
			t.Fatalf("chunk %d: %d tokens > MaxTokens %d:\n%s", i, c.Tokens, cfg.MaxTokens, c.Content)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config invalid: %v", err)
	}
	mod := func(f func(*Config)) Config { c := DefaultConfig(); f(&c); return c }
	cases := map[string]Config{
		"TargetTokens":   mod(func(c *Config) { c.TargetTokens = 0 }),
		"MaxTokens":      mod(func(c *Config) { c.MaxTokens = c.TargetTokens - 1 }),
		"MinTokens":      mod(func(c *Config) { c.MinTokens = c.TargetTokens + 1 }),
		"OverlapTokens":  mod(func(c *Config) { c.OverlapTokens = c.TargetTokens }),
		"OverlapTokens ": mod(func(c *Config) { c.OverlapTokens = -1 }),
		"MaxChars":       mod(func(c *Config) { c.MaxChars = 10 }),
		"MaxChars 1 MiB": mod(func(c *Config) { c.MaxChars = 1 << 20 }),
	}
	for name, cfg := range cases {
		err := cfg.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), strings.Fields(name)[0]) {
			t.Errorf("%s: error = %v", name, err)
		}
		if _, err := Split(&extract.Document{Text: "x", Blocks: []extract.Block{{Kind: extract.KindParagraph, End: 1}}}, cfg); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: Split error = %v", name, err)
		}
	}
	// A nil Count means WordCount.
	cfg := DefaultConfig()
	cfg.Count = nil
	chunks := split(t, extractT(t, "text", "one two three"), cfg)
	if len(chunks) != 1 || chunks[0].Tokens != 3 {
		t.Errorf("chunks = %+v", chunks)
	}
}

func TestSplitInvalidDocument(t *testing.T) {
	t.Parallel()
	para := func(s, e int) extract.Block { return extract.Block{Kind: extract.KindParagraph, Start: s, End: e} }
	for name, doc := range map[string]*extract.Document{
		"nil":         nil,
		"past end":    {Text: "abc", Blocks: []extract.Block{para(0, 4)}},
		"empty block": {Text: "abc", Blocks: []extract.Block{para(1, 1)}},
		"overlap":     {Text: "abcdef", Blocks: []extract.Block{para(0, 3), para(2, 5)}},
		"header":      {Text: "a | b\n1 | 2", Blocks: []extract.Block{{Kind: extract.KindTable, End: 11, HeaderRow: "x | y", Rows: []extract.Span{{Start: 6, End: 11}}}}},
		"row":         {Text: "a | b\n1 | 2", Blocks: []extract.Block{{Kind: extract.KindTable, End: 11, HeaderRow: "a | b", Rows: []extract.Span{{Start: 6, End: 12}}}}},
	} {
		if _, err := Split(doc, DefaultConfig()); !errors.Is(err, ErrInvalidDocument) {
			t.Errorf("%s: error = %v, want ErrInvalidDocument", name, err)
		}
	}
	chunks, err := Split(&extract.Document{}, DefaultConfig())
	if err != nil || len(chunks) != 0 {
		t.Errorf("empty document: %v, %v", chunks, err)
	}
}

func TestSplitSmallDocumentIsOneChunk(t *testing.T) {
	t.Parallel()
	doc := extractT(t, "markdown", "# Guide\n\nIntro.\n\n## A\n\nText a.\n\n## B\n\nText b.\n")
	chunks := split(t, doc, DefaultConfig())
	if len(chunks) != 1 || chunks[0].Content != doc.Text || chunks[0].HeadingPath != "Guide" {
		t.Fatalf("chunks = %+v", chunks)
	}
}

// words returns n distinct capitalised words prefixed with p ("P0 P1 …"),
// as sentences of ten words.
func words(p string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s%d", strings.ToUpper(p[:1])+p[1:], i)
		if i%10 == 9 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func TestSplitHeadingPaths(t *testing.T) {
	t.Parallel()
	md := "# Manual\n\n" + words("intro", 30) + "\n\n" +
		"## Install\n\n" + words("inst", 120) + "\n\n" +
		"### Linux\n\n" + words("linux", 150) + "\n\n" +
		"### Windows\n\n" + words("win", 150) + "\n\n" +
		"## Usage\n\n" + words("use", 180) + "\n"
	doc := extractT(t, "markdown", md)
	chunks := split(t, doc, DefaultConfig())
	paths := map[string]string{} // first word prefix → path
	for _, c := range chunks {
		for _, p := range []string{"Intro0", "Inst0", "Linux0", "Win0", "Use0"} {
			if strings.Contains(c.Content, p+" ") {
				paths[p] = c.HeadingPath
			}
		}
	}
	want := map[string]string{
		"Intro0": "Manual",
		"Inst0":  "Manual", // shares the first chunk with the intro
		"Linux0": "Manual > Install > Linux",
		"Win0":   "Manual > Install > Windows",
		"Use0":   "Manual > Usage",
	}
	// The title heading "Manual" equals the document title and is not repeated.
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("paths = %v\nwant    %v", paths, want)
	}
	// The 30-word intro is under MinTokens and merges forward into Install.
	if chunks[0].HeadingPath != "Manual" || !strings.Contains(chunks[0].Content, "Install\n\nInst0") {
		t.Errorf("first chunk = %q (%s)", chunks[0].Content, chunks[0].HeadingPath)
	}
}

func TestSplitPacksSmallSections(t *testing.T) {
	t.Parallel()
	var md strings.Builder
	md.WriteString("# FAQ\n\n")
	for i := range 20 {
		fmt.Fprintf(&md, "## Question %d\n\n%s\n\n", i, words(fmt.Sprintf("q%da", i), 40))
	}
	doc := extractT(t, "markdown", md.String())
	chunks := split(t, doc, DefaultConfig())
	// 20 sections of ~43 words pack four to a chunk (≤ 200 words).
	if len(chunks) != 5 {
		t.Fatalf("got %d chunks, want 5", len(chunks))
	}
	for _, c := range chunks {
		if c.HeadingPath != "FAQ" || c.Tokens > 200 || !strings.HasPrefix(strings.TrimPrefix(c.Content, "FAQ\n\n"), "Question ") {
			t.Errorf("chunk %d: path %q tokens %d starts %q", c.Index, c.HeadingPath, c.Tokens, c.Content[:20])
		}
	}
}

func TestSplitNoBareHeadingChunks(t *testing.T) {
	t.Parallel()
	md := "# Title\n\n## Part\n\n### Chapter\n\n" + words("body", 400) + "\n\n## Next\n\n" + words("next", 250)
	chunks := split(t, extractT(t, "markdown", md), DefaultConfig())
	for _, c := range chunks {
		if c.Tokens < 10 {
			t.Errorf("tiny chunk %q", c.Content)
		}
		if strings.HasSuffix(c.Content, "Next") || strings.HasSuffix(c.Content, "Chapter") {
			t.Errorf("chunk ends with a heading: %q", c.Content)
		}
	}
	if !strings.HasPrefix(chunks[0].Content, "Title\n\nPart\n\nChapter\n\nBody0") || chunks[0].HeadingPath != "Title > Part > Chapter" {
		t.Errorf("first chunk %q path %q", chunks[0].Content, chunks[0].HeadingPath)
	}
}

func TestSplitOverlapOnSentences(t *testing.T) {
	t.Parallel()
	doc := extractT(t, "text", words("w", 1000))
	cfg := DefaultConfig()
	chunks := split(t, doc, cfg)
	if len(chunks) < 5 {
		t.Fatalf("got %d chunks", len(chunks))
	}
	for i := 1; i < len(chunks); i++ {
		prev, cur := chunks[i-1], chunks[i]
		if cur.Start >= prev.End {
			t.Errorf("chunk %d does not overlap chunk %d", i, i-1)
			continue
		}
		ov := WordCount(doc.Text[cur.Start:prev.End])
		if ov == 0 || ov > cfg.OverlapTokens {
			t.Errorf("chunk %d overlaps by %d words", i, ov)
		}
		// Cuts fall on sentence boundaries.
		if !strings.HasSuffix(prev.Content, ".") {
			t.Errorf("chunk %d ends mid-sentence: %q", i-1, prev.Content[len(prev.Content)-20:])
		}
	}
	// Every word is covered.
	if chunks[0].Start != 0 || chunks[len(chunks)-1].End != len(doc.Text) {
		t.Errorf("chunks do not cover the text")
	}
	for i := 1; i < len(chunks); i++ {
		if chunks[i].Start > chunks[i-1].End+1 {
			t.Errorf("gap between chunks %d and %d", i-1, i)
		}
	}
}

func TestSplitKeepsCodeBlocksWhole(t *testing.T) {
	t.Parallel()
	doc := fixture(t, "sql-createtable.html")
	cfg := DefaultConfig()
	chunks := split(t, doc, cfg)

	const films = "CREATE TABLE films (\n    code        char(5) CONSTRAINT firstkey PRIMARY KEY,\n    title       varchar(40) NOT NULL,\n    did         integer NOT NULL,\n    date_prod   date,\n    kind        varchar(10),\n    len         interval hour to minute\n);\n\nCREATE TABLE distributors (\n     did    integer PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY,\n     name   varchar(40) NOT NULL CHECK (name <> '')\n);"
	n := 0
	for _, c := range chunks {
		if strings.Contains(c.Content, films) {
			n++
			if c.HeadingPath != "CREATE TABLE > Examples" {
				t.Errorf("films example under %q", c.HeadingPath)
			}
		}
	}
	if n != 1 {
		t.Errorf("films example appears whole in %d chunks, want exactly 1", n)
	}
	checkCodeWhole(t, doc, cfg, chunks)
}

// checkCodeWhole asserts that every code block within the limits lies whole
// inside exactly one chunk and is not cut.
func checkCodeWhole(t testing.TB, doc *extract.Document, cfg Config, chunks []Chunk) {
	t.Helper()
	for _, b := range doc.Blocks {
		if b.Kind != extract.KindCode || WordCount(doc.Text[b.Start:b.End]) > cfg.MaxTokens || b.End-b.Start > cfg.MaxChars {
			continue
		}
		whole, touched := 0, 0
		for _, c := range chunks {
			if c.Start <= b.Start && b.End <= c.End {
				whole++
			} else if c.Start < b.End && b.Start < c.End {
				touched++
			}
		}
		if whole != 1 || touched != 0 {
			t.Errorf("code block at %d (%q...) whole in %d chunks, cut by %d", b.Start, firstLine(doc.Text[b.Start:b.End]), whole, touched)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func TestSplitLongCodeOnLineBoundaries(t *testing.T) {
	t.Parallel()
	var code strings.Builder
	for i := range 400 {
		fmt.Fprintf(&code, "    x%d := compute(a, b, c) // step %d\n", i, i)
		if i%25 == 24 {
			code.WriteString("\n")
		}
	}
	doc := extractT(t, "markdown", "# Code\n\n```go\n"+code.String()+"```\n")
	lines := map[string]bool{}
	for _, l := range strings.Split(code.String(), "\n") {
		lines[l] = true
	}
	chunks := split(t, doc, DefaultConfig())
	if len(chunks) < 5 {
		t.Fatalf("got %d chunks", len(chunks))
	}
	for _, c := range chunks {
		for _, l := range strings.Split(strings.TrimPrefix(c.Content, "Code\n\n"), "\n") {
			if !lines[l] {
				t.Fatalf("chunk %d has a partial line %q", c.Index, l)
			}
		}
	}
}

func TestSplitHardLimits(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cfg.MaxChars = 4096
	for name, text := range map[string]string{
		"one long word":      strings.Repeat("x", 50_000),
		"long line of words": strings.Repeat("word ", 20_000),
		"multibyte word":     strings.Repeat("é", 30_000),
		"han text":           strings.Repeat("漢字かな", 5_000),
		"long sentence":      strings.Repeat("lorem ipsum, ", 3_000) + ".",
	} {
		for _, typ := range []string{"text", "markdown"} {
			doc := extractT(t, typ, text)
			chunks := split(t, doc, cfg)
			if len(chunks) < 2 {
				t.Errorf("%s/%s: %d chunks", name, typ, len(chunks))
			}
		}
	}
	// A code block with one huge line is cut despite being code.
	doc := extractT(t, "markdown", "```\n"+strings.Repeat("a=1;", 10_000)+"\n```")
	split(t, doc, cfg)
}

func TestSplitCustomCounter(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cfg.Count = func(s string) int { return (len(s) + 3) / 4 } // ~4 bytes per token
	doc := fixture(t, "runtime-config-resource.html")
	chunks := split(t, doc, cfg)
	if len(chunks) < 10 {
		t.Errorf("got %d chunks", len(chunks))
	}
}

func TestSplitDeterministic(t *testing.T) {
	t.Parallel()
	doc := fixture(t, "runtime-config-resource.html")
	a := split(t, doc, DefaultConfig())
	b := split(t, doc, DefaultConfig())
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Split is not deterministic")
	}
}

func TestSplitFixtures(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"errcodes-appendix.html", "sql-createtable.html", "runtime-config-resource.html"} {
		doc := fixture(t, name)
		for _, cfg := range []Config{DefaultConfig(), {TargetTokens: 50, MaxTokens: 60, OverlapTokens: 10, MinTokens: 5, MaxChars: 400}} {
			chunks := split(t, doc, cfg)
			checkCodeWhole(t, doc, cfg, chunks)
			checkTableHeaders(t, doc, cfg, chunks)
		}
	}
	chunks := split(t, fixture(t, "runtime-config-resource.html"), DefaultConfig())
	for _, c := range chunks {
		// A chunk of one setting's definition names the setting.
		if strings.Contains(c.Content, "work_mem (integer)\nSets the base maximum") && c.HeadingPath != "20.4. Resource Consumption > 20.4.1. Memory > work_mem (integer)" {
			t.Errorf("work_mem under %q", c.HeadingPath)
		}
	}
}

func TestSplitRepeatsTableHeader(t *testing.T) {
	t.Parallel()
	doc := fixture(t, "errcodes-appendix.html")
	chunks := split(t, doc, DefaultConfig())
	if n := checkTableHeaders(t, doc, DefaultConfig(), chunks); n < 4 {
		t.Errorf("errcodes table spans %d chunks, want several", n)
	}
	for _, c := range chunks {
		if c.PrefixLen > 0 && !strings.HasPrefix(c.Content, "Error Code | Condition Name\n") {
			t.Errorf("chunk %d prefix %q", c.Index, c.Content[:c.PrefixLen])
		}
	}
	// The caption stays with the table.
	for _, c := range chunks {
		if strings.HasSuffix(c.Content, "Table A.1. PostgreSQL Error Codes") {
			t.Errorf("chunk %d ends with the table caption", c.Index)
		}
	}
}

// checkTableHeaders asserts that every chunk holding a row of a table with a
// repeatable header shows that header first in its table part: either the chunk starts
// inside the table and Content begins with the header (PrefixLen), or the
// chunk contains the table's start. It returns the largest number of chunks
// one table spans.
func checkTableHeaders(t testing.TB, doc *extract.Document, cfg Config, chunks []Chunk) int {
	t.Helper()
	most := 0
	for _, b := range doc.Blocks {
		if b.Kind != extract.KindTable || b.HeaderRow == "" ||
			WordCount(b.HeaderRow) > cfg.MaxTokens/4 || len(b.HeaderRow)+1 > cfg.MaxChars/4 {
			continue // no header, or too big to repeat (documented)
		}
		spans := 0
		for _, c := range chunks {
			holdsRow := false
			for _, r := range b.Rows {
				if c.Start < r.End && r.Start < c.End {
					holdsRow = true
					break
				}
			}
			if !holdsRow {
				continue
			}
			spans++
			switch {
			case c.Start <= b.Start:
				if !strings.HasPrefix(doc.Text[b.Start:c.End], b.HeaderRow+"\n") {
					t.Errorf("chunk %d contains the table start but not its header", c.Index)
				}
			case c.PrefixLen > 0:
				if c.Content[:c.PrefixLen] != b.HeaderRow+"\n" {
					t.Errorf("chunk %d repeats %q, want header %q", c.Index, c.Content[:c.PrefixLen], b.HeaderRow)
				}
			default:
				t.Errorf("chunk %d holds rows of table at %d without its header: %q", c.Index, b.Start, firstLine(c.Content))
			}
		}
		most = max(most, spans)
	}
	return most
}

func TestWordCount(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{
		"":                        0,
		"   ":                     0,
		"one":                     1,
		" one  two\tthree\nfour ": 4,
		"don't stop-me now.":      3,
		"naïve café\u00a0au lait": 4,
		"漢字かな":                    4,
		"mixed 漢字 words":          4,
		"a|b | c":                 3,
		"CREATE TABLE t (a int);": 5,
	} {
		if got := WordCount(in); got != want {
			t.Errorf("WordCount(%q) = %d, want %d", in, got, want)
		}
	}
}

func BenchmarkSplit(b *testing.B) {
	doc := fixture(b, "sql-createtable.html")
	cfg := DefaultConfig()
	b.SetBytes(int64(len(doc.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Split(doc, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDefinitionChunkNamesItsTerm: a chunk of one long definition names the
// term in its heading path (its later chunks too); a chunk of several
// definitions has their section's path; the text after the list has the
// section's path.
func TestDefinitionChunkNamesItsTerm(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("<p>The daemon retries the delivery later and logs the reason for the delay in the queue file.</p>", 12)
	doc := extractT(t, "text/html", `<html><head><title>postconf(5)</title></head><body><h2>Parameters</h2><dl>
<dt>maximal_queue_lifetime (default: 5d)</dt><dd><p>Consider a message as undeliverable when delivery fails for this long.</p>`+long+`</dd>
<dt>a_short (default: 1)</dt><dd><p>One.</p></dd><dt>b_short (default: 2)</dt><dd><p>Two.</p></dd></dl>
<p>Parameters are read at start-up.</p></body></html>`)
	chunks := split(t, doc, Config{TargetTokens: 60, MaxTokens: 80, MinTokens: 5, OverlapTokens: 0, MaxChars: 2000})
	term := "postconf(5) > Parameters > maximal_queue_lifetime (default: 5d)"
	var inTerm, last int
	for _, c := range chunks {
		if strings.Contains(c.Content, "retries the delivery") && !strings.Contains(c.Content, "a_short") {
			inTerm++
			if c.HeadingPath != term {
				t.Errorf("chunk of the definition under %q, want %q:\n%s", c.HeadingPath, term, c.Content)
			}
		}
		if strings.Contains(c.Content, "read at start-up") {
			last++
			if c.HeadingPath != "postconf(5) > Parameters" {
				t.Errorf("chunk after the list under %q", c.HeadingPath)
			}
		}
	}
	if inTerm < 2 || last != 1 {
		t.Fatalf("%d chunks inside the long definition (want ≥ 2), %d after the list", inTerm, last)
	}
}
