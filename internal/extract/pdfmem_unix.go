//go:build unix

package extract

import (
	"sync/atomic"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// pdfMemory backs a PDFium instance's linear memory with an anonymous
// mapping of its whole limit, reserved once: growing it is a reslice, so
// the Go heap never holds a copy. With wazero's default (a Go slice grown
// by copying), a file that made PDFium grow its memory step by step to the
// limit left every smaller copy as garbage: a 300 KB Flate bomb peaked at
// 330 MiB to 1.1 GB of heap depending on when the collector ran. Pages of
// the mapping take memory only once PDFium writes them, and are returned
// when the instance closes.
func pdfMemory() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		n := min(max, uint64(pdfMemoryPages)*65536)
		b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			// No mapping to be had: a Go slice of the whole limit, still
			// grown in place.
			return &mappedMemory{buf: make([]byte, n), heap: true}
		}
		return &mappedMemory{buf: b}
	})
}

// mappedMemory is a linear memory inside one mapping; Reallocate past it
// fails (nil), as a grow past the limit does.
type mappedMemory struct {
	buf  []byte
	heap bool   // buf is a Go slice, not a mapping
	size uint64 // the length handed out
}

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	pdfLinearBytes.Add(int64(size) - int64(m.size))
	m.size = size
	return m.buf[:size:size]
}

func (m *mappedMemory) Free() {
	if m.buf != nil && !m.heap {
		_ = syscall.Munmap(m.buf)
	}
	pdfLinearBytes.Add(-int64(m.size))
	m.buf, m.size = nil, 0
}

// pdfLinearBytes is the linear memory PDFium's instances hold together.
var pdfLinearBytes atomic.Int64
