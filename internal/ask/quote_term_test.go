package ask

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

// TestCiteQuotedFindsADefinitionsTerm: a definition is quoted "term: its
// first sentence" where the source writes the term on a line of its own;
// the citation still links to the section the term is in (bup-server's
// FILES entry had been cited with the chunk's first anchor, #name).
func TestCiteQuotedFindsADefinitionsTerm(t *testing.T) {
	t.Parallel()
	content := "NAME\n\nbup-server - the server side of a remote bup session\n\nMODES\n\nsmart: The server runs the smart mode.\n\n" +
		"FILES\n\n$BUP_DIR/bup-dumb-server\nActivate dumb server mode, as discussed above."
	files := strings.Index(content, "FILES")
	src := answer.Source{N: 1, ChunkID: "c1", HeadingPath: "bup-server(1)", Content: content, Anchor: "name"}
	text := "$BUP_DIR/bup-dumb-server: Activate dumb server mode, as discussed above [1]."
	nb := &neighbourhood{start: 0, chunk: 0, parts: []part{{start: 0, end: len(content), heading: "bup-server(1)", id: "c1", anchor: "name",
		marks: []mark{{at: strings.Index(content, "MODES"), anchor: "modes"}, {at: files, anchor: "files"}}}}}
	cs := []answer.Citation{{N: 1, ChunkID: "c1", HeadingPath: src.HeadingPath, Anchor: "name"}}
	citeQuoted(text, cs, []answer.Source{src}, []*neighbourhood{nb})
	if cs[0].Anchor != "files" {
		t.Errorf("cited with anchor %q, want files (the section the quoted term is in)", cs[0].Anchor)
	}
}
