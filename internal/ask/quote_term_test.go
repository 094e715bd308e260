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

// TestCiteQuotedSkipsRepeatedText: a quoted sentence the source repeats in
// every entry (an API reference's "url – URL for the new Request object")
// places the citation only when nothing else quoted does: found first, it
// linked requests.post's parameters to requests.head.
func TestCiteQuotedSkipsRepeatedText(t *testing.T) {
	t.Parallel()
	entry := func(name, does string) string {
		return name + "(url, **kwargs)\n" + does + "\n\nParameters\n- url – URL for the new Request object.\n- **kwargs – Optional arguments that request takes.\n\n"
	}
	content := entry("requests.head", "Sends a HEAD request.") + entry("requests.get", "Sends a GET request.") + entry("requests.post", "Sends a POST request.")
	entryMark := func(name string) mark { return mark{at: strings.Index(content, name+"("), anchor: name} }
	src := answer.Source{N: 1, ChunkID: "c1", HeadingPath: "Developer Interface > Main Interface", Content: content, Anchor: "requests.head"}
	nb := &neighbourhood{start: 0, chunk: 0, parts: []part{{start: 0, end: len(content), heading: src.HeadingPath, id: "c1", anchor: "requests.head",
		marks: []mark{entryMark("requests.head"), entryMark("requests.get"), entryMark("requests.post")}}}}
	cs := []answer.Citation{{N: 1, ChunkID: "c1", HeadingPath: src.HeadingPath, Anchor: "requests.head"}}
	text := "requests.post(url, **kwargs): Sends a POST request [1]. Parameters: - url – URL for the new Request object [1]."
	citeQuoted(text, cs, []answer.Source{src}, []*neighbourhood{nb})
	if cs[0].Anchor != "requests.post" {
		t.Errorf("cited with anchor %q, want requests.post (the entry quoted)", cs[0].Anchor)
	}
}

// TestCiteQuotedFindsASignaturesSentence: a definition whose term holds
// ": " itself (a signature's "pprint(value: Any) → str") is still found by
// its sentence, and cited at its entry, not at the chunk's first.
func TestCiteQuotedFindsASignaturesSentence(t *testing.T) {
	t.Parallel()
	content := "jinja-filters.max(value: 't.Iterable[V]') → 't.Union[V, Undefined]'\nReturn the largest item from the sequence.\n\n" +
		"jinja-filters.pprint(value: Any) → str\nPretty print a variable. Useful for debugging.\n"
	src := answer.Source{N: 1, ChunkID: "c1", HeadingPath: "Templates > List of Builtin Filters", Content: content, Anchor: "jinja-filters.max"}
	nb := &neighbourhood{start: 0, chunk: 0, parts: []part{{start: 0, end: len(content), heading: src.HeadingPath, id: "c1", anchor: "jinja-filters.max",
		marks: []mark{{at: 0, anchor: "jinja-filters.max"}, {at: strings.Index(content, "jinja-filters.pprint"), anchor: "jinja-filters.pprint"}}}}}
	cs := []answer.Citation{{N: 1, ChunkID: "c1", HeadingPath: src.HeadingPath, Anchor: "jinja-filters.max"}}
	citeQuoted("jinja-filters.pprint(value: Any) → str: Pretty print a variable [1].", cs, []answer.Source{src}, []*neighbourhood{nb})
	if cs[0].Anchor != "jinja-filters.pprint" {
		t.Errorf("cited with anchor %q, want jinja-filters.pprint", cs[0].Anchor)
	}
}
