package embed

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32() - 0.5
	}
	return s
}

// naiveMulAdd is the float64 reference C += A·B for row-major operands.
func naiveMulAdd(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for kk := 0; kk < k; kk++ {
				s += float64(a[i*lda+kk]) * float64(b[kk*ldb+j])
			}
			c[i*ldc+j] += float32(s)
		}
	}
}

func maxDiff(a, b []float32) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i])-float64(b[i])))
	}
	return d
}

// TestGemm checks both implementations against a float64 reference on shapes
// with partial row blocks and partial panels, including strided operands.
func TestGemm(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	shapes := []struct{ m, n, k int }{
		{1, 16, 1}, {6, 16, 4}, {7, 32, 5}, {13, 48, 64}, {100, 512, 256}, {5, 7, 3}, {17, 100, 64}, {128, 128, 128},
	}
	impls := map[string]linalg{"portable": {}}
	if haveFastKernel {
		impls["fast"] = linalg{fast: true}
	}
	for name, la := range impls {
		for _, sh := range shapes {
			lda, ldb, ldc := sh.k+3, sh.n+5, sh.n+2
			a := randSlice(r, sh.m*lda)
			b := randSlice(r, sh.k*ldb)
			c0 := randSlice(r, sh.m*ldc)
			want := append([]float32(nil), c0...)
			naiveMulAdd(sh.m, sh.n, sh.k, a, lda, b, ldb, want, ldc)
			var s gemmScratch

			got := append([]float32(nil), c0...)
			la.mulAddB(sh.m, sh.n, sh.k, a, lda, b, ldb, got, ldc, &s)
			if d := maxDiff(got, want); d > 1e-4 {
				t.Errorf("%s mulAddB %v: max diff %g", name, sh, d)
			}

			// Bᵀ stored as n rows of k values.
			bt := make([]float32, sh.n*(sh.k+1))
			for kk := 0; kk < sh.k; kk++ {
				for j := 0; j < sh.n; j++ {
					bt[j*(sh.k+1)+kk] = b[kk*ldb+j]
				}
			}
			got = append([]float32(nil), c0...)
			la.mulAddBT(sh.m, sh.n, sh.k, a, lda, bt, sh.k+1, got, ldc, &s)
			if d := maxDiff(got, want); d > 1e-4 {
				t.Errorf("%s mulAddBT %v: max diff %g", name, sh, d)
			}

			if sh.n%panelW == 0 {
				dense := make([]float32, sh.k*sh.n)
				for kk := 0; kk < sh.k; kk++ {
					copy(dense[kk*sh.n:(kk+1)*sh.n], b[kk*ldb:kk*ldb+sh.n])
				}
				w, err := la.prepare(dense, sh.k, sh.n)
				if err != nil {
					t.Fatal(err)
				}
				got = append([]float32(nil), c0...)
				la.mulAdd(sh.m, a, lda, &w, got, ldc, &s)
				if d := maxDiff(got, want); d > 1e-4 {
					t.Errorf("%s mulAdd %v: max diff %g", name, sh, d)
				}
			}
		}
	}
}

// TestKernelAsmMatchesGo compares the assembly micro-kernel with its Go twin.
func TestKernelAsmMatchesGo(t *testing.T) {
	t.Parallel()
	if !haveFastKernel {
		t.Skip("no AVX2+FMA on this CPU: the portable path is in use and covered by TestGemm")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{0, 1, 3, 4, 5, 8, 9, 256, 1537} {
		lda, ldc := k+1, panelW+3
		a := randSlice(r, tileM*lda)
		b := randSlice(r, k*panelW)
		c1 := randSlice(r, tileM*ldc)
		c2 := append([]float32(nil), c1...)
		kernel6x16(k, append(a, 0), lda, append(b, 0), c1, ldc, append(b, 0))
		kernel6x16Go(k, a, lda, b, c2, ldc)
		if d := maxDiff(c1, c2); d > 1e-4 {
			t.Errorf("k=%d: asm and Go kernels differ by %g", k, d)
		}
	}
}

func benchGemm(b *testing.B, la linalg) {
	const m, k, n = 100, 512, 1536
	r := rand.New(rand.NewPCG(5, 6))
	a, c := randSlice(r, m*k), make([]float32, m*n)
	w, err := la.prepare(randSlice(r, k*n), k, n)
	if err != nil {
		b.Fatal(err)
	}
	var s gemmScratch
	b.ResetTimer()
	for b.Loop() {
		la.mulAdd(m, a, k, &w, c, n, &s)
	}
	b.ReportMetric(2*m*k*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkGemmFast measures the packed AVX2+FMA path on a 100×512·512×1536 product.
func BenchmarkGemmFast(b *testing.B) {
	if !haveFastKernel {
		b.Skip("no AVX2+FMA")
	}
	benchGemm(b, linalg{fast: true})
}

// BenchmarkGemmPortable measures gonum's blas32.Gemm on the same product.
func BenchmarkGemmPortable(b *testing.B) { benchGemm(b, linalg{}) }

// TestWideKernelBitwise: the AVX-512 kernels give the AVX2 kernel's bits
// for every element, whatever the row count (a pass of 1..24 rows, several
// passes), depth and width (partial last panels): each element is summed in
// the same order with the same fused multiply-adds.
func TestWideKernelBitwise(t *testing.T) {
	t.Parallel()
	if !haveWideKernel {
		t.Skip("no AVX-512F on this CPU: the AVX2 kernel is in use")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, m := range []int{1, 2, 5, 6, 7, 12, 19, 20, 23, 24, 25, 47, 100, 128} {
		for _, k := range []int{1, 3, 64, 512, 1537} {
			for _, n := range []int{16, 20, 48, 515} {
				a := randSlice(r, m*k)
				b := randSlice(r, k*n)
				c0 := randSlice(r, m*n)
				narrow, wide := append([]float32(nil), c0...), append([]float32(nil), c0...)
				var s1, s2 gemmScratch
				linalg{fast: true}.mulAddB(m, n, k, a, k, b, n, narrow, n, &s1)
				linalg{fast: true, wide: true}.mulAddB(m, n, k, a, k, b, n, wide, n, &s2)
				for i := range narrow {
					if math.Float32bits(narrow[i]) != math.Float32bits(wide[i]) {
						t.Fatalf("m=%d k=%d n=%d: element %d is %v (AVX2) and %v (AVX-512)", m, k, n, i, narrow[i], wide[i])
					}
				}
			}
		}
	}
}
