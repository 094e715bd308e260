package extract

import (
	"strings"
	"testing"
)

// TestHR23RaisesFieldKeepsItsExceptions: Sphinx renders ":raises
// ValueError:" and ":raises KeyError:" written without a description as a
// "Raises:" field whose entries are "ValueError –" and "KeyError –"
// (GroupedField always writes the dash). emptyParameter takes them for
// undocumented parameters, emptyFields finds the field empty, and the
// whole "Raises" field is left out, so the page no longer says which
// exceptions the function raises; unlike a parameter, the signature above
// does not name them. Should: the exception names (and the Raises label)
// stay in the text.
func TestHR23RaisesFieldKeepsItsExceptions(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "text/html", `<html><body><h1>API</h1>
<dl class="py function"><dt class="sig sig-object py">load_config(path)</dt><dd><p>Load the configuration file at path.</p>
<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt>
<dd class="field-odd"><p><strong>path</strong> (<em>str</em>) – The file to read.</p></dd>
<dt class="field-even">Raises<span class="colon">:</span></dt>
<dd class="field-even"><ul class="simple"><li><p><strong>ValueError</strong> – </p></li>
<li><p><strong>KeyError</strong> – </p></li></ul></dd></dl></dd></dl>
</body></html>`)
	for _, kept := range []string{"Raises", "ValueError", "KeyError"} {
		if !strings.Contains(doc.Text, kept) {
			t.Errorf("%q is missing from the text:\n%s", kept, doc.Text)
		}
	}
}
