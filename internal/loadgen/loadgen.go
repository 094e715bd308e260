// Package loadgen drives a running ragd server over HTTP at a fixed request
// rate with mixed traffic (search, answer, ingest) and reports latency
// percentiles, errors and the server's memory over time (ragd-bench load,
// make load). The schedule is open-loop: a request starts every 1/rate
// seconds whether or not earlier ones finished (a slow server builds a
// queue, as real clients would), bounded by Config.MaxInflight; requests
// that find the bound reached are counted as dropped.
package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/ragd-dev/ragd/internal/bench"
)

// Config is one load run.
type Config struct {
	// BaseURL of the server; Token a bearer token of an editor (ingest
	// needs it).
	BaseURL, Token string
	// Rate in requests per second, for Duration (0: only check and seed).
	Rate     float64
	Duration time.Duration
	// Mix is the percent of search, answer and ingest (ParseMix).
	Mix [3]int
	// Every is the report interval.
	Every time.Duration
	// SeedDocs generated documents are written first (an empty tenant has
	// nothing to search).
	SeedDocs int
	// Questions for search and answer (ReadQuestions, GeneratedQuestions).
	Questions []string
	// MaxInflight requests at most; beyond it a scheduled request is dropped.
	MaxInflight int
	// Out receives the progress lines.
	Out io.Writer
}

// ErrConfig is returned by Run for an unusable Config.
var ErrConfig = errors.New("loadgen: invalid configuration")

// ErrFailed is returned by Summary.Err when a request got a 5xx or failed
// in transport.
var ErrFailed = errors.New("loadgen: requests failed")

// Run checks the server and the token, seeds, drives traffic and returns the
// summary. Errors: ErrConfig; the server unreachable or the token refused;
// a failed seed write.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	switch {
	case cfg.Rate <= 0 || cfg.Rate > 10000:
		return Summary{}, fmt.Errorf("%w: rate must be in (0, 10000]", ErrConfig)
	case cfg.MaxInflight < 1:
		return Summary{}, fmt.Errorf("%w: max in flight must be >= 1", ErrConfig)
	case len(cfg.Questions) == 0:
		return Summary{}, fmt.Errorf("%w: no questions", ErrConfig)
	case cfg.Every <= 0:
		return Summary{}, fmt.Errorf("%w: report interval must be positive", ErrConfig)
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	l := &loader{base: strings.TrimRight(cfg.BaseURL, "/"), token: cfg.Token, questions: cfg.Questions, out: cfg.Out,
		client: &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: cfg.MaxInflight, MaxConnsPerHost: 0}}}
	if err := l.check(ctx); err != nil {
		return Summary{}, err
	}
	if cfg.SeedDocs > 0 {
		start := time.Now()
		if err := l.seed(ctx, cfg.SeedDocs); err != nil {
			return Summary{}, err
		}
		fmt.Fprintf(cfg.Out, "seeded %d documents in %s\n", cfg.SeedDocs, time.Since(start).Round(time.Millisecond))
	}
	if cfg.Duration <= 0 {
		return Summary{}, nil
	}
	fmt.Fprintf(cfg.Out, "load: %s at %.0f req/s for %s (search %d%%, answer %d%%, ingest %d%%), %d questions\n",
		l.base, cfg.Rate, cfg.Duration, cfg.Mix[0], cfg.Mix[1], cfg.Mix[2], len(cfg.Questions))
	return l.run(ctx, cfg.Rate, cfg.Duration, cfg.Mix, cfg.Every, cfg.MaxInflight), nil
}

// ParseMix parses "search,answer,ingest" percentages that add up to 100.
func ParseMix(s string) ([3]int, error) {
	var m [3]int
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return m, errors.New("want three percentages: search,answer,ingest")
	}
	total := 0
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 {
			return m, fmt.Errorf("%q is not a percentage", p)
		}
		m[i] = n
		total += n
	}
	if total != 100 {
		return m, fmt.Errorf("the shares add up to %d, not 100", total)
	}
	return m, nil
}

// ReadQuestions reads search questions from path: one per line (blank
// lines and lines starting with # skipped), or, for a .jsonl file, the
// "question" field of each line (an evaluation set, e.g.
// tenants/pgdocs/eval.jsonl). Errors: the file's, or a .jsonl line that is
// not a JSON object with a question.
func ReadQuestions(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	jsonl := strings.HasSuffix(path, ".jsonl")
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case jsonl:
			var q struct {
				Question string `json:"question"`
			}
			if err := json.Unmarshal([]byte(l), &q); err != nil || strings.TrimSpace(q.Question) == "" {
				return nil, fmt.Errorf("%s:%d: want a JSON object with a question", path, n)
			}
			out = append(out, strings.TrimSpace(q.Question))
		default:
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

// GeneratedQuestions returns n natural-language questions about the
// documents Seed writes: lengths as real questions have them
// (bench.QuestionLength: SciFact's claims and the manual's questions),
// content words from the documents' vocabulary.
func GeneratedQuestions(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 11))
	out := make([]string, n)
	for i := range out {
		out[i] = bench.Question(r, bench.QuestionLength(r), func(r *rand.Rand) string { return loadWords[r.IntN(len(loadWords))] })
	}
	return out
}

var loadWords = strings.Fields(`index vacuum query table column server client replica failover schema migration backup
	restore checkpoint buffer cache memory disk storage lock transaction snapshot planner statistics role policy`)

func loadDoc(r *rand.Rand, i int) string {
	var b strings.Builder
	w := func() string { return loadWords[r.IntN(len(loadWords))] }
	fmt.Fprintf(&b, "# Note %d on %s and %s\n\n", i, w(), w())
	for s := range 2 + r.IntN(3) {
		fmt.Fprintf(&b, "## %s %d\n\n", w(), s)
		for range 4 + r.IntN(5) {
			fmt.Fprintf(&b, "The %s %s keeps the %s %s consistent during %s. ", w(), w(), w(), w(), w())
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

type loader struct {
	base, token string
	questions   []string
	client      *http.Client
	out         io.Writer
	seq         atomic.Int64
}

// check fails early, with the reason, when the server or the token is wrong.
func (l *loader) check(ctx context.Context) error {
	status, body, err := l.do(ctx, http.MethodGet, "/v1/tenant", nil)
	if err != nil {
		return fmt.Errorf("cannot reach %s: %w", l.base, err)
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET /v1/tenant: %d %s", status, bytes.TrimSpace(body))
	}
	var t struct {
		Slug      string `json:"slug"`
		Role      string `json:"role"`
		Documents int64  `json:"documents"`
	}
	_ = json.Unmarshal(body, &t)
	fmt.Fprintf(l.out, "tenant %s (%d documents), token role %s\n", t.Slug, t.Documents, t.Role)
	return nil
}

func (l *loader) seed(ctx context.Context, n int) error {
	r := rand.New(rand.NewPCG(1, 2))
	docs := make([]string, n)
	for i := range docs {
		docs[i] = loadDoc(r, i)
	}
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				body := map[string]any{"source_uri": fmt.Sprintf("load/seed-%04d.md", i), "content": docs[i]}
				status, resp, err := l.do(ctx, http.MethodPut, "/v1/documents", body)
				if err == nil && status != http.StatusOK {
					err = fmt.Errorf("seed document %d: %d %s", i, status, bytes.TrimSpace(resp))
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

func (l *loader) do(ctx context.Context, method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if l.token != "" && strings.HasPrefix(path, "/v1") {
		req.Header.Set("Authorization", "Bearer "+l.token)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, err
}

// loadOps names the operations, in --mix order.
var loadOps = [3]string{"search", "answer", "ingest"}

// stats accumulates one operation's (or all operations') outcomes.
type stats struct {
	lat                                []time.Duration
	ok, s4xx, s5xx, transport, dropped int
}

func (s *stats) add(o stats) {
	s.lat = append(s.lat, o.lat...)
	s.ok += o.ok
	s.s4xx += o.s4xx
	s.s5xx += o.s5xx
	s.transport += o.transport
	s.dropped += o.dropped
}

func (s *stats) count() int { return s.ok + s.s4xx + s.s5xx + s.transport }

func (s *stats) pct(p float64) time.Duration {
	if len(s.lat) == 0 {
		return 0
	}
	slices.Sort(s.lat)
	i := int(p*float64(len(s.lat))+0.5) - 1
	return s.lat[min(max(i, 0), len(s.lat)-1)]
}

// sample is the server's process state, read from /metrics.
type sample struct {
	at         time.Duration
	rssMB      float64
	goroutines float64
}

// Summary is a run's outcome per operation and in all.
type Summary struct {
	dur     time.Duration
	rate    float64
	ops     [3]stats
	total   stats
	samples []sample
}

// run drives traffic and prints a line every report interval.
func (l *loader) run(ctx context.Context, rate float64, dur time.Duration, shares [3]int, every time.Duration, maxInflight int) Summary {
	sum := Summary{dur: dur, rate: rate}
	var mu sync.Mutex
	var window stats // since the last report
	var inflight atomic.Int64
	var wg sync.WaitGroup
	record := func(op int, st stats) {
		mu.Lock()
		sum.ops[op].add(st)
		window.add(st)
		mu.Unlock()
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	pick := func() int {
		n := r.IntN(100)
		for i, s := range shares {
			if n < s {
				return i
			}
			n -= s
		}
		return 0
	}
	start := time.Now()
	sum.samples = append(sum.samples, l.sample(ctx, 0))
	fmt.Fprintf(l.out, "%8s %7s %6s %5s %5s %5s %7s %8s %8s %8s %8s %6s\n",
		"t", "sent", "ok", "4xx", "5xx", "err", "dropped", "p50", "p95", "p99", "rss_MB", "gorout")
	report := func(at time.Duration) {
		mu.Lock()
		w := window
		window = stats{}
		mu.Unlock()
		s := l.sample(ctx, at)
		mu.Lock()
		sum.samples = append(sum.samples, s)
		mu.Unlock()
		fmt.Fprintf(l.out, "%8s %7d %6d %5d %5d %5d %7d %8s %8s %8s %8.1f %6.0f\n",
			at.Round(time.Second), w.count()+w.dropped, w.ok, w.s4xx, w.s5xx, w.transport, w.dropped,
			ms(w.pct(0.5)), ms(w.pct(0.95)), ms(w.pct(0.99)), s.rssMB, s.goroutines)
	}
	interval := time.Duration(float64(time.Second) / rate)
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	reportT := time.NewTicker(every)
	defer reportT.Stop()
	deadline := time.NewTimer(dur)
	defer deadline.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-deadline.C:
			break loop
		case <-reportT.C:
			go report(time.Since(start))
		case <-ticker.C:
			op := pick()
			if inflight.Load() >= int64(maxInflight) {
				record(op, stats{dropped: 1})
				continue
			}
			n := r.Uint64()
			inflight.Add(1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer inflight.Add(-1)
				record(op, l.request(ctx, op, n))
			}()
		}
	}
	wg.Wait()
	report(time.Since(start))
	for _, o := range sum.ops {
		sum.total.add(o)
	}
	return sum
}

// request performs one operation and classifies its outcome.
func (l *loader) request(ctx context.Context, op int, n uint64) stats {
	var method, path string
	var body any
	q := l.questions[n%uint64(len(l.questions))]
	switch loadOps[op] {
	case "search":
		method, path, body = http.MethodPost, "/v1/search", map[string]any{"query": q, "top_k": 5}
	case "answer":
		method, path, body = http.MethodPost, "/v1/answer", map[string]any{"question": q}
	default:
		i := l.seq.Add(1)
		r := rand.New(rand.NewPCG(n, uint64(i)))
		// A bounded set of source_uris: the tenant does not grow without end.
		method, path, body = http.MethodPut, "/v1/documents", map[string]any{
			"source_uri": fmt.Sprintf("load/live-%03d.md", i%200), "content": loadDoc(r, int(i))}
	}
	start := time.Now()
	status, _, err := l.do(ctx, method, path, body)
	st := stats{lat: []time.Duration{time.Since(start)}}
	switch {
	case err != nil:
		st.transport = 1
	case status >= 500:
		st.s5xx = 1
	case status >= 400:
		st.s4xx = 1
	default:
		st.ok = 1
	}
	return st
}

// sample reads the server's resident memory and goroutines from /metrics
// (Prometheus' process and Go collectors); zero when unavailable.
func (l *loader) sample(ctx context.Context, at time.Duration) sample {
	s := sample{at: at}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	status, body, err := l.do(ctx, http.MethodGet, "/metrics", nil)
	if err != nil || status != http.StatusOK {
		return s
	}
	for _, line := range strings.Split(string(body), "\n") {
		name, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			continue
		}
		switch name {
		case "process_resident_memory_bytes":
			s.rssMB = v / (1 << 20)
		case "go_goroutines":
			s.goroutines = v
		}
	}
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// Err is ErrFailed when any request got a 5xx or failed in transport.
func (s Summary) Err() error {
	if s.total.s5xx > 0 || s.total.transport > 0 {
		return fmt.Errorf("%w: %d responses were 5xx and %d requests failed in transport", ErrFailed, s.total.s5xx, s.total.transport)
	}
	return nil
}

// Print writes the per-operation table (Markdown when markdown), the p99
// line and the server's RSS.
func (s Summary) Print(w io.Writer, markdown bool) {
	sent := s.total.count() + s.total.dropped
	fmt.Fprintf(w, "\n%d requests in %s (%.1f req/s achieved, %.0f scheduled)\n", sent, s.dur, float64(s.total.count())/s.dur.Seconds(), s.rate)
	rows := [][]string{{"operation", "requests", "ok", "4xx", "5xx", "transport", "dropped", "p50", "p95", "p99", "max"}}
	add := func(name string, st stats) {
		rows = append(rows, []string{name, strconv.Itoa(st.count() + st.dropped), strconv.Itoa(st.ok), strconv.Itoa(st.s4xx),
			strconv.Itoa(st.s5xx), strconv.Itoa(st.transport), strconv.Itoa(st.dropped), ms(st.pct(0.5)), ms(st.pct(0.95)), ms(st.pct(0.99)), ms(st.pct(1))})
	}
	for i, o := range s.ops {
		add(loadOps[i], o)
	}
	add("all", s.total)
	if markdown {
		for i, r := range rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
			if i == 0 {
				fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(r)))
			}
		}
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "p99: search %s, answer %s, ingest %s, all %s; 5xx %d, transport errors %d\n",
		ms(s.ops[0].pct(0.99)), ms(s.ops[1].pct(0.99)), ms(s.ops[2].pct(0.99)), ms(s.total.pct(0.99)), s.total.s5xx, s.total.transport)
	var lo, hi float64
	for i, sm := range s.samples {
		if sm.rssMB == 0 {
			continue
		}
		if i == 0 || lo == 0 || sm.rssMB < lo {
			lo = sm.rssMB
		}
		hi = max(hi, sm.rssMB)
	}
	if hi > 0 {
		first, last := s.samples[0].rssMB, s.samples[len(s.samples)-1].rssMB
		fmt.Fprintf(w, "server RSS: %.1f MB at start, %.1f MB at the end (min %.1f, max %.1f)\n", first, last, lo, hi)
	}
}
