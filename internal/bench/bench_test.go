package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// These tests cover the benchmark's pure parts (corpus shape, statistics,
// report format) without a database; `make bench` runs the whole thing.

func TestTenantSizesZipf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ chunks, tenants int }{{1_000_000, 1000}, {20000, 200}, {3000, 30}, {10, 10}, {7, 3}} {
		sizes := tenantSizes(tc.chunks, tc.tenants, 0.2)
		if len(sizes) != tc.tenants {
			t.Fatalf("%v: %d sizes", tc, len(sizes))
		}
		sum := 0
		for i, n := range sizes {
			sum += n
			if n < 1 || (i > 0 && n > sizes[i-1]) {
				t.Fatalf("%v: size %d = %d (not ≥ 1 and non-increasing)", tc, i, n)
			}
		}
		if sum != tc.chunks {
			t.Errorf("%v: sizes sum to %d", tc, sum)
		}
		if tc.tenants >= 10 && tc.chunks > 100*tc.tenants {
			if got := float64(sizes[0]) / float64(tc.chunks); math.Abs(got-0.2) > 0.01 {
				t.Errorf("%v: largest share %.3f, want 0.2", tc, got)
			}
		}
	}
	// The full run's range: ~0.01 % to 20 %.
	sizes := tenantSizes(1_000_000, 1000, 0.2)
	if small := float64(sizes[999]) / 1e6; small < 0.00005 || small > 0.00015 {
		t.Errorf("smallest tenant of the full run holds %.5f%% of the rows, want about 0.01%%", 100*small)
	}
	if tenantSizes(5, 10, 0.2) != nil {
		t.Error("fewer chunks than tenants must give no plan")
	}
}

func TestPickClasses(t *testing.T) {
	t.Parallel()
	classes := pickClasses(tenantSizes(1_000_000, 1000, 0.2))
	var names []string
	seen := map[int]bool{}
	for _, c := range classes {
		names = append(names, c.name)
		if len(c.tenants) == 0 || len(c.tenants) > 3 {
			t.Errorf("class %s has %d tenants", c.name, len(c.tenants))
		}
		for _, tn := range c.tenants {
			if seen[tn] {
				t.Errorf("tenant %d in two classes", tn)
			}
			seen[tn] = true
		}
	}
	if want := []string{"0.01%", "0.1%", "1%", "5%", "20%"}; !reflect.DeepEqual(names, want) {
		t.Errorf("classes %v, want %v", names, want)
	}
	if classes[4].tenants[0] != 0 {
		t.Errorf("the 20%% class should start with the largest tenant, got %d", classes[4].tenants[0])
	}
}

func TestCorpusDeterministic(t *testing.T) {
	t.Parallel()
	mk := func() *gen {
		sizes := tenantSizes(1000, 10, 0.2)
		return &gen{v: newVocabulary(2000, 7), s: newSpace(16, sizes, 7), words: 20}
	}
	a, b := mk().chunks(7, 3, 0, 5), mk().chunks(7, 3, 0, 5)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed must generate the same chunks")
	}
	if c := mk().chunks(7, 3, 2, 5); !reflect.DeepEqual(c, a[2:]) {
		t.Error("a chunk must not depend on the batch it is generated in")
	}
	for _, c := range a {
		var n float64
		for _, x := range c.vector {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-4 || len(c.vector) != 16 {
			t.Errorf("vector norm² %.6f, dims %d", n, len(c.vector))
		}
		if w := len(strings.Fields(c.content)); w < 10 || w > 30 {
			t.Errorf("%d words, want 10..30", w)
		}
	}
}

func TestVocabularyZipf(t *testing.T) {
	t.Parallel()
	v := newVocabulary(5000, 1)
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[string]int{}
	for range 100000 {
		counts[v.draw(r)]++
	}
	// Zipf with s = 1: rank 1 is drawn about twice as often as rank 2 and
	// ten times as often as rank 10.
	r1, r2, r10 := float64(counts[v.words[0]]), float64(counts[v.words[1]]), float64(counts[v.words[9]])
	if q := r1 / r2; q < 1.7 || q > 2.3 {
		t.Errorf("rank 1 / rank 2 = %.2f, want ≈ 2", q)
	}
	if q := r1 / r10; q < 8 || q > 12 {
		t.Errorf("rank 1 / rank 10 = %.2f, want ≈ 10", q)
	}
	if v.words[0] != "the" {
		t.Errorf("rank 1 is %q, want a stop word", v.words[0])
	}
}

func TestSpaceNoise(t *testing.T) {
	t.Parallel()
	s := newSpace(512, []int{1000}, 3)
	r := rand.New(rand.NewPCG(3, 4))
	var sum float64
	for range 200 {
		p := s.point(r, 0)
		var dot float64
		for j := range p {
			dot += float64(p[j]) * float64(s.centers[0][j])
		}
		sum += dot
	}
	if mean := sum / 200; math.Abs(mean-noiseCosine) > 0.02 {
		t.Errorf("mean cosine to the centre %.3f, want %.2f", mean, noiseCosine)
	}
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	for p, want := range map[float64]float64{0.5: 50, 0.95: 95, 0.99: 99, 1: 100} {
		if got := percentile(xs, p); got != want {
			t.Errorf("p%.0f = %v, want %v", 100*p, got, want)
		}
	}
	if got := percentile([]float64{7}, 0.99); got != 7 {
		t.Errorf("one sample: %v", got)
	}
	l := summarize([]float64{3, 1, 2}, 2*time.Second)
	if l.P50 != 2 || l.Mean != 2 || l.QPS != 1.5 || l.N != 3 {
		t.Errorf("summarize: %+v", l)
	}
}

// TestReportJSONNames pins the JSON names that tools reading bench.json
// depend on.
func TestReportJSONNames(t *testing.T) {
	t.Parallel()
	rep := &Report{Chunks: 1, Tenants: 1, Classes: []Class{{Name: "1%", Latency: map[string]Latency{"sql_c1": {}}}}}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"chunks", "tenants", "classes", "reference_p95_ms", "speedup_vs_reference", "ingest_chunks_per_s", "server_rss_mb"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report JSON lacks %q", k)
		}
	}
	class := m["classes"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "rows_fraction", "hybrid_p50_ms", "hybrid_p95_ms", "hybrid_p99_ms", "keyword_p95_ms", "vector_recall_at_20", "real_questions"} {
		if _, ok := class[k]; !ok {
			t.Errorf("class JSON lacks %q", k)
		}
	}
}

func TestWriteFiles(t *testing.T) {
	t.Parallel()
	rep := &Report{Chunks: 100, Tenants: 2, Classes: []Class{
		{Name: "1%", HybridP50: 2, HybridP95: 3, ReferenceP95: 40, Latency: map[string]Latency{"sql_c1": {P95: 3}, "api_c8": {P95: 9}}},
		{Name: "20%", HybridP50: 5, HybridP95: 8, ReferenceP95: 900, Latency: map[string]Latency{"sql_c1": {P95: 8}, "api_c8": {P95: 20}},
			Real: RealQuestions{N: 30, MeanWords: 12.5, Keyword: Latency{P95: 41}, Hybrid: Latency{P95: 50}, Reference: Latency{P95: 5000, N: 10}, ReferenceRatio: 100}},
	}}
	rep.Classes[0].Real = RealQuestions{N: 30, MeanWords: 12.1, Keyword: Latency{P95: 4}, Hybrid: Latency{P95: 6}, Reference: Latency{P95: 60, N: 10}, ReferenceRatio: 10}
	rep.Targets = targets(rep)
	dir := t.TempDir()
	if err := WriteFiles(rep, dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.json", "report.md", "latency.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| 20% (0.000%) |") || !strings.Contains(md.String(), "**no**") ||
		!strings.Contains(md.String(), "### Real questions") || !strings.Contains(md.String(), "| 30 (12.5) | 0.0 / 41.0 / 0.0 |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

func TestWithDatabase(t *testing.T) {
	t.Parallel()
	got, err := WithDatabase("postgres://u:p@127.0.0.1:5432/ragd?sslmode=disable", "ragd_bench")
	if err != nil || got != "postgres://u:p@127.0.0.1:5432/ragd_bench?sslmode=disable" {
		t.Errorf("WithDatabase = %q, %v", got, err)
	}
	if _, err := WithDatabase("::", "x"); err == nil {
		t.Error("a bad URL must fail")
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	ok := Defaults()
	ok.AdminURL, ok.AppURL, ok.MainAdminURL = "postgres://a", "postgres://b", "postgres://c"
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mod := range map[string]func(*Config){
		"fewer chunks than tenants": func(c *Config) { c.Chunks = 5 },
		"dims":                      func(c *Config) { c.Dims = 4000 },
		"concurrency":               func(c *Config) { c.Concurrency = []int{0} },
		"storage":                   func(c *Config) { c.Storage = "toast" },
		"urls":                      func(c *Config) { c.AppURL = "" },
	} {
		c := ok
		mod(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
