//go:build !amd64 || purego

package embed

// haveFastKernel is false off amd64 and with the purego build tag: the
// portable gonum path is used.
var haveFastKernel = false

// haveWideKernel is false here too.
var haveWideKernel = false

// kernelsAVX512 are never called here (haveWideKernel is false).
var kernelsAVX512 [wideRows]func(k int, a *float32, b *float32, c *float32, ldc int, pf *float32)

// kernel6x16 is only reached on the fast path, which is never chosen here;
// it falls back to the portable kernel for completeness (no prefetch).
func kernel6x16(k int, a []float32, lda int, b []float32, c []float32, ldc int, _ []float32) {
	kernel6x16Go(k, a, lda, b, c, ldc)
}
