package cli

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
)

// runLoad: `ragd load` drives a running server at a fixed request rate with
// mixed traffic (search, answer, ingest) and reports latency percentiles,
// errors and the server's memory over time. The schedule is open-loop: a
// request starts every 1/rate seconds whether or not earlier ones finished
// (a slow server builds a queue, as real clients would), bounded by
// --max-inflight; requests that find the bound reached are counted as
// dropped. Exit status 1 when any request got a 5xx or failed in transport.
func runLoad(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "load", "load --url URL --token JWT [--rate 100] [--duration 1m] [--mix 80,15,5] [--seed-docs N]")
	base := fs.String("url", "http://"+e.cfg.Addr, "server base URL")
	token := fs.String("token", "", "bearer token of an editor (ingest needs it); or RAGD_LOAD_TOKEN")
	rate := fs.Float64("rate", 100, "requests per second")
	dur := fs.Duration("duration", time.Minute, "how long to drive traffic")
	mix := fs.String("mix", "80,15,5", "percent of search,answer,ingest")
	every := fs.Duration("report", 10*time.Second, "report interval")
	seedDocs := fs.Int("seed-docs", 0, "first write this many generated documents (an empty tenant has nothing to search)")
	queries := fs.String("queries", "", "file of search questions, one per line (default: built-in questions)")
	maxInflight := fs.Int("max-inflight", 256, "requests in flight at most; beyond it a scheduled request is dropped")
	markdown := fs.Bool("markdown", false, "print the summary as a Markdown table")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = e.getenv("RAGD_LOAD_TOKEN")
	}
	shares, err := parseMix(*mix)
	switch {
	case err != nil:
		return usagef("--mix: %v", err)
	case *token == "":
		return usagef("--token (or RAGD_LOAD_TOKEN) is required: ragd token issue --tenant <slug> --role editor")
	case *rate <= 0 || *rate > 10000:
		return usagef("--rate must be in (0, 10000]")
	case *maxInflight < 1:
		return usagef("--max-inflight must be >= 1")
	}
	qs := defaultLoadQuestions
	if *queries != "" {
		if qs, err = readLines(*queries); err != nil {
			return err
		}
		if len(qs) == 0 {
			return usagef("--queries %s has no lines", *queries)
		}
	}
	l := &loader{base: strings.TrimRight(*base, "/"), token: *token, questions: qs, out: e.stdout,
		client: &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: *maxInflight, MaxConnsPerHost: 0}}}
	if err := l.check(ctx); err != nil {
		return err
	}
	if *seedDocs > 0 {
		start := time.Now()
		if err := l.seed(ctx, *seedDocs); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "seeded %d documents in %s\n", *seedDocs, time.Since(start).Round(time.Millisecond))
	}
	if *dur <= 0 {
		return nil
	}
	fmt.Fprintf(e.stdout, "load: %s at %.0f req/s for %s (search %d%%, answer %d%%, ingest %d%%)\n",
		l.base, *rate, *dur, shares[0], shares[1], shares[2])
	sum := l.run(ctx, *rate, *dur, shares, *every, *maxInflight)
	sum.print(e.stdout, *markdown)
	if sum.total.s5xx > 0 || sum.total.transport > 0 {
		return fmt.Errorf("%d responses were 5xx and %d requests failed in transport", sum.total.s5xx, sum.total.transport)
	}
	return nil
}

func parseMix(s string) ([3]int, error) {
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

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

// defaultLoadQuestions fit both the demo tenant (the PostgreSQL manual) and
// the generated documents of --seed-docs.
var defaultLoadQuestions = []string{
	"How do I create an index without locking writes?", "What does VACUUM reclaim?", "effective_io_concurrency",
	"How do I make a copy of my whole database into a single file?", "What is a tablespace?", "replication slot lag",
	"How does the planner estimate row counts?", "What does the SQLSTATE error code 42P01 mean?", "work_mem per sort",
	"How do I restore a backup?", "When does autovacuum run?", "row level security policy", "What is a partial index?",
	"How are checkpoints tuned?", "shared_buffers size", "How do I grant read access to a role?", "failover to a standby",
	"What is the difference between DELETE and TRUNCATE?", "How do I list all tables?", "backup window and retention",
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

type loadSummary struct {
	dur     time.Duration
	rate    float64
	ops     [3]stats
	total   stats
	samples []sample
}

// run drives traffic and prints a line every report interval.
func (l *loader) run(ctx context.Context, rate float64, dur time.Duration, shares [3]int, every time.Duration, maxInflight int) loadSummary {
	sum := loadSummary{dur: dur, rate: rate}
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

func (s loadSummary) print(w io.Writer, markdown bool) {
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
