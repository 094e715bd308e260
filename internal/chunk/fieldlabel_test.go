package chunk

import (
	"strings"
	"testing"
)

// TestFieldListKeepsItsEntryInThePath: a chunk of an API entry's
// parameters (Sphinx renders them as a field list, "Parameters:" above the
// list, inside the entry's definition) is named by the entry, not by the
// field's label: cited as "General Helpers > Parameters:", a parameter's
// description did not say which function it belongs to. An ordinary
// nested term ("may" under a setting) still names its chunk.
func TestFieldListKeepsItsEntryInThePath(t *testing.T) {
	t.Parallel()
	params := strings.Repeat("<li><p>path_or_file – The path to the file to send, relative to the current working directory if a relative path is given.</p></li>", 6)
	doc := extractT(t, "text/html", `<html><head><title>Utilities</title></head><body><h2>General Helpers</h2><dl class="py function">
<dt class="sig sig-object py">werkzeug.utils.send_file(path_or_file, environ, as_attachment=False)</dt><dd><p>Send the contents of a file to the client.</p>
<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt><dd class="field-odd"><ul>`+params+
		`<li><p>as_attachment (bool) – Indicate to a browser that it should offer to save the file instead of displaying it.</p></li></ul></dd>
<dt class="field-even">Return type<span class="colon">:</span></dt><dd class="field-even"><p>Response</p></dd></dl></dd></dl>
<h2>Settings</h2><dl><dt>tls_level</dt><dd><p>The TLS level.</p><dl><dt>may</dt><dd>`+strings.Repeat("<p>Opportunistic TLS, used when the server offers it and plain text otherwise, which is the default for most mail servers today.</p>", 4)+`</dd></dl></dd></dl></body></html>`)
	chunks := split(t, doc, Config{TargetTokens: 30, MaxTokens: 60, MinTokens: 1, OverlapTokens: 0, MaxChars: 2000})
	seen, may := false, false
	for _, c := range chunks {
		if strings.Contains(c.Content, "as_attachment (bool)") {
			seen = true
			if !strings.Contains(c.HeadingPath, "send_file") || strings.HasSuffix(c.HeadingPath, "Parameters:") {
				t.Errorf("the parameters' chunk is not named by its function: %q", c.HeadingPath)
			}
		}
		if strings.Contains(c.Content, "Opportunistic TLS") && !strings.Contains(c.Content, "The TLS level.") {
			may = true
			if !strings.HasSuffix(c.HeadingPath, " > may") {
				t.Errorf("a nested term no longer names its chunk: %q", c.HeadingPath)
			}
		}
	}
	if !seen || !may {
		t.Fatalf("parameter (%v) or nested term's own chunk (%v) not found", seen, may)
	}
}
