//go:build !unix

package extract

import (
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// pdfLinearBytes stays 0: wazero's own allocator reports nothing.
var pdfLinearBytes atomic.Int64

// pdfMemory is wazero's default allocator where there are no anonymous
// mappings (see pdfmem_unix.go).
func pdfMemory() experimental.MemoryAllocator { return nil }
