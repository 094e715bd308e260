package extract

import (
	"strings"
	"testing"
)

// TestEmptyParameterEntriesAreLeftOut: autodoc lists every annotated
// parameter under "Parameters:", described or not; an entry without a
// description ("msg (str) –") and a field holding only such entries say
// nothing the signature above them does not, and were quoted as answers.
// Described entries, and fields with content ("Return type:"), stay.
func TestEmptyParameterEntriesAreLeftOut(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "text/html", `<html><body><h1>API</h1>
<dl class="py method"><dt class="sig sig-object py">fail(msg, lineno=None)</dt><dd><p>Convenience method that raises an error.</p>
<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt>
<dd class="field-odd"><ul class="simple"><li><p><strong>msg</strong> (<em>str</em>) – </p></li>
<li><p><strong>lineno</strong> (<em>Optional</em><em>[</em><em>int</em><em>]</em>) – </p></li></ul></dd>
<dt class="field-even">Return type<span class="colon">:</span></dt><dd class="field-even"><p>te.NoReturn</p></dd></dl></dd></dl>
<dl class="py function"><dt class="sig sig-object py">dictsort(value, case_sensitive=False, by='key', reverse=False)</dt><dd><p>Sort a dict and yield (key, value) pairs.</p>
<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt>
<dd class="field-odd"><ul class="simple"><li><p><strong>value</strong> (<em>Mapping</em>) – </p></li>
<li><p><strong>reverse</strong> (<em>bool</em>) – Sort descending instead of ascending.</p></li></ul></dd></dl></dd></dl>
<dl class="field-list simple"><dt>Parameters:</dt><dd><p><strong>environment</strong> (<em>Environment</em>) – </p></dd></dl>
</body></html>`)
	text := doc.Text
	for _, gone := range []string{"msg (str)", "lineno (Optional[int])", "value (Mapping)", "environment (Environment)"} {
		if strings.Contains(text, gone) {
			t.Errorf("the empty entry %q is still in the text:\n%s", gone, text)
		}
	}
	if n := strings.Count(text, "Parameters"); n != 1 {
		t.Errorf("%d Parameters labels, want only the one above a described entry:\n%s", n, text)
	}
	for _, kept := range []string{"Convenience method that raises an error.", "Return type", "te.NoReturn", "reverse (bool) – Sort descending instead of ascending."} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q is missing:\n%s", kept, text)
		}
	}
}
