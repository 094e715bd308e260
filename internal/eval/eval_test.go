package eval_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// corpus is a small synthetic tenant: a few documents on distinct topics, so
// some questions are keyword matches and some paraphrases.
var corpus = map[string]string{
	"doc://vacuum": "# Routine Vacuuming\n\nPostgreSQL databases require periodic maintenance known as vacuuming. " +
		"VACUUM reclaims storage occupied by dead tuples left behind by updates and deletes, and the autovacuum daemon runs it automatically.",
	"doc://wal": "# Write-Ahead Logging\n\nWrite-ahead logging (WAL) ensures data integrity: changes to data files are written only after " +
		"the log records describing them have been flushed to permanent storage, so a crash can be recovered by replaying the log.",
	"doc://index": "# Index Types\n\nB-tree indexes handle equality and range queries on sortable data. GIN indexes suit composite " +
		"values such as arrays and full-text documents, and BRIN indexes summarise block ranges of very large tables.",
	"doc://roles": "# Database Roles\n\nAccess privileges are managed with roles. A role can own database objects and be granted " +
		"privileges on others; GRANT and REVOKE change them, and a role with LOGIN can connect.",
	"doc://bread": "# Sourdough Bread\n\nMix flour, water and salt with an active starter, let the dough ferment overnight, shape a loaf " +
		"and bake it in a hot Dutch oven until the crust is deep brown.",
	"doc://garden": "# Growing Tomatoes\n\nTomato plants need full sun, regular watering and support from stakes or cages; pinch out " +
		"side shoots and feed them with a potassium-rich fertiliser once the first fruits set.",
}

var questions = []eval.Question{
	{Question: "How does VACUUM reclaim storage from dead tuples?", Relevant: []string{"doc://vacuum"}},
	{Question: "How does the database survive a crash without losing committed changes?", Relevant: []string{"doc://wal"}},
	{Question: "Which index type should I use for full-text documents and arrays?", Relevant: []string{"doc://index"}},
	{Question: "How do I give another user permission to read my tables?", Relevant: []string{"doc://roles", "doc://index"}},
	// Shares no word with the corpus: only the vector leg has a (low) confidence.
	{Question: "Who won the football world cup in 1966?", Relevant: []string{}},
}

type bundle struct {
	svc  *eval.Service
	t    tenant.Tenant
	pipe *ingest.Pipeline
}

func setup(t *testing.T) bundle {
	t.Helper()
	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatalf("local model: %v (run `make setup`)", err)
	}
	ctx := context.Background()
	pool := testdb.App(t)
	m, err := store.New().GetEmbeddingModel(ctx, pool, emb.Model())
	if err != nil {
		t.Fatal(err)
	}
	p, err := ingest.New(pool, emb, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	tn := testdb.NewTenant(t, "eval", "")
	tt, err := tenant.Load(ctx, pool, tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	for uri, text := range corpus {
		if _, err := p.Upsert(ctx, tt, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte(text)}); err != nil {
			t.Fatal(err)
		}
	}
	svc := eval.New(pool, &search.Searcher{Pool: pool, Embedder: emb, ModelID: m.ID})
	return bundle{svc: svc, t: tt, pipe: p}
}

func reload(t *testing.T, tt tenant.Tenant) tenant.Tenant {
	t.Helper()
	got, err := tenant.Load(context.Background(), testdb.App(t), tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestLoadRunTuneCompare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)

	// Validation: an unknown source_uri is reported with its line.
	bad := append([]eval.Question{}, questions...)
	bad[2] = eval.Question{Question: bad[2].Question, Relevant: []string{"doc://nope"}}
	_, err := b.svc.LoadSet(ctx, b.t, "synthetic", bad, eval.LoadOptions{})
	var ve *eval.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Code != "unknown_source_uri" || ve.Problems[0].Line != 3 {
		t.Fatalf("LoadSet(unknown uri) = %v, want one unknown_source_uri problem at line 3", err)
	}
	info, err := b.svc.LoadSet(ctx, b.t, "synthetic", questions, eval.LoadOptions{})
	if err != nil || info.Version != 1 || info.Questions != 5 || info.Unchanged {
		t.Fatalf("LoadSet = %+v, %v", info, err)
	}
	if again, err := b.svc.LoadSet(ctx, b.t, "synthetic", questions, eval.LoadOptions{}); err != nil || !again.Unchanged || again.Version != 1 {
		t.Fatalf("reloading the same set = %+v, %v; want unchanged version 1", again, err)
	}

	// Run: every leg, stored with its snapshot.
	r1, err := b.svc.Run(ctx, b.t, eval.RunOptions{Set: "synthetic"})
	if err != nil {
		t.Fatal(err)
	}
	if r1.ID == uuid.Nil || r1.Questions != 5 || r1.Answerable != 4 || r1.Production != eval.LegFused || r1.Depth != eval.DefaultTopK {
		t.Fatalf("run = id %s, %d questions, %d answerable, production %s, depth %d", r1.ID, r1.Questions, r1.Answerable, r1.Production, r1.Depth)
	}
	for _, leg := range []string{eval.LegVector, eval.LegKeyword, eval.LegFused} {
		m, ok := r1.Legs[leg]
		if !ok || m.NDCG10 <= 0 || m.NDCG10 > 1 || m.Recall20 < m.Recall5 {
			t.Errorf("leg %s metrics %+v (present %v)", leg, m, ok)
		}
	}
	if r1.Metrics != r1.Legs[eval.LegFused] {
		t.Errorf("top-level metrics %+v are not the fused (production) leg's %+v", r1.Metrics, r1.Legs[eval.LegFused])
	}
	// Six documents, top_k 20: every answerable question retrieves every document, so no misses and hit rate 1.
	if len(r1.Misses) != 0 || r1.Metrics.HitRate != 1 || r1.Metrics.Recall20 != 1 {
		t.Errorf("misses %v, hit rate %v, recall@20 %v", r1.Misses, r1.Metrics.HitRate, r1.Metrics.Recall20)
	}
	if r1.Config.EmbeddingModel != embed.LocalModelName || r1.Config.Documents != int64(len(corpus)) || len(r1.Config.Pipelines) != 1 {
		t.Errorf("config snapshot %+v", r1.Config)
	}
	if r1.Refusal == nil || r1.Refusal.Unanswerable != 1 || r1.Refusal.Answerable != 4 {
		t.Errorf("refusal report %+v", r1.Refusal)
	}
	got, err := b.svc.GetRun(ctx, b.t, r1.ID)
	if err != nil || got.Metrics != r1.Metrics || len(got.PerQuestion) != 5 || got.Set.Name != "synthetic" || got.Config.Chunks != r1.Config.Chunks {
		t.Fatalf("GetRun = %+v, %v", got.Metrics, err)
	}
	if got.Set.CreatedAt.IsZero() || !got.Set.CreatedAt.Equal(r1.Set.CreatedAt) {
		t.Errorf("GetRun's set was created at %v, the run's at %v", got.Set.CreatedAt, r1.Set.CreatedAt)
	}
	// Another tenant cannot read the run.
	other := testdb.NewTenant(t, "eval-other", "")
	if _, err := b.svc.GetRun(ctx, tenant.Tenant{ID: other.ID}, r1.ID); !errors.Is(err, eval.ErrRunNotFound) {
		t.Errorf("GetRun as another tenant: %v, want ErrRunNotFound", err)
	}
	if err := eval.WritePlot(got, filepath.Join(t.TempDir(), "recall.svg")); err != nil {
		t.Errorf("WritePlot: %v", err)
	}

	// Tune: four answerable questions are too few to trust any tuned
	// configuration, so the default is kept; the refusal threshold is
	// calibrated and stored.
	res, err := b.svc.Tune(ctx, b.t, eval.TuneOptions{Set: "synthetic"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verified {
		t.Errorf("production path %+v differs from in-memory fusion %+v", res.Production, res.Chosen.Metrics)
	}
	if res.Best.Metrics.NDCG10 < res.BestSingleLeg.Metrics.NDCG10 || !res.Stored {
		t.Errorf("best %+v below best single leg %+v (stored %v)", res.Best, res.BestSingleLeg, res.Stored)
	}
	// default, vector alone, keyword alone, 6 RRF weights × 4 k, 6 convex
	// vector weights × 3 document weights less the two equal to earlier
	// points (the default itself, and the keyword leg alone at the default
	// document weight).
	if n, want := len(res.Grid), 1+1+1+6*4+6*3-2; n != want || !res.Grid[0].Default {
		t.Errorf("grid has %d points (first default: %v), want %d", n, res.Grid[0].Default, want)
	}
	if res.Adoption.Adopt || !res.Chosen.Default || res.CV.Folds != eval.DefaultFolds || len(res.CV.Differences) != 3 {
		t.Errorf("adoption %+v, chosen %+v, cv %+v: want the default kept on 4 questions", res.Adoption, res.Chosen, res.CV)
	}
	tuned := reload(t, b.t)
	if tuned.Settings.VectorWeight != nil || tuned.Settings.KeywordWeight != nil || tuned.Settings.RRFK != 0 {
		t.Errorf("stored settings %+v, want the default retrieval configuration", tuned.Settings)
	}
	// Refusal: too few questions of each kind to cross-validate
	// (MinRefusalQuestions), so the defaults are kept and stored.
	a := res.Answerability
	if a == nil || a.Answerable != 4 || a.Unanswerable != 1 || len(a.Procedures) != 0 || a.Chosen != eval.ProcedureDefault || res.Refusal == nil {
		t.Fatalf("refusal calibration %+v, refusal %+v", a, res.Refusal)
	}
	if (a.Threshold == nil) != (tuned.Settings.RefuseBelow == nil) || a.Threshold != nil && *a.Threshold != *tuned.Settings.RefuseBelow ||
		len(a.Model) != len(tuned.Settings.AnswerModel) || res.Refusal.Chosen.Threshold != *tuned.Settings.Effective().RefuseBelow {
		t.Errorf("stored threshold %v and model %v, calibration kept %q (threshold %v, model %v)", tuned.Settings.RefuseBelow,
			tuned.Settings.AnswerModel, a.Chosen, a.Threshold, a.Model)
	}

	// A run with the stored settings: the production path is at least the best single leg.
	r2, err := b.svc.Run(ctx, tuned, eval.RunOptions{Set: "synthetic"})
	if err != nil {
		t.Fatal(err)
	}
	best := math.Max(r2.Legs[eval.LegVector].NDCG10, r2.Legs[eval.LegKeyword].NDCG10)
	if r2.Metrics.NDCG10 < best-1e-9 {
		t.Errorf("tuned production nDCG@10 %.4f below the best single leg %.4f", r2.Metrics.NDCG10, best)
	}
	if math.Abs(r2.Metrics.NDCG10-res.Production.NDCG10) > 1e-9 {
		t.Errorf("run after tune nDCG@10 %.4f, tune's production pass %.4f", r2.Metrics.NDCG10, res.Production.NDCG10)
	}
	// The stored threshold does on a fresh run what the calibration said.
	if c := r2.Refusal; c == nil || c.Current.Threshold != res.Refusal.Chosen.Threshold || c.Current.Recall != res.Refusal.Chosen.Recall ||
		c.Current.FalseRefusal != res.Refusal.Chosen.FalseRefusal {
		t.Errorf("run after tune refusal %+v, calibration chose %+v", r2.Refusal, res.Refusal.Chosen)
	}

	// Compare, with a run after the tenant changed its refusal threshold:
	// production deltas first, config changes listed.
	half := 0.5
	if _, err := tenant.UpdateSettings(ctx, testdb.App(t), b.t.ID, func(s *tenant.Settings) error { s.RefuseBelow = &half; return nil }); err != nil {
		t.Fatal(err)
	}
	tuned = reload(t, b.t)
	r3, err := b.svc.Run(ctx, tuned, eval.RunOptions{Set: "synthetic"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.svc.Compare(ctx, tuned, r1.ID, r3.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Deltas[0].Leg != "production" || c.Deltas[0].A != r1.Metrics.Recall1 || c.Deltas[0].B != r3.Metrics.Recall1 {
		t.Errorf("first delta %+v", c.Deltas[0])
	}
	if c.Better+c.Same+len(c.Worse) != 4 || c.Unmatched != 0 {
		t.Errorf("compare counted %d better, %d same, %d worse, %d unmatched; want 4 answerable matched", c.Better, c.Same, len(c.Worse), c.Unmatched)
	}
	var changed []string
	for _, ch := range c.ConfigChanges {
		changed = append(changed, ch.Field)
	}
	if !strings.Contains(strings.Join(changed, " "), "settings.refuse_below") {
		t.Errorf("config changes %v, want settings.refuse_below among them", changed)
	}
	runs, err := b.svc.Runs(ctx, tuned, 10)
	if err != nil || len(runs) != 3 || runs[0].ID != r3.ID {
		t.Errorf("Runs = %+v, %v", runs, err)
	}
}

func TestBEIRImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("corpus.jsonl", `{"_id": "d1", "title": "Vitamin D and bone density", "text": "Vitamin D supplementation increased bone mineral density in elderly women."}
{"_id": "d2", "title": "Aspirin and stroke", "text": "Low-dose aspirin reduced the risk of ischaemic stroke in patients with atrial fibrillation."}
{"_id": "d3", "title": "Sleep and memory", "text": "Slow-wave sleep consolidates declarative memory in young adults."}
`)
	write("queries-train.jsonl", `{"_id": "1", "text": "Vitamin D improves bone density."}
{"_id": "2", "text": "Aspirin prevents strokes."}
{"_id": "3", "text": "Not judged in this split."}
`)
	write("qrels/train.tsv", "query-id\tcorpus-id\tscore\n1\td1\t1\n2\td2\t1\n2\td3\t0\n")
	res, err := b.svc.ImportBEIR(ctx, b.t, b.pipe, eval.BEIROptions{Dir: dir, Split: "train"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ingest.Added != 3 || res.Report.Questions != 2 || res.Report.Depth != eval.BEIRDepth || res.Report.Config.Candidates != eval.BEIRDepth {
		t.Fatalf("ingest %+v, report: %d questions, depth %d, candidates %d", res.Ingest, res.Report.Questions, res.Report.Depth, res.Report.Config.Candidates)
	}
	if m := res.Report.Legs[eval.LegKeyword]; m.Recall100 != 1 || m.NDCG10 != 1 {
		t.Errorf("keyword leg on two exact-match queries: %+v", m)
	}
	again, err := b.svc.ImportBEIR(ctx, b.t, b.pipe, eval.BEIROptions{Dir: dir, Split: "train", DryRun: true})
	if err != nil || again.Ingest.Unchanged != 3 || again.Report.Set.Version != 1 || !again.Report.Set.Unchanged {
		t.Errorf("rerun: ingest %+v, set %+v, err %v; want every document unchanged and the same set version", again.Ingest, again.Report.Set, err)
	}
	if _, err := b.svc.ImportBEIR(ctx, b.t, b.pipe, eval.BEIROptions{Dir: dir, Split: "test"}); !errors.Is(err, eval.ErrBEIRLayout) {
		t.Errorf("missing split: %v, want ErrBEIRLayout", err)
	}
}

// noiseQuestions mix the words of two or three documents of corpus and are
// labelled with one of them chosen arbitrarily, so which configuration ranks
// the labelled document higher is chance: whatever a grid point gains over
// the default on them is noise. Two are unanswerable.
var noiseQuestions = []eval.Question{
	{Question: "Does vacuuming storage need a crash log of dead tuples?", Relevant: []string{"doc://wal"}},
	{Question: "Which index helps roles find privileges in large tables?", Relevant: []string{"doc://roles"}},
	{Question: "Do tomatoes and bread both need a warm place overnight?", Relevant: []string{"doc://garden"}},
	{Question: "Is the log flushed to storage before the autovacuum daemon runs?", Relevant: []string{"doc://vacuum"}},
	{Question: "Can a role with LOGIN bake arrays of full-text documents?", Relevant: []string{"doc://index"}},
	{Question: "How are data files and block ranges of very large tables recovered?", Relevant: []string{"doc://index"}},
	{Question: "Should I feed the starter a potassium-rich fertiliser?", Relevant: []string{"doc://bread"}},
	{Question: "Who owns the updates and deletes that vacuum reclaims?", Relevant: []string{"doc://roles"}},
	{Question: "Does regular watering ferment the dough in a Dutch oven?", Relevant: []string{"doc://garden"}},
	{Question: "Which records describe changes granted to other roles?", Relevant: []string{"doc://wal"}},
	{Question: "Do equality queries on sortable data survive a crash?", Relevant: []string{"doc://wal"}},
	{Question: "Is maintenance of stakes and cages like periodic vacuuming?", Relevant: []string{"doc://vacuum"}},
	{Question: "What is the capital of France?", Relevant: []string{}},
	{Question: "Who painted the Mona Lisa?", Relevant: []string{}},
}

// TestTuneKeepsDefaultOnNoise: a small tenant whose previous calibration
// (vector weight 0.7, k 10) was fitted on noise gets the default back, with
// the minimum set size lowered so that the held-out interval decides, and
// also under the default minimum.
func TestTuneKeepsDefaultOnNoise(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	tuned := tenant.Settings{VectorWeight: ptr(0.7), KeywordWeight: ptr(1.0), RRFK: 10}
	if err := tenant.SaveSettings(ctx, testdb.App(t), b.t.ID, tuned); err != nil {
		t.Fatal(err)
	}
	tt := reload(t, b.t)
	if _, err := b.svc.LoadSet(ctx, tt, "noise", noiseQuestions, eval.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := b.svc.Tune(ctx, tt, eval.TuneOptions{Set: "noise", MinQuestions: 5})
	if err != nil {
		t.Fatal(err)
	}
	// The grid's best wins on the set it was chosen on…
	if res.Best.Default || res.Best.Metrics.NDCG10 <= res.Default.Metrics.NDCG10 {
		t.Fatalf("in-sample best %+v does not beat the default %+v: the set shows nothing", res.Best.Metrics, res.Default.Metrics)
	}
	// …and is not stored: held out, its gain is within noise.
	if res.Answerable != 12 || res.Adoption.Adopt || !res.Chosen.Default {
		t.Fatalf("answerable %d, adoption %+v, chosen %+v: want the default kept", res.Answerable, res.Adoption, res.Chosen)
	}
	got := reload(t, b.t)
	if got.Settings.VectorWeight != nil || got.Settings.KeywordWeight != nil || got.Settings.RRFK != 0 || got.Settings.Candidates != 0 {
		t.Errorf("stored retrieval settings %+v, want the default restored", got.Settings)
	}
	if !strings.Contains(strings.Join(res.Notes, " "), "replaced by the default") {
		t.Errorf("notes %v do not say the previous configuration was replaced", res.Notes)
	}
	if g := res.CV.Difference("ndcg@10"); g.Questions != 12 || g.CI.Lower > 0 {
		t.Errorf("held-out difference %+v: want 12 questions and an interval reaching zero", g)
	}
	if !res.Verified || math.Abs(res.Production.NDCG10-res.Default.Metrics.NDCG10) > 1e-9 {
		t.Errorf("production %.4f, in-memory default %.4f (verified %v)", res.Production.NDCG10, res.Default.Metrics.NDCG10, res.Verified)
	}

	// With the default minimum the set's size alone keeps the default, and a
	// dry run writes nothing.
	if err := tenant.SaveSettings(ctx, testdb.App(t), b.t.ID, tuned); err != nil {
		t.Fatal(err)
	}
	res, err = b.svc.Tune(ctx, reload(t, b.t), eval.TuneOptions{Set: "noise", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Adoption.Adopt || !strings.Contains(res.Adoption.Reason, "fewer than") || res.Stored {
		t.Errorf("adoption %+v (stored %v), want the default kept for the set's size and nothing stored", res.Adoption, res.Stored)
	}
	if got := reload(t, b.t); got.Settings.VectorWeight == nil || *got.Settings.VectorWeight != 0.7 {
		t.Errorf("a dry run changed the settings to %+v", got.Settings)
	}

	// A grid given as a list of settings is cross-validated as it is, after
	// the default; a point equal to the default is not repeated.
	grid := []tenant.Settings{{VectorWeight: ptr(0.0), KeywordWeight: ptr(1.0)}, {VectorWeight: ptr(1.0), KeywordWeight: ptr(1.0), RRFK: 60}}
	res, err = b.svc.Tune(ctx, reload(t, b.t), eval.TuneOptions{Set: "noise", Grid: grid, Folds: 3, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Grid) != 2 || !res.Grid[0].Default || res.Grid[1].Legs() != eval.LegKeyword || res.CV.Folds != 3 || len(res.CV.Chosen) != 3 {
		t.Errorf("custom grid: %d points (%+v), %d folds", len(res.Grid), res.Grid, res.CV.Folds)
	}
}

func ptr[T any](v T) *T { return &v }
