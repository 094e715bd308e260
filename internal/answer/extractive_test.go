package answer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func docsSources() []Source {
	return []Source{
		{ChunkID: "a", SourceURI: "docs/install.md", Title: "Install", Content: `# Install

ragd ships as a single static binary. Download it from the releases page and put it on your PATH.

` + "```sh\n$ ragd serve --port 9090 --listen 0.0.0.0\n```" + `

The server reads its configuration from environment variables.`},
		{ChunkID: "b", SourceURI: "docs/config.md", Title: "Configuration", Content: `Every setting has a default. The HTTP server listens on port 8080 by default; set RAGD_PORT to change it.
Secrets such as the database password can be read from files, e.g. RAGD_DATABASE_URL_FILE.`},
		{ChunkID: "c", SourceURI: "docs/tenancy.md", Title: "Tenancy", Content: `Tenants are isolated by row-level security policies in PostgreSQL. Each request runs in a transaction that sets app.tenant_id first.
Tenants never share a connection state, and the policies are checked on every query.`},
	}
}

func TestExtractivePicksTheAnsweringSentence(t *testing.T) {
	t.Parallel()
	r := Extractive("Which port does the server listen on by default?", docsSources(), 1)
	want := "The HTTP server listens on port 8080 by default; set RAGD_PORT to change it [2]."
	if r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
	if r.Mode != ModeExtractive || r.Refused || r.Degraded {
		t.Errorf("flags = %+v", r)
	}
	if len(r.Citations) != 1 || r.Citations[0].N != 2 || r.Citations[0].ChunkID != "b" || r.Citations[0].Title != "Configuration" {
		t.Errorf("Citations = %+v", r.Citations)
	}
	if clean, cited, invalid := Verify(r.Answer, docsSources()); clean != r.Answer || !slices.Equal(cited, []int{2}) || len(invalid) != 0 {
		t.Errorf("extractive answer does not verify: %q %v %v", clean, cited, invalid)
	}
}

// "tenants" is in many sentences, "row-level security" in one: the rarer
// words must decide.
func TestExtractiveWeighsRareWords(t *testing.T) {
	t.Parallel()
	r := Extractive("How are tenants isolated with row level security?", docsSources(), 1)
	if !strings.HasPrefix(r.Answer, "Tenants are isolated by row-level security policies in PostgreSQL [3].") {
		t.Errorf("Answer = %q", r.Answer)
	}
}

func TestExtractiveReadingOrderAndCitations(t *testing.T) {
	t.Parallel()
	r := Extractive("Where are the tenant policies and the server configuration read from?", docsSources(), 3)
	// Sentences come out by source, then position, whatever their scores.
	var last int
	for _, n := range ParseCitations(r.Answer) {
		if n < last {
			t.Errorf("citations out of reading order in %q", r.Answer)
		}
		last = n
	}
	if got := len(ParseCitations(r.Answer)); got < 2 {
		t.Errorf("want sentences from at least two sources, got %q", r.Answer)
	}
	if len(r.Citations) != len(ParseCitations(r.Answer)) {
		t.Errorf("Citations %+v do not match markers in %q", r.Citations, r.Answer)
	}
	if n := strings.Count(r.Answer, "["); n > 3 {
		t.Errorf("more than 3 sentences: %q", r.Answer)
	}
}

func TestExtractiveFallsBackToFirstSource(t *testing.T) {
	t.Parallel()
	r := Extractive("Quelle est la météo à Lyon ?", docsSources(), 2)
	want := "ragd ships as a single static binary [1]. Download it from the releases page and put it on your PATH [1]."
	if r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
	if r.Refused || len(r.Citations) != 1 || r.Citations[0].N != 1 {
		t.Errorf("result = %+v", r)
	}
}

func TestExtractiveSkipsCodeAndFragments(t *testing.T) {
	t.Parallel()
	src := []Source{{Content: "Port:\n\n```go\nlisten(port) // the port the server listens on by default\n```\n" +
		"    srv.Listen(cfg.Port); if err != nil { return err }\n" +
		"- port\n\n" +
		"The listener binds the port given in the config file (e.g. 8080), see os.Getenv for details."}}
	r := Extractive("Which port does the server listen on?", src, 3)
	want := "The listener binds the port given in the config file (e.g. 8080), see os.Getenv for details [1]."
	if r.Answer != want {
		t.Errorf("Answer = %q, want %q", r.Answer, want)
	}
}

func TestExtractiveStripsSourceMarkersAndDedupes(t *testing.T) {
	t.Parallel()
	src := []Source{
		{Content: "Paris is the capital of France [12]. It is large."},
		{Content: "Paris is the capital of France [12]. Lyon is not."}, // overlapping chunk
	}
	r := Extractive("What is the capital of France?", src, 3)
	if r.Answer != "Paris is the capital of France [1]." {
		t.Errorf("Answer = %q", r.Answer)
	}
}

func TestExtractiveEdgeCases(t *testing.T) {
	t.Parallel()
	r := Extractive("anything", []Source{{Content: "  \n "}, {Content: ""}}, 3)
	if !r.Refused || r.Answer != RefusalPhrase || r.Mode != ModeExtractive {
		t.Errorf("all-empty sources = %+v, want a refusal", r)
	}
	r = Extractive("anything", []Source{{Content: " \n"}, {Content: "Port: 8080 [4]\n\n```\nrun();\n```"}}, 3)
	if r.Answer != "Port: 8080 [2]" || r.Citations[0].N != 2 {
		t.Errorf("no usable sentence: %q %+v, want an excerpt of source 2", r.Answer, r.Citations)
	}
	r = Extractive("anything", []Source{{Content: "```\nrun();\n```"}}, 3)
	if r.Answer != "``` run(); ``` [1]" {
		t.Errorf("code-only source: %q, want its raw text", r.Answer)
	}
	r = Extractive("tok", []Source{{Content: strings.Repeat("tok ", 200)}}, 3)
	if !strings.HasSuffix(r.Answer, "tok… [1]") || len(r.Answer) > maxQuoteChars+10 {
		t.Errorf("long sentence not truncated: %q", r.Answer)
	}
	if r := Extractive("port", docsSources(), 0); strings.Count(r.Answer, "[") > DefaultMaxSentences {
		t.Errorf("maxSentences 0 should mean the default: %q", r.Answer)
	}
}

func TestSplitSentences(t *testing.T) {
	t.Parallel()
	text := `# Title
First sentence has e.g. an abbreviation and pi is 3.14 here. Call os.Exit(1) to quit! Really? Yes: J. Smith wrote main.go.
- A list item without a period
1. Numbered item. Second part
| key | value |
` + "```\nignored(); code.\n```\n" + `Last line "quoted." Then more.`
	got := splitSentences(text)
	want := []string{
		"First sentence has e.g. an abbreviation and pi is 3.14 here.",
		"Call os.Exit(1) to quit!",
		"Really?",
		"Yes: J. Smith wrote main.go.",
		"A list item without a period",
		"Numbered item.",
		"Second part",
		"key; value",
		`Last line "quoted."`,
		"Then more.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("splitSentences =\n%q\nwant\n%q", got, want)
	}
}

func TestTermsAndStem(t *testing.T) {
	t.Parallel()
	pairs := [][2]string{
		{"tenants", "tenant"}, {"policies", "policy"}, {"indexing", "index"}, {"indexed", "index"},
		{"stored", "store"}, {"storing", "store"}, {"running", "run"}, {"stopped", "stop"},
		{"rates", "rate"}, {"classes", "class"},
	}
	for _, p := range pairs {
		if stem(p[0]) != stem(p[1]) {
			t.Errorf("stem(%q) = %q but stem(%q) = %q", p[0], stem(p[0]), p[1], stem(p[1]))
		}
	}
	got := terms("What is the default PORT of the server, e.g. 8080?")
	if want := []string{"default", "port", "server", "8080"}; fmt.Sprint(got) != fmt.Sprint(stemAll(want)) {
		t.Errorf("terms = %q, want stems of %q", got, want)
	}
}

func stemAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = stem(w)
	}
	return out
}

func BenchmarkExtractive(b *testing.B) {
	para := "Tenants are isolated by row-level security policies in PostgreSQL. Each request runs in a transaction that sets app.tenant_id first. " +
		"The HTTP server listens on port 8080 by default. Secrets such as the database password can be read from files. "
	var sources []Source
	for i := range 10 {
		sources = append(sources, Source{N: i + 1, Content: fmt.Sprintf("Chunk %d. %s", i, strings.Repeat(para, 4))})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Extractive("Which port does the HTTP server listen on by default?", sources, 3)
	}
}
