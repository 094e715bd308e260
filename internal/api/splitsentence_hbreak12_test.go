package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestSentenceAroundCodeIsNotQuotedHeadless_hbreak12 (h-break12): the
// manual's numeric-types page (datatype-numeric.html, reproduced here)
// writes one sentence around a code block: "For example, a column declared
// as <pre>NUMERIC(3, 1)</pre> will round values to 1 decimal place and can
// store values between -99.9 and 99.9, inclusive." The sentence's second
// half is a unit of its own, and "How are values rounded to 1 decimal
// place?" is answered
//
//	will round values to 1 decimal place and can store values between
//	-99.9 and 99.9, inclusive [1].
//
// — a fragment with no subject (what will?), the column declaration it
// depends on left out. Over five manual pages, "What does the numeric type
// store?" adds the same fragment as a supporting sentence [2].
//
// Expected: a fragment that continues a sentence across a code block (it
// begins in lower case, and the paragraph before it ends without final
// punctuation) is quoted with the sentence's start and the code, or not at
// all.
func TestSentenceAroundCodeIsNotQuotedHeadless_hbreak12(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	page := `<html><head><title>8.1. Numeric Types</title></head><body><div class="sect1">
<h2 class="title">8.1. Numeric Types</h2>
<div class="sect2"><h3 class="title">8.1.2. Arbitrary Precision Numbers</h3>
<p>The type <code class="type">numeric</code> can store numbers with a very large number of digits.</p>
<p>If the scale of a value to be stored is greater than the declared scale of the column, the system will round the value to the specified number of fractional digits. Then, if the number of digits to the left of the decimal point exceeds the declared precision minus the declared scale, an error is raised. For example, a column declared as
</p><pre class="programlisting">
NUMERIC(3, 1)
</pre><p>
will round values to 1 decimal place and can store values between -99.9 and 99.9, inclusive.
</p>
</div></div></body></html>`
	decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: map[string]any{"source_uri": "datatype-numeric.html", "content_type": "html", "content": page}}), http.StatusOK)
	q := "How are values rounded to 1 decimal place?"
	ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
		body: map[string]any{"question": q}}), http.StatusOK)
	if ar.Refused {
		t.Fatalf("%q: refused (%.3f, %s)", q, ar.Confidence, ar.ConfidenceReason)
	}
	if strings.HasPrefix(strings.TrimSpace(ar.Answer), "will round") || !strings.Contains(ar.Answer, "NUMERIC(3, 1)") {
		t.Errorf("%q: the answer quotes the tail of a sentence without its subject (want the column declaration NUMERIC(3, 1) with it):\n%s", q, ar.Answer)
	}
}
