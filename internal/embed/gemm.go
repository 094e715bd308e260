package embed

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// Matrix products for the use-lite forward pass.
//
// Every product the model needs has the form C[m×n] += A[m×k]·B with A and C
// row-major float32 slices (a leading dimension each) and B either a weight
// (fixed at load time) or a slice of the attention activations. Two
// implementations exist:
//
//   - fast (amd64 with AVX2+FMA): B is packed into panels of panelW columns,
//     [n/panelW][k][panelW], and a 6×16 assembly micro-kernel (gemm_amd64.s)
//     accumulates one 6-row by 16-column tile of C at a time in 12 YMM
//     registers: about 90 GFLOP/s per core on the 2-core CI machine.
//   - wide (amd64 with AVX-512F as well): the same packed panels, and one
//     generated kernel per row count up to wideRows (gemm_avx512_amd64.s,
//     gen_avx512.go) with one ZMM accumulator per row, so a product's rows
//     go through each panel in one pass and none is zero padded. Bit for
//     bit the fast path's results (panelMulAddWide).
//   - portable: gonum's blas32.Gemm on row-major B (about 12 GFLOP/s per core
//     there, about 14 passages/s end to end: below the 40/s target; see
//     doc.go). Used off amd64, without AVX2+FMA, and with the purego tag.
//
// The two agree to float32 rounding (different summation order only); the
// tests run the reference parity check on both.

const (
	tileM  = 6  // rows of C per micro-kernel call
	panelW = 16 // columns of C per micro-kernel call (two YMM registers)
)

// linalg selects the matmul implementation; the zero value is the portable one.
type linalg struct {
	fast bool // use the packed-panel assembly kernel
	// wide uses the AVX-512 kernels (with fast): all of a product's rows,
	// up to wideRows at a time, in one pass over each panel.
	wide bool
}

// weight is a k×n right operand fixed at load time, stored in the layout the
// chosen implementation wants.
type weight struct {
	k, n int
	data []float32 // fast: packed panels [n/panelW][k][panelW]; portable: row-major k×n
}

// gemmScratch holds the per-worker temporaries of the fast path.
type gemmScratch struct {
	tailA []float32 // tileM rows of A, zero padded, for the last partial row block
	tile  [tileM * panelW]float32
	pack  []float32 // on-the-fly packed B for attention products
	// wideA is A packed for the wide kernels: each pass of up to wideRows
	// rows as k rows of its row count; wideTile takes a partial panel.
	wideA    []float32
	wideTile [wideRows * panelW]float32
}

// prepare converts a row-major k×n weight into the layout of la.
func (la linalg) prepare(w []float32, k, n int) (weight, error) {
	if len(w) != k*n {
		return weight{}, fmt.Errorf("weight: have %d values, want %d×%d", len(w), k, n)
	}
	if !la.fast {
		return weight{k: k, n: n, data: w}, nil
	}
	if n%panelW != 0 {
		return weight{}, fmt.Errorf("weight: %d columns is not a multiple of %d", n, panelW)
	}
	p := make([]float32, k*n)
	packPanels(p, w, n, k, n, false)
	return weight{k: k, n: n, data: p}, nil
}

// packPanels writes B (k×n, or its transpose when trans is set, with leading
// dimension ldb) into dst as panels [ceil(n/panelW)][k][panelW], zero padding
// the columns of the last panel. With trans, b holds n rows of k values (B^T).
func packPanels(dst, b []float32, ldb, k, n int, trans bool) {
	np := (n + panelW - 1) / panelW
	for p := 0; p < np; p++ {
		j0 := p * panelW
		w := min(panelW, n-j0)
		pan := dst[p*k*panelW : (p+1)*k*panelW]
		if !trans {
			for kk := 0; kk < k; kk++ {
				row := pan[kk*panelW : kk*panelW+panelW]
				copy(row, b[kk*ldb+j0:kk*ldb+j0+w])
				clear(row[w:])
			}
			continue
		}
		for j := 0; j < w; j++ {
			src := b[(j0+j)*ldb : (j0+j)*ldb+k]
			for kk, v := range src {
				pan[kk*panelW+j] = v
			}
		}
		for j := w; j < panelW; j++ {
			for kk := 0; kk < k; kk++ {
				pan[kk*panelW+j] = 0
			}
		}
	}
}

// mulAdd computes C[m×w.n] += A[m×w.k]·W.
func (la linalg) mulAdd(m int, a []float32, lda int, w *weight, c []float32, ldc int, s *gemmScratch) {
	if m == 0 {
		return
	}
	if !la.fast {
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas32.General{Rows: m, Cols: w.k, Stride: lda, Data: a},
			blas32.General{Rows: w.k, Cols: w.n, Stride: w.n, Data: w.data},
			1, blas32.General{Rows: m, Cols: w.n, Stride: ldc, Data: c})
		return
	}
	la.panels(m, w.k, w.n, a, lda, w.data, c, ldc, s)
}

// panels runs C[m×n] += A[m×k]·B for B packed by packPanels on the
// chosen kernels.
func (la linalg) panels(m, k, n int, a []float32, lda int, bp []float32, c []float32, ldc int, s *gemmScratch) {
	if la.wide {
		panelMulAddWide(m, k, n, a, lda, bp, c, ldc, s)
		return
	}
	panelMulAdd(m, k, n, a, lda, bp, c, ldc, s)
}

// mulAddBT computes C[m×n] += A[m×k]·Bᵀ where b holds B as n rows of k values
// with leading dimension ldb (attention scores Q·Kᵀ).
func (la linalg) mulAddBT(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, s *gemmScratch) {
	if m == 0 || n == 0 {
		return
	}
	if !la.fast {
		blas32.Gemm(blas.NoTrans, blas.Trans, 1,
			blas32.General{Rows: m, Cols: k, Stride: lda, Data: a},
			blas32.General{Rows: n, Cols: k, Stride: ldb, Data: b},
			1, blas32.General{Rows: m, Cols: n, Stride: ldc, Data: c})
		return
	}
	pk := s.packBuf(k, n)
	packPanels(pk, b, ldb, k, n, true)
	la.panels(m, k, n, a, lda, pk, c, ldc, s)
}

// mulAddB computes C[m×n] += A[m×k]·B where b holds B as k rows of n values
// with leading dimension ldb (attention output P·V).
func (la linalg) mulAddB(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, s *gemmScratch) {
	if m == 0 || n == 0 {
		return
	}
	if !la.fast {
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas32.General{Rows: m, Cols: k, Stride: lda, Data: a},
			blas32.General{Rows: k, Cols: n, Stride: ldb, Data: b},
			1, blas32.General{Rows: m, Cols: n, Stride: ldc, Data: c})
		return
	}
	pk := s.packBuf(k, n)
	packPanels(pk, b, ldb, k, n, false)
	la.panels(m, k, n, a, lda, pk, c, ldc, s)
}

// packBuf returns a buffer for k×n packed into panels, growing it if needed.
func (s *gemmScratch) packBuf(k, n int) []float32 {
	sz := k * ((n + panelW - 1) / panelW) * panelW
	if cap(s.pack) < sz {
		s.pack = make([]float32, sz)
	}
	return s.pack[:sz]
}

// panelMulAdd computes C[m×n] += A[m×k]·B for B packed by packPanels. Full
// 6×16 tiles go straight to the kernel; the last partial row block and the
// last partial panel go through zero-padded temporaries, so no access leaves
// the m×n (resp. m×k) regions of c and a.
//
// Each panel is read from memory once and then reused from cache by the
// panel's other row blocks. For a question (about 20 tokens: four row
// blocks) the first block of each panel used to wait on memory: the
// weights (21 MB) do not stay in cache between searches, and one core
// streams about 12 GB/s here, less than the kernel consumes. So every
// kernel call prefetches the next panel into L2 while it computes on this
// one. Measured (BenchmarkLocalEmbedQuestion, the manual's questions one at
// a time, quiet machine): 3.2–3.6 ms a question before, 2.7–2.8 ms after;
// a 20×512·512×1536 product with its weights out of cache 58 → 73 GFLOP/s.
func panelMulAdd(m, k, n int, a []float32, lda int, bp []float32, c []float32, ldc int, s *gemmScratch) {
	np := (n + panelW - 1) / panelW
	if m < 1 || n < 1 || lda < k || ldc < n || len(a) < (m-1)*lda+k || len(c) < (m-1)*ldc+n || len(bp) < np*k*panelW {
		panic(fmt.Sprintf("embed: panelMulAdd bounds: m=%d n=%d k=%d lda=%d ldc=%d len(a)=%d len(c)=%d len(b)=%d",
			m, n, k, lda, ldc, len(a), len(c), len(bp)))
	}
	if k == 0 {
		return
	}
	mFull := m - m%tileM
	var tail []float32
	if mFull < m {
		need := tileM * k
		if cap(s.tailA) < need {
			s.tailA = make([]float32, need)
		}
		tail = s.tailA[:need]
		clear(tail)
		for r := mFull; r < m; r++ {
			copy(tail[(r-mFull)*k:(r-mFull+1)*k], a[r*lda:r*lda+k])
		}
	}
	for p := 0; p < np; p++ {
		j0 := p * panelW
		w := min(panelW, n-j0)
		b := bp[p*k*panelW : (p+1)*k*panelW]
		pf := b
		if p+1 < np {
			pf = bp[(p+1)*k*panelW : (p+2)*k*panelW]
		}
		for i := 0; i < mFull; i += tileM {
			if w == panelW {
				kernel6x16(k, a[i*lda:], lda, b, c[i*ldc+j0:], ldc, pf)
				continue
			}
			clear(s.tile[:])
			kernel6x16(k, a[i*lda:], lda, b, s.tile[:], panelW, pf)
			addTile(c[i*ldc+j0:], ldc, s.tile[:], tileM, w)
		}
		if tail != nil {
			clear(s.tile[:])
			kernel6x16(k, tail, k, b, s.tile[:], panelW, pf)
			addTile(c[mFull*ldc+j0:], ldc, s.tile[:], m-mFull, w)
		}
	}
}

// addTile adds the top-left rows×cols of a tileM×panelW tile into c.
func addTile(c []float32, ldc int, tile []float32, rows, cols int) {
	for r := 0; r < rows; r++ {
		dst := c[r*ldc : r*ldc+cols]
		src := tile[r*panelW : r*panelW+cols]
		for j := range dst {
			dst[j] += src[j]
		}
	}
}

// kernel6x16Go is the portable reference of the micro-kernel:
// C[0:6][0:16] += A[0:6][0:k]·Bpanel[0:k][0:16]. The fast path uses the
// assembly version; tests compare the two.
func kernel6x16Go(k int, a []float32, lda int, b []float32, c []float32, ldc int) {
	var acc [tileM][panelW]float32
	for kk := 0; kk < k; kk++ {
		brow := b[kk*panelW : kk*panelW+panelW]
		for r := 0; r < tileM; r++ {
			x := a[r*lda+kk]
			for j, bv := range brow {
				acc[r][j] += x * bv
			}
		}
	}
	for r := 0; r < tileM; r++ {
		row := c[r*ldc : r*ldc+panelW]
		for j := range row {
			row[j] += acc[r][j]
		}
	}
}

// wideRows is the most rows one wide kernel call takes (one ZMM accumulator
// per row, Z0..Z23; Z31 holds the panel's row).
const wideRows = 24

// panelMulAddWide is panelMulAdd on the AVX-512 kernels (kernelsAVX512): the
// rows go in passes of up to wideRows, each a kernel of exactly its row
// count, so a question of 20 tokens computes 20 rows (panelMulAdd computes
// 24: its last row block is zero padded) and reads each panel once. Every
// element of C gets the same operations in the same order as on the AVX2
// kernel (an accumulator from zero, one fused multiply-add per k in order,
// then added to C), so the two give the same bits (TestWideKernelBitwise).
func panelMulAddWide(m, k, n int, a []float32, lda int, bp []float32, c []float32, ldc int, s *gemmScratch) {
	np := (n + panelW - 1) / panelW
	if m < 1 || n < 1 || lda < k || ldc < n || len(a) < (m-1)*lda+k || len(c) < (m-1)*ldc+n || len(bp) < np*k*panelW {
		panic(fmt.Sprintf("embed: panelMulAddWide bounds: m=%d n=%d k=%d lda=%d ldc=%d len(a)=%d len(c)=%d len(b)=%d",
			m, n, k, lda, ldc, len(a), len(c), len(bp)))
	}
	if k == 0 {
		return
	}
	if cap(s.wideA) < m*k {
		s.wideA = make([]float32, m*k)
	}
	ap := s.wideA[:m*k]
	// Pass i0 (rows i0..i0+r) is stored at ap[i0*k:], k rows of r values.
	for i0 := 0; i0 < m; i0 += wideRows {
		r := min(wideRows, m-i0)
		dst := ap[i0*k : (i0+r)*k]
		for rr := 0; rr < r; rr++ {
			row := a[(i0+rr)*lda : (i0+rr)*lda+k]
			for kk, v := range row {
				dst[kk*r+rr] = v
			}
		}
	}
	for p := 0; p < np; p++ {
		j0 := p * panelW
		w := min(panelW, n-j0)
		b := bp[p*k*panelW : (p+1)*k*panelW]
		pf := b
		if p+1 < np {
			pf = bp[(p+1)*k*panelW : (p+2)*k*panelW]
		}
		for i0 := 0; i0 < m; i0 += wideRows {
			r := min(wideRows, m-i0)
			kern := kernelsAVX512[r-1]
			if w == panelW {
				_ = c[(i0+r-1)*ldc+j0+panelW-1]
				kern(k, &ap[i0*k], &b[0], &c[i0*ldc+j0], ldc, &pf[0])
				continue
			}
			tile := s.wideTile[:r*panelW]
			clear(tile)
			kern(k, &ap[i0*k], &b[0], &tile[0], panelW, &pf[0])
			addTile(c[i0*ldc+j0:], ldc, tile, r, w)
		}
	}
}
