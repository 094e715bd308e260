package chunk

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// FuzzSplit extracts arbitrary bytes as HTML, Markdown or text and splits
// them with a config picked by mode; every chunk must keep the invariants of
// checkChunks, code blocks within the limits stay whole, and table headers
// are repeated.
func FuzzSplit(f *testing.F) {
	seeds := []string{
		"# T\n\n## A\n\ntext. More text.\n\n```\ncode\nlines\n```\n\n| h | k |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n",
		"<h1>T</h1><p>a b c. D e f.</p><table><thead><tr><th>x</th></tr></thead><tr><td>1</td></tr><tr><td>2</td></tr></table><pre>p\nq</pre>",
		"plain text.\n\nSecond paragraph with several words in it. And a second sentence.",
		"<dl><dt>term</dt><dd>def</dd></dl><ol><li>one</li><li>two</li></ol>",
		"漢字かな漢字かな。漢字かな！ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	}
	for i, s := range seeds {
		for mode := range 3 {
			f.Add([]byte(s), uint8(i*3+mode))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		typ := [...]string{"html", "markdown", "text"}[mode%3]
		doc, err := extract.Extract(typ, data)
		if err != nil {
			return
		}
		cfg := DefaultConfig()
		switch (mode / 3) % 4 {
		case 1:
			cfg = Config{TargetTokens: 20, MaxTokens: 30, MinTokens: 5, OverlapTokens: 5, MaxChars: MinMaxChars}
		case 2:
			cfg = Config{TargetTokens: 8, MaxTokens: 8, MinTokens: 0, OverlapTokens: 4, MaxChars: 200}
		case 3:
			cfg = Config{TargetTokens: 1, MaxTokens: 1, MinTokens: 1, OverlapTokens: 0, MaxChars: 100}
		}
		chunks, err := Split(doc, cfg)
		if err != nil {
			t.Fatalf("Split: %v", err)
		}
		checkChunks(t, doc, cfg, chunks)
		checkCodeWhole(t, doc, cfg, chunks)
		checkTableHeaders(t, doc, cfg, chunks)
	})
}
