package extract

import (
	"context"
	"testing"
	"time"
)

// TestPDFCancelledReadDoesNotCrash_hreview12: a request whose context ends
// while PDFium is reading kills the instance (readPDF's kill: inst.Kill()
// cancels the worker and closes the module at once). wazero frees the
// module's memory on that Close; with pdfMemory's allocator, Free is
// munmap, while the WebAssembly code (and memmove called from it) is still
// running on the reading goroutine until it notices the close. It then
// writes to the unmapped pages: "unexpected fault address … fatal error:
// fault [signal SIGSEGV]", and the whole process (ragd serve, every
// tenant's requests) dies. With wazero's Go-slice memory the running code
// kept its slice alive. A client that disconnects during an upload must
// not take the server down. (The crash comes within the first few
// cancellations here; the test asserts nothing about time, only that the
// process survives.)
func TestPDFCancelledReadDoesNotCrash_hreview12(t *testing.T) {
	if err := PreparePDF(); err != nil {
		t.Fatal(err)
	}
	data := hbreak8FlateBomb(t, 100)
	for i := 0; i < 60; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(time.Duration(1+i%30) * time.Millisecond)
			cancel()
		}()
		_, _ = ExtractContext(ctx, TypePDF, data)
		cancel()
	}
}
