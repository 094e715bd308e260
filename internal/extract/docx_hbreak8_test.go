package extract

import (
	"archive/zip"
	"bytes"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Found by h-break8: hostile DOCX packages of a few hundred KB that stay
// under the 64 MiB per-part limit still cost the server about a gigabyte
// of memory each (measured through POST /v1/documents/upload: VmHWM of
// ragd serve). SECURITY.md says the XML "is streamed, not built into a
// tree"; the auxiliary parts are xml.Unmarshal'ed whole, and the
// decoder's element stack grows with the nesting.

// hbreak8Peak runs f and returns the largest heap (objects) seen while it
// ran, above the live heap before: sampled every millisecond.
func hbreak8Peak(t *testing.T, f func()) uint64 {
	t.Helper()
	runtime.GC()
	// Heap objects, live and not yet swept: the process's resident memory
	// is this plus the collector's headroom (about as much again).
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// hbreak8Limit is "a few hundred MB": what one small upload may cost.
const hbreak8Limit = 300 << 20

// hbreak8DOCX writes a DOCX package whose parts are produced by writers
// (streamed into the zip: the test itself never holds the inflated part).
func hbreak8DOCX(t *testing.T, parts map[string]func(io.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, write := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		write(w)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func hbreak8Repeat(head, unit, tail string, total int) func(io.Writer) {
	return func(w io.Writer) {
		io.WriteString(w, head)
		block := []byte(strings.Repeat(unit, max(1, (1<<20)/len(unit))))
		for n := 0; n < total; n += len(block) {
			w.Write(block)
		}
		io.WriteString(w, tail)
	}
}

const hbreak8Doc = `<?xml version="1.0"?><w:document xmlns:w="` + wNS + `"><w:body>`

// TestHBreak8DOCXAuxiliaryPartsBoundedMemory: a 450 KB DOCX with one line
// of text and styles.xml, numbering.xml and docProps/core.xml of 60 MiB
// each (under the per-part limit) took ragd serve to 1.04 GB (VmHWM) and
// 9.5 s; six such uploads at once, 3.5 GB and 43 s each. The styles and
// numbering are xml.Unmarshal'ed whole into a million-entry slice and map.
// One document's extraction should stay within a few hundred MB.
func TestHBreak8DOCXAuxiliaryPartsBoundedMemory(t *testing.T) {
	data := hbreak8DOCX(t, map[string]func(io.Writer){
		"word/document.xml": func(w io.Writer) {
			io.WriteString(w, hbreak8Doc+`<w:p><w:r><w:t>hello world</w:t></w:r></w:p></w:body></w:document>`)
		},
		"word/styles.xml": hbreak8Repeat(`<?xml version="1.0"?><w:styles xmlns:w="`+wNS+`">`,
			`<w:style w:styleId="x"><w:name w:val="heading 1"/></w:style>`, `</w:styles>`, 60<<20),
		"word/numbering.xml": hbreak8Repeat(`<?xml version="1.0"?><w:numbering xmlns:w="`+wNS+`">`,
			`<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>`, `</w:numbering>`, 60<<20),
		"docProps/core.xml": hbreak8Repeat(`<x>`, ` `, `</x>`, 60<<20),
	})
	t.Logf("package: %d bytes", len(data))
	var err error
	start := time.Now()
	peak := hbreak8Peak(t, func() { _, err = Extract(TypeDOCX, data) })
	t.Logf("peak heap %d MiB, %v, err %v", peak>>20, time.Since(start), err)
	if peak > hbreak8Limit {
		t.Errorf("a %d KB DOCX with one line of text took %d MiB of heap to extract (limit %d MiB)", len(data)>>10, peak>>20, hbreak8Limit>>20)
	}
}

// TestHBreak8DOCXNestedTablesBoundedMemory: a 100 KB DOCX of a million
// nested tables (43 MB of document.xml, under the part limit) took ragd
// serve from 270 MB to 804 MB. It should be refused (too deep) or read
// within a few hundred MB.
func TestHBreak8DOCXNestedTablesBoundedMemory(t *testing.T) {
	const n = 1_000_000
	data := hbreak8DOCX(t, map[string]func(io.Writer){
		"word/document.xml": func(w io.Writer) {
			io.WriteString(w, hbreak8Doc)
			io.WriteString(w, strings.Repeat(`<w:tbl><w:tr><w:tc>`, n))
			io.WriteString(w, `<w:p><w:r><w:t>deep cell text</w:t></w:r></w:p>`)
			io.WriteString(w, strings.Repeat(`</w:tc></w:tr></w:tbl>`, n))
			io.WriteString(w, `<w:p><w:r><w:t>after</w:t></w:r></w:p></w:body></w:document>`)
		},
	})
	var err error
	peak := hbreak8Peak(t, func() { _, err = Extract(TypeDOCX, data) })
	t.Logf("package %d bytes: peak heap %d MiB, err %v", len(data), peak>>20, err)
	if peak > hbreak8Limit {
		t.Errorf("a %d KB DOCX of nested tables took %d MiB of heap to extract (limit %d MiB)", len(data)>>10, peak>>20, hbreak8Limit>>20)
	}
}
