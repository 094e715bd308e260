package bench

import (
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteMarkdown writes the report as Markdown tables.
func WriteMarkdown(w io.Writer, rep *Report) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	m := rep.Machine
	p("## ragd bench: %d chunks, %d tenants, %d dimensions (%s)\n\n", rep.Chunks, rep.Tenants, rep.Dims, rep.Model)
	p("%s; %d CPUs (%s), %d GB; load average at the end %s, a busy loop got %.0f%% / %.0f%% of a core at the start / end (shared machine); PostgreSQL %s, pgvector %s; %s.\n",
		rep.Started.Format("2006-01-02 15:04 UTC"), m.CPUs, m.CPUModel, m.MemoryGB, m.Load, 100*m.CPUShareStart, 100*m.CPUShareEnd, m.Postgres, m.PGVector, m.Go)
	if rep.Command != "" {
		p("Command: `%s`. ", rep.Command)
	}
	threshold := "ragd's default"
	if rep.ExactThreshold > 0 {
		threshold = fmt.Sprint(rep.ExactThreshold)
	}
	p("Run time %.0f s. ~%d words per chunk; %d questions per class; ExactThreshold %s.\n\n", rep.DurationS, rep.WordsPerChunk, rep.Queries, threshold)

	p("### Latency per tenant size class (ms)\n\n")
	p("| class | tenants × rows | vector path | hybrid SQL p50 / p95 / p99 | keyword p95 (common terms) | vector p95 | recall@20 | reference p50 / p95 | speedup (p95) | CPU share |\n")
	p("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range rep.Classes {
		p("| %s (%.3f%%) | %d × %d | %s | %.1f / %.1f / %.1f | %.1f (%.1f) | %.1f | %.3f | %.1f / %.1f | %.0f× | %.0f%% |\n",
			c.Name, 100*c.RowsFraction, c.Tenants, c.Rows, c.VectorPath, c.HybridP50, c.HybridP95, c.HybridP99,
			c.KeywordP95, c.KeywordCommonP95, c.Latency["vector"].P95, c.VectorRecall, c.ReferenceP50, c.ReferenceP95, c.Speedup, 100*c.CPUShare)
	}
	p("\nAll classes: hybrid SQL p95 %.1f ms, reference p95 %.1f ms, speedup %.0f×.\n\n", rep.HybridP95, rep.ReferenceP95, rep.Speedup)

	if len(rep.Classes) > 0 && rep.Classes[0].Real.N > 0 {
		writeRealQuestions(p, rep)
	}

	p("### SQL and API time at each concurrency (p50 / p95 / p99 ms, throughput)\n\n")
	var series []string
	for k := range rep.Classes[0].Latency {
		if strings.HasPrefix(k, "sql_") || strings.HasPrefix(k, "api") {
			series = append(series, k)
		}
	}
	sort.Slice(series, func(i, j int) bool { return seriesOrder(series[i]) < seriesOrder(series[j]) })
	p("| class |")
	for _, s := range series {
		p(" %s |", s)
	}
	p("\n|---|")
	for range series {
		p("---|")
	}
	p("\n")
	for _, c := range rep.Classes {
		p("| %s |", c.Name)
		for _, s := range series {
			l := c.Latency[s]
			p(" %.1f / %.1f / %.1f (%.0f/s) |", l.P50, l.P95, l.P99, l.QPS)
		}
		p("\n")
	}
	p("\nsql = Searcher.Search with a precomputed query vector (one tenant transaction: both legs and the chunks they found in one pipelined round trip; fusion); " +
		"api = POST /v1/search over loopback HTTP (JWT, tenant load, JSON) with a precomputed vector; api_embed = the same with the local model embedding the question. " +
		"_cN = N concurrent clients.\n\n")

	p("Mean stage times of the SQL runs (ms; retrieve = the tenant transaction, both legs):\n\n| class | retrieve | fuse |\n|---|---|---|\n")
	for _, c := range rep.Classes {
		p("| %s | %.2f | %.3f |\n", c.Name, c.Stages["retrieve"], c.Stages["fuse"])
	}

	p("\n### Load, ingestion, memory, size\n\n")
	if rep.Load.Reused {
		p("- Corpus reused from an earlier run (load figures in that run's report)")
		if rep.Load.Indexes > 0 {
			p("; %d dedicated HNSW indexes built in %.1f s", rep.Load.Indexes, rep.Load.IndexS)
		}
		p(".\n")
	} else {
		l := rep.Load
		p("- Bulk load (%d workers, embedding storage %s): %.0f chunks/s — %.1f s for documents, chunks and embeddings, %.1f s for the keyword statistics and %d postings (set-based per tenant); "+
			"postings indexes %.1f s; %d dedicated HNSW indexes built in %.1f s; VACUUM ANALYZE %.1f s.\n",
			l.Workers, l.Storage, l.ChunksPerS, l.RowsS, l.StatsS, l.Postings, l.PostingsS, l.Indexes, l.IndexS, l.VacuumS)
	}
	in := rep.Ingest
	if in.LocalPassagesPerS > 0 {
		p("- Local model: %.0f passages/s (100-token passages); pipeline with it: %.0f chunks/s (%d chunks).\n", in.LocalPassagesPerS, in.LocalChunksPerS, in.LocalChunks)
	}
	if in.HTTPChunksPerS > 0 {
		p("- Pipeline with the HTTP embedder (+%d ms per request, %d documents in flight) into a new tenant: %.0f chunks/s (%d chunks, %d requests); "+
			"into the largest tenant (%d chunks, its dedicated HNSW index): %.0f chunks/s.\n",
			in.HTTPDelayMS, in.Workers, in.HTTPChunksPerS, in.HTTPChunks, in.HTTPRequests, in.LargeTenantRows, in.HTTPLargeTenantChunksPerS)
	}
	p("- Server (this process: API, searcher, local model) RSS %.0f MB after the latency runs, peak %.0f MB", rep.ServerRSSMB, rep.ServerPeakRSSMB)
	if rep.PostgresPSSMB > 0 {
		p("; PostgreSQL processes' PSS %.0f MB", rep.PostgresPSSMB)
	}
	s := rep.Sizes
	p(".\n- Database %.0f MB: embeddings %.0f MB, HNSW indexes %.0f MB, chunks %.0f MB, postings %.0f MB, documents %.0f MB.\n\n",
		s.DatabaseMB, s.EmbeddingsMB, s.HNSWMB, s.ChunksMB, s.PostingsMB, s.DocumentsMB)

	p("### Targets (stated for 1M chunks)\n\n| target | want | got | met | margin |\n|---|---|---|---|---|\n")
	for _, t := range rep.Targets {
		met := "yes"
		if !t.Met {
			met = "**no**"
		}
		p("| %s | %s | %.3g %s | %s | %s |\n", t.Name, t.Want, t.Got, t.Unit, met, t.Margin)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRealQuestions writes the real-question table.
func writeRealQuestions(p func(string, ...any), rep *Report) {
	p("### Real questions per tenant size class (ms)\n\n")
	p("| class | tenants × rows | questions (mean words) | keyword-only p50 / p95 / p99 | vector-only p50 / p95 / p99 | hybrid p50 / p95 / p99 | reference (OR) p50 / p95 | reference / hybrid (p95) |\n")
	p("|---|---|---|---|---|---|---|---|\n")
	for _, c := range rep.Classes {
		r := c.Real
		p("| %s | %d × %d | %d (%.1f) | %.1f / %.1f / %.1f | %.1f / %.1f / %.1f | %.1f / %.1f / %.1f | %.1f / %.1f (n=%d) | %.2f× |\n",
			c.Name, c.Tenants, c.Rows, r.N, r.MeanWords, r.Keyword.P50, r.Keyword.P95, r.Keyword.P99, r.Vector.P50, r.Vector.P95, r.Vector.P99,
			r.Hybrid.P50, r.Hybrid.P95, r.Hybrid.P99, r.Reference.P50, r.Reference.P95, r.Reference.N, r.ReferenceRatio)
	}
	p("\nNatural-language questions: lengths drawn from SciFact's training claims and the PostgreSQL manual's evaluation questions " +
		"(median 12–13 words), 7 in 10 words content words drawn from the corpus vocabulary at their frequency (a share from the tenant's topic), " +
		"the rest stop words. Each figure is Searcher.Search at concurrency 1 with a precomputed query vector (one tenant transaction, fusion) — " +
		"the keyword leg alone, the vector leg alone, both; the reference query runs with the question's words OR-ed in websearch_to_tsquery.\n\n")
}

func seriesOrder(s string) string {
	for i, p := range []string{"sql_", "api_c", "api_embed_"} {
		if strings.HasPrefix(s, p) {
			var n int
			fmt.Sscanf(s[strings.LastIndex(s, "c")+1:], "%d", &n)
			return fmt.Sprintf("%d-%04d", i, n)
		}
	}
	return s
}

// WritePlot draws hybrid SQL p50 and p95 and the reference query's p95 per
// size class on a log scale, to path (.svg or .png), with gonum/plot.
func WritePlot(rep *Report, path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png":
	default:
		return fmt.Errorf("bench: plot: unsupported format %q (use .svg or .png)", filepath.Ext(path))
	}
	if len(rep.Classes) == 0 {
		return fmt.Errorf("bench: plot: no classes")
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("ragd hybrid search vs the reference query — %d chunks, %d tenants", rep.Chunks, rep.Tenants)
	p.X.Label.Text = "tenant size class (share of all rows)"
	p.Y.Label.Text = "latency, ms (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	var ticks []plot.Tick
	for i, c := range rep.Classes {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: c.Name})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.3, float64(len(rep.Classes))-0.7
	line := func(label string, col color.RGBA, shape draw.GlyphDrawer, dashed bool, y func(Class) float64) error {
		pts := make(plotter.XYs, len(rep.Classes))
		for i, c := range rep.Classes {
			pts[i].X, pts[i].Y = float64(i), max(y(c), 0.01)
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, s.Color, s.Shape = col, col, shape
		l.Width = vg.Points(1.8)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l, s)
		p.Legend.Add(label, l, s)
		return nil
	}
	blue := color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	red := color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	for _, l := range []struct {
		label  string
		col    color.RGBA
		shape  draw.GlyphDrawer
		dashed bool
		y      func(Class) float64
	}{
		{"ragd hybrid SQL p95", blue, draw.CircleGlyph{}, false, func(c Class) float64 { return c.HybridP95 }},
		{"ragd hybrid SQL p50", blue, draw.SquareGlyph{}, true, func(c Class) float64 { return c.HybridP50 }},
		{"reference query p95", red, draw.TriangleGlyph{}, false, func(c Class) float64 { return c.ReferenceP95 }},
	} {
		if err := line(l.label, l.col, l.shape, l.dashed, l.y); err != nil {
			return fmt.Errorf("bench: plot: %w", err)
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
		return fmt.Errorf("bench: plot: %w", err)
	}
	return nil
}

// WriteFiles writes report.json, report.md and latency.svg into dir.
func WriteFiles(rep *Report, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, write := range map[string]func(io.Writer, *Report) error{"report.json": WriteJSON, "report.md": WriteMarkdown} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := write(f, rep); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return WritePlot(rep, filepath.Join(dir, "latency.svg"))
}
