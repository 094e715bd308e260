package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/extract"
)

// nestedFormsPDF is a PDF of pages pages, each drawing a form XObject that
// draws the next one fan times, depth levels down to one word of text:
// fan^depth text draws per page from a file of under 2 KB (the PDF
// analogue of nested XML entities).
func nestedFormsPDF(depth, fan, pages int) []byte {
	var b bytes.Buffer
	var offs []int
	obj := func(s string) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offs), s)
	}
	stream := func(dict, body string) string {
		return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(body), body)
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	kids := make([]string, pages)
	for i := range kids {
		kids[i] = "4 0 R"
	}
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >> /Contents %d 0 R >>", 6+depth))
	for k := depth; k >= 0; k-- {
		const form = "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources "
		if k == 0 {
			obj(stream(form+"<< /Font << /F1 3 0 R >> >>", "BT /F1 10 Tf 72 700 Td (laugh) Tj ET"))
		} else {
			obj(stream(form+fmt.Sprintf("<< /XObject << /Y %d 0 R >> >>", 5+depth-k+1), strings.Repeat("/Y Do ", fan)))
		}
	}
	obj(stream("", "/X Do"))
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, x)
	return b.Bytes()
}

// The PDF engine is a pool of GOMAXPROCS PDFium instances. Reading a PDF
// ignored the request: it ran until it ended or pdfTimeout (2 minutes)
// killed it, while the request's deadline (RAGD_REQUEST_TIMEOUT) passed
// unnoticed. A 2 KB PDF whose pages each draw nested forms 10^4 times takes
// about 0.4 s a page to read; GOMAXPROCS of them, from one editor of one
// tenant, held every instance, and another tenant's upload of a four-page
// PDF waited for them, far past its own deadline (with 60 pages on the
// shared 2-core machine: 18 s idle, 1 min 7 s under load, against a 4 s
// deadline). Each request must end at its deadline (504) and release its
// instance, so that other tenants' PDFs are read (SECURITY.md: no tenant may
// exhaust the server for others). The bounds below are the outcome, not a
// speed target: the slow uploads end with 504 (not after the engine's own 2
// minutes), and the other tenant's PDF is read (200), which it could only be
// once the instances were released before its own deadline.
func TestSlowPDFsEndAtTheDeadline(t *testing.T) {
	if err := extract.PreparePDF(); err != nil {
		t.Fatal(err)
	}
	// The slow uploads' requests end after slowDeadline (their client's
	// deadline); the server's own is longer, so the other tenant's upload,
	// sent while they hold the engine, has time to be read once they are gone.
	const timeout, slowDeadline = 8 * time.Second, 2 * time.Second
	b := setup(t, func(d *api.Deps) { d.Limits.RequestTimeout = timeout })
	upload := func(ctx context.Context, tok, name string, content []byte) (*httptest.ResponseRecorder, time.Duration) {
		body, ct := multipartBody(t, name, "application/pdf", content, nil)
		r := httptest.NewRequestWithContext(ctx, "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		start := time.Now()
		b.srv.ServeHTTP(w, r)
		return w, time.Since(start)
	}
	slow := nestedFormsPDF(4, 10, 60)
	edA := token(t, b.a.ID, auth.RoleEditor)
	var wg sync.WaitGroup
	for i := range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(t.Context(), slowDeadline)
			defer cancel()
			w, took := upload(ctx, edA, fmt.Sprintf("forms%d.pdf", i), slow)
			if w.Code != 504 || took > time.Minute {
				t.Errorf("a %d-byte PDF that takes the engine minutes: status %d after %v, want 504 at the %v deadline",
					len(slow), w.Code, took.Round(time.Second), slowDeadline)
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	w, took := upload(t.Context(), token(t, b.b.ID, auth.RoleEditor), "manual.pdf", formatFixture(t, "manual.pdf"))
	if w.Code != 200 {
		t.Errorf("another tenant's four-page PDF: status %d after %v, want 200 (read once the slow uploads released the engine)",
			w.Code, took.Round(time.Second))
	}
	wg.Wait()
}
