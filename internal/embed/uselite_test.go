package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The model files are not in the repository; CI fetches them with
// `make setup` (scripts/fetch-model.sh). A missing model fails the tests, it
// does not skip them.

var (
	localOnce sync.Once
	localErr  error
	local     *Local
)

func modelDir() string { return DefaultModelDir(os.Getenv) }

// setupLocal returns the package-wide Local on the default (fastest) path.
func setupLocal(t testing.TB) *Local {
	t.Helper()
	localOnce.Do(func() { local, localErr = NewLocal(modelDir()) })
	if localErr != nil {
		t.Fatalf("use-lite model not loadable from %s: %v\nrun `make setup` (or scripts/fetch-model.sh) to fetch it", modelDir(), localErr)
	}
	return local
}

type referenceCase struct {
	Text      string    `json:"text"`
	TokenIDs  []int     `json:"token_ids"`
	Embedding []float32 `json:"embedding"`
}

func loadReference(t testing.TB) []referenceCase {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Dims  int             `json:"dims"`
		Cases []referenceCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if ref.Dims != LocalDims || len(ref.Cases) == 0 {
		t.Fatalf("reference.json: dims %d, %d cases", ref.Dims, len(ref.Cases))
	}
	return ref.Cases
}

// TestLocalParity checks token ids exactly and every vector component to
// 1e-5 against TF.js, on the fast path and (if different) the portable one.
//
// The empty string: reference.json holds a vector for it, the graph's output
// for zero tokens, which is normalize(tanh(b)) of the final layer's bias for
// every empty input. That vector means nothing, so Embed returns
// ErrEmptyInput; the test checks both the error and that the raw forward
// pass on zero tokens reproduces the TF.js vector (so the decision is a
// choice, not a gap in the port).
func TestLocalParity(t *testing.T) {
	t.Parallel()
	fast := setupLocal(t)
	cases := loadReference(t)
	impls := []*Local{fast}
	if fast.la.fast {
		portable, err := newLocal(modelDir(), linalg{})
		if err != nil {
			t.Fatal(err)
		}
		impls = append(impls, portable)
	}
	for _, l := range impls {
		name := "portable"
		if l.la.fast {
			name = "fast"
		}
		t.Run(name, func(t *testing.T) {
			var texts []string
			var want []referenceCase
			for _, c := range cases {
				if got := l.Tokenize(c.Text); !slices.Equal(got, c.TokenIDs) && !(len(got) == 0 && len(c.TokenIDs) == 0) {
					t.Errorf("Tokenize(%.40q):\n got %v\nwant %v", c.Text, got, c.TokenIDs)
				}
				if c.Text == "" {
					if _, err := l.Embed(context.Background(), []string{c.Text}); !errors.Is(err, ErrEmptyInput) {
						t.Errorf("Embed(\"\") error = %v, want ErrEmptyInput", err)
					}
					raw := make([]float32, LocalDims)
					l.m.forward(l.la, nil, newScratch(l.m), raw)
					if d := maxAbsDiff(raw, c.Embedding); d > 1e-5 {
						t.Errorf("forward(no tokens) differs from TF.js's empty-string vector by %g", d)
					}
					continue
				}
				texts = append(texts, c.Text)
				want = append(want, c)
			}
			got, err := l.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			var worst float64
			for i, c := range want {
				d := maxAbsDiff(got[i], c.Embedding)
				worst = max(worst, d)
				if d > 1e-5 {
					t.Errorf("Embed(%.40q): max abs diff %g > 1e-5", c.Text, d)
				}
				if n := l2(got[i]); math.Abs(n-1) > 1e-5 {
					t.Errorf("Embed(%.40q): norm %g", c.Text, n)
				}
			}
			t.Logf("%s: %d texts, max abs error vs TF.js %.3g", name, len(want), worst)
		})
	}
}

func maxAbsDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var d float64
	for i := range a {
		d = max(d, math.Abs(float64(a[i])-float64(b[i])))
	}
	return d
}

func l2(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestParaphraseFAQ checks retrieval quality on questions that share no key
// words with their answers: at least 10 of 12 must rank the right passage
// first (USE-lite in TF.js gets 10; word overlap gets 1).
func TestParaphraseFAQ(t *testing.T) {
	t.Parallel()
	l := setupLocal(t)
	b, err := os.ReadFile("testdata/paraphrase-faq.json")
	if err != nil {
		t.Fatal(err)
	}
	var faq struct {
		Passages []string `json:"passages"`
		Queries  [][2]any `json:"queries"`
	}
	if err := json.Unmarshal(b, &faq); err != nil {
		t.Fatal(err)
	}
	pv, err := l.Embed(context.Background(), faq.Passages)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for _, q := range faq.Queries {
		text, want := q[0].(string), int(q[1].(float64))
		qv, err := l.Embed(context.Background(), []string{text})
		if err != nil {
			t.Fatal(err)
		}
		bestI, bestS := -1, math.Inf(-1)
		for i, p := range pv {
			if s := dot(qv[0], p); s > bestS {
				bestI, bestS = i, s
			}
		}
		if bestI == want {
			right++
		} else {
			t.Logf("miss: %q ranks %q first (%.3f) instead of %q (%.3f)",
				text, faq.Passages[bestI], bestS, faq.Passages[want], dot(qv[0], pv[want]))
		}
	}
	t.Logf("paraphrase FAQ: %d of %d questions rank the right passage first", right, len(faq.Queries))
	if right < 10 {
		t.Errorf("only %d of %d questions rank the right passage first, want >= 10", right, len(faq.Queries))
	}
}

// TestLocalConcurrent embeds the same texts from several goroutines at once
// (each call also fans out over the cores) and requires bit-identical vectors.
func TestLocalConcurrent(t *testing.T) {
	t.Parallel()
	l := setupLocal(t)
	var texts []string
	for _, c := range loadReference(t) {
		if c.Text != "" {
			texts = append(texts, c.Text)
		}
	}
	want, err := l.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	const goroutines = 6
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			// Rotate the order so different goroutines hit different texts at once.
			rot := append(slices.Clone(texts[g:]), texts[:g]...)
			got, err := l.Embed(context.Background(), rot)
			if err != nil {
				errs <- err
				return
			}
			for i := range rot {
				if !slices.Equal(got[i], want[(i+g)%len(texts)]) {
					errs <- fmt.Errorf("goroutine %d: vector for %.30q differs", g, rot[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestLocalEmbedErrors(t *testing.T) {
	t.Parallel()
	l := setupLocal(t)
	if _, err := l.Embed(context.Background(), []string{"fine", ""}); !errors.Is(err, ErrEmptyInput) {
		t.Errorf("Embed with an empty text: error = %v, want ErrEmptyInput", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Embed(ctx, []string{"a", "b"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a canceled context: error = %v, want context.Canceled", err)
	}
	if got, err := l.Embed(context.Background(), nil); err != nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want no vectors, no error", got, err)
	}
	if l.Model() != "use-lite" || l.Dims() != 512 {
		t.Errorf("Model, Dims = %q, %d", l.Model(), l.Dims())
	}
}

// TestLocalTruncation checks that only the first MaxTokens tokens count.
func TestLocalTruncation(t *testing.T) {
	t.Parallel()
	l := setupLocal(t)
	long := strings.Repeat("token ", 200)
	if n := l.CountTokens(long); n <= MaxTokens {
		t.Fatalf("CountTokens(long) = %d, want > %d", n, MaxTokens)
	}
	cut := strings.Repeat("token ", 140) + "entirely different words at the end"
	v, err := l.Embed(context.Background(), []string{long, cut})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v[0], v[1]) {
		t.Error("texts that agree on their first MaxTokens tokens got different vectors")
	}
}

func TestNewLocalMissing(t *testing.T) {
	t.Parallel()
	_, err := NewLocal(t.TempDir())
	if !errors.Is(err, ErrModelMissing) {
		t.Fatalf("NewLocal(empty dir) error = %v, want ErrModelMissing", err)
	}
	if !strings.Contains(err.Error(), "make setup") || !strings.Contains(err.Error(), "fetch-model.sh") {
		t.Errorf("error %q does not say how to fetch the model", err)
	}
}

func TestDefaultModelDir(t *testing.T) {
	t.Parallel()
	env := map[string]string{"HOME": "/home/u"}
	if got := DefaultModelDir(func(k string) string { return env[k] }); got != "/home/u/.cache/ragd/models/use-lite" {
		t.Errorf("DefaultModelDir = %q", got)
	}
	env["RAGD_MODEL_DIR"] = "/models/use"
	if got := DefaultModelDir(func(k string) string { return env[k] }); got != "/models/use" {
		t.Errorf("DefaultModelDir with RAGD_MODEL_DIR = %q", got)
	}
}

// passages100 returns n distinct passages of exactly 100 tokens each.
func passages100(tb testing.TB, l *Local, n int) []string {
	tb.Helper()
	words := strings.Fields(`Refunds are issued within five to ten business days after the
	request is approved by our billing team. The API rate limit is one hundred requests
	per minute for every key, and bursts above that are rejected with a clear error.
	You can reset your password from the account settings page at any time. Our office
	is closed on public holidays and weekends, but the status page is always updated.
	Invoices are emailed at the start of each billing cycle and can be downloaded later.
	Orders ship from our warehouse within two days, tracking numbers follow by email.
	Two-factor authentication can be enabled under security preferences for every user.`)
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		var b []string
		for j := i; ; j++ {
			b = append(b, words[(j*7+i)%len(words)])
			if l.CountTokens(strings.Join(b, " ")) >= 100 {
				break
			}
		}
		for l.CountTokens(strings.Join(b, " ")) > 100 {
			b = b[:len(b)-1]
		}
		for l.CountTokens(strings.Join(b, " ")) < 100 {
			b = append(b, "the")
		}
		out = append(out, strings.Join(b, " "))
	}
	return out
}

// BenchmarkLocalEmbed100Tokens embeds batches of 16 passages of 100 tokens
// and reports passages/s (all cores: one worker per core).
func BenchmarkLocalEmbed100Tokens(b *testing.B) {
	l := setupLocal(b)
	batch := passages100(b, l, 16)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := l.Embed(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(batch)*b.N)/b.Elapsed().Seconds(), "passages/s")
}

// BenchmarkPortableEmbed100Tokens is BenchmarkLocalEmbed100Tokens on the
// portable gonum path that CPUs without AVX2+FMA (and non-amd64) use.
func BenchmarkPortableEmbed100Tokens(b *testing.B) {
	l, err := newLocal(modelDir(), linalg{})
	if err != nil {
		b.Fatal(err)
	}
	batch := passages100(b, l, 16)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := l.Embed(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(batch)*b.N)/b.Elapsed().Seconds(), "passages/s")
}

// BenchmarkTokenize tokenizes 100-token passages; reports bytes/s and tokens/s.
func BenchmarkTokenize(b *testing.B) {
	l := setupLocal(b)
	ps := passages100(b, l, 16)
	var bytes int
	for _, p := range ps {
		bytes += len(p)
	}
	b.SetBytes(int64(bytes / len(ps)))
	b.ResetTimer()
	i := 0
	for b.Loop() {
		l.Tokenize(ps[i%len(ps)])
		i++
	}
	b.ReportMetric(100*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkNewLocal measures loading the model (read, parse, pack weights).
func BenchmarkNewLocal(b *testing.B) {
	setupLocal(b)
	for b.Loop() {
		if _, err := NewLocal(modelDir()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLocalScripts pins why USE-lite declares Latin only: unrelated Chinese
// and Japanese sentences tokenize to [▁, unknown] and get one and the same
// vector, while unrelated English sentences do not.
func TestLocalScripts(t *testing.T) {
	t.Parallel()
	l := setupLocal(t)
	if !Represents(l, "Latin") || Represents(l, "Han") || Represents(l, "Hiragana") || Represents(l, "Hangul") {
		t.Fatalf("Scripts() = %v, want Latin only", l.Scripts())
	}
	pairs := [][2]string{
		{"连接池在应用程序与数据库之间复用连接", "东京的樱花每年春天在公园里盛开"},
		{"データベースの接続プールを設定する方法", "明日の東京の天気は雨になるでしょう"},
		{"How do I configure the connection pool", "Cherry blossoms bloom in the park every spring"},
	}
	for i, p := range pairs {
		v, err := l.Embed(context.Background(), p[:])
		if err != nil {
			t.Fatal(err)
		}
		d := 1 - dot(v[0], v[1])
		if cjk := i < 2; cjk != (d < 1e-6) {
			t.Errorf("cosine distance(%q, %q) = %.4f", p[0], p[1], d)
		}
	}
}

// evalQuestions returns the questions of the manual's evaluation set
// (tenants/pgdocs/eval.jsonl): real questions of the lengths search embeds.
func evalQuestions(tb testing.TB) []string {
	tb.Helper()
	raw, err := os.ReadFile("../../tenants/pgdocs/eval.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	var qs []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var q struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			tb.Fatal(err)
		}
		qs = append(qs, q.Question)
	}
	return qs
}

// BenchmarkLocalEmbedQuestion embeds the manual's evaluation questions one
// call each, as a search does, on one goroutine; reports questions/s and
// the mean tokens per question.
func BenchmarkLocalEmbedQuestion(b *testing.B) { benchQuestions(b, setupLocal(b)) }

// BenchmarkLocalEmbedQuestionAVX2 is BenchmarkLocalEmbedQuestion on the
// AVX2 kernel on a CPU that has AVX-512 (the comparison for the wide kernels).
func BenchmarkLocalEmbedQuestionAVX2(b *testing.B) {
	if !haveWideKernel {
		b.Skip("no AVX-512F: BenchmarkLocalEmbedQuestion runs the AVX2 kernel")
	}
	l, err := newLocal(modelDir(), linalg{fast: true})
	if err != nil {
		b.Fatal(err)
	}
	benchQuestions(b, l)
}

func benchQuestions(b *testing.B, l *Local) {
	qs := evalQuestions(b)
	tokens := 0
	for _, q := range qs {
		tokens += min(MaxTokens, l.CountTokens(q))
	}
	ctx := context.Background()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := l.Embed(ctx, qs[i%len(qs):i%len(qs)+1]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "questions/s")
	b.ReportMetric(float64(tokens)/float64(len(qs)), "tokens/question")
}

// TestWideEmbeddingsBitwise: the manual's questions get the same vectors,
// bit for bit, on the AVX-512 kernels as on the AVX2 kernel.
func TestWideEmbeddingsBitwise(t *testing.T) {
	if !haveWideKernel {
		t.Skip("no AVX-512F on this CPU: the AVX2 kernel is in use")
	}
	narrow, err := newLocal(modelDir(), linalg{fast: true})
	if err != nil {
		t.Fatal(err)
	}
	wide, err := newLocal(modelDir(), linalg{fast: true, wide: true})
	if err != nil {
		t.Fatal(err)
	}
	qs := append(evalQuestions(t), passages100(t, narrow, 4)...)
	ctx := context.Background()
	a, err := narrow.Embed(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := wide.Embed(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		for j := range a[i] {
			if math.Float32bits(a[i][j]) != math.Float32bits(b[i][j]) {
				t.Fatalf("text %d (%q), component %d: %v (AVX2) and %v (AVX-512)", i, qs[i], j, a[i][j], b[i][j])
			}
		}
	}
}
