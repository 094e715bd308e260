//go:build amd64 && !purego

package embed

//go:generate go run gen_avx512.go

// haveFastKernel reports whether the AVX2+FMA micro-kernel can run: the CPU
// has AVX, AVX2 and FMA and the OS saves the YMM registers (XCR0 bits 1, 2).
var haveFastKernel = detectAVX2FMA()

// haveWideKernel reports whether the AVX-512 kernels can run as well: the
// CPU has AVX-512F and the OS saves the opmask and all 32 ZMM registers
// (XCR0 bits 5, 6, 7).
var haveWideKernel = haveFastKernel && detectAVX512F()

func detectAVX512F() bool {
	_, ebx7, _, _ := cpuid(7, 0)
	const avx512f = 1 << 16
	if ebx7&avx512f == 0 {
		return false
	}
	xcr0, _ := xgetbv()
	return xcr0&0xe6 == 0xe6
}

func detectAVX2FMA() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&fma == 0 || ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2 = 1 << 5
	return ebx7&avx2 != 0
}

// cpuid executes CPUID with the given EAX and ECX inputs.
//
//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads XCR0.
//
//go:noescape
func xgetbv() (eax, edx uint32)

// kernel6x16AVX2 computes C[0:6][0:16] += A[0:6][0:k]·B[0:k][0:16] for B
// packed as k rows of 16 contiguous floats; lda and ldc are in elements.
// While it runs it prefetches k cache lines from pf into L2 (one per k
// step): the caller's next panel. Prefetching changes no arithmetic.
//
//go:noescape
func kernel6x16AVX2(k int, a *float32, lda int, b *float32, c *float32, ldc int, pf *float32)

// kernel6x16 dispatches to the assembly kernel. Callers (panelMulAdd)
// guarantee that rows 0..5 of a hold k values, rows 0..5 of c hold 16, and
// pf holds k·16 values (the panel to prefetch).
func kernel6x16(k int, a []float32, lda int, b []float32, c []float32, ldc int, pf []float32) {
	if k == 0 {
		return
	}
	if !haveFastKernel {
		kernel6x16Go(k, a, lda, b, c, ldc)
		return
	}
	// Bounds are the caller's contract; check the extremes cheaply so a bug
	// panics instead of corrupting memory.
	_ = a[(tileM-1)*lda+k-1]
	_ = b[k*panelW-1]
	_ = c[(tileM-1)*ldc+panelW-1]
	_ = pf[k*panelW-1]
	kernel6x16AVX2(k, &a[0], lda, &b[0], &c[0], ldc, &pf[0])
}
