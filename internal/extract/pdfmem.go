package extract

import (
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// pdfMemory backs a PDFium instance's linear memory with one slice of its
// whole limit, allocated when the instance starts: growing it is a
// reslice, never a copy. With wazero's default (a slice grown by copying),
// a file that made PDFium grow its memory step by step to the limit left
// every smaller copy as garbage: a 300 KB Flate bomb peaked at 330 MiB to
// 1.1 GB of heap depending on when the collector ran. A large slice comes
// zeroed from the operating system and takes memory as PDFium writes it.
// It is a Go slice, not a mapping of its own, so that an instance killed
// while its code still runs (a cancelled read) keeps valid memory until
// the collector finds it unused: unmapping it then crashed the server.
func pdfMemory() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		return &linearMemory{buf: make([]byte, min(max, uint64(pdfMemoryPages)*65536))}
	})
}

// linearMemory is a linear memory inside one slice; Reallocate past it
// fails (nil), as a grow past the limit does. mu orders a grow by PDFium's
// code with Free by a kill from another goroutine (a read past its
// deadline is killed while it runs): the race detector caught the two
// writing buf and size at once.
type linearMemory struct {
	mu   sync.Mutex
	buf  []byte
	size uint64 // the length handed out
}

func (m *linearMemory) Reallocate(size uint64) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if size > uint64(len(m.buf)) {
		return nil
	}
	pdfLinearBytes.Add(int64(size) - int64(m.size))
	m.size = size
	return m.buf[:size:size]
}

func (m *linearMemory) Free() {
	m.mu.Lock()
	defer m.mu.Unlock()
	pdfLinearBytes.Add(-int64(m.size))
	m.buf, m.size = nil, 0
}

// pdfLinearBytes is the linear memory PDFium's instances hold together.
var pdfLinearBytes atomic.Int64
