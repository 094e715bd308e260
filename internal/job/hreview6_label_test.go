package job_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestLongLabelCutOnACharacter (review h-review6): 85cde86 cuts a label
// over 2,000 bytes at byte 2,000 and then makes it valid with
// strings.ToValidUTF8(label, "\uFFFD"). A valid label whose 2,000th byte
// falls inside a character (any non-ASCII name: ingest run paths, an
// archive named in Japanese) now ends in a replacement character "�"
// that the client never sent; before, the cut character was dropped
// (ToValidUTF8(label[:2000], "")). The cut should land on a character
// boundary; only invalid bytes sent by the client become U+FFFD.
func TestLongLabelCutOnACharacter(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	s := job.New(testdb.App(t), f.pipe, job.Options{Workers: 1, Lease: time.Minute, Tenants: []uuid.UUID{f.tn.ID}})
	label := strings.Repeat("a", 1999) + "é.tgz" // valid UTF-8; byte 2,000 is the first byte of "é"
	j, err := s.Create(ctx, f.tn, job.OriginAPI, label, []job.File{{SourceURI: "a.md", ContentType: extract.TypeMarkdown, Content: md("A", 5)}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(j.Label, '\uFFFD') {
		t.Errorf("a valid label cut at 2,000 bytes ends in %q: a replacement character the client never sent", j.Label[len(j.Label)-6:])
	}
}
