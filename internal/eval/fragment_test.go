package eval_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
)

// A relevant label copied from an answer's link ("doc://vacuum#reclaim")
// names a section; the set is refused with a problem that says the
// labels name whole documents and which document that is, not only that
// no such document exists (a fresh user's "unknown source_uri
// …manual.html#3.4.6" gave no hint).
func TestLoadSetSaysLabelsNameDocuments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	bad := append([]eval.Question{}, questions...)
	bad[0] = eval.Question{Question: bad[0].Question, Relevant: []string{"doc://vacuum#reclaim"}}
	bad[1] = eval.Question{Question: bad[1].Question, Relevant: []string{"doc://nope#x"}}
	_, err := b.svc.LoadSet(ctx, b.t, "fragments", bad, eval.LoadOptions{})
	var ve *eval.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 2 {
		t.Fatalf("LoadSet = %v, want two problems", err)
	}
	if p := ve.Problems[0]; p.Line != 1 || p.Code != "unknown_source_uri" || !strings.Contains(p.Message, `"doc://vacuum" is one`) || !strings.Contains(p.Message, "#fragment") {
		t.Errorf("problem %+v: want it to name the document doc://vacuum and the fragment", p)
	}
	if p := ve.Problems[1]; p.Line != 2 || !strings.Contains(p.Message, "no such document") {
		t.Errorf("problem %+v: a fragment of no document is an unknown document", p)
	}
}
