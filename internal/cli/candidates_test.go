package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// TestTrafficIntoEvaluation: recorded questions become candidates (rated
// unhelpful first, then refused, then frequent), export as a set `eval
// load` reads, and `eval run --from-traffic` evaluates the rated ones with
// the right source as the label.
func TestTrafficIntoEvaluation(t *testing.T) {
	tt := testdb.NewTenant(t, "cli-traffic", "")
	env := map[string]string{"RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "RAGD_DATABASE_URL": testdb.URL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"vacuum.md": "# Vacuum\n\nVACUUM reclaims storage occupied by dead tuples. Run VACUUM ANALYZE after bulk deletes.\n",
		"backup.md": "# Backup\n\npg_dump writes a consistent backup of one database while it is in use.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runCLI(t, env, "ingest", "--tenant", tt.Slug, "--base-uri", "https://docs.test/", dir); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	rec := traffic.New(testdb.App(t), 100)
	now := time.Now()
	ev := func(q string, refused bool, sources ...string) traffic.Event {
		e := traffic.Event{ID: uuid.Must(uuid.NewV7()), TenantID: tt.ID, At: now, Operation: "answer", Question: q, KeepText: true,
			Refused: refused, RetentionDays: 30}
		for i, s := range sources {
			e.Results = append(e.Results, traffic.Result{Rank: i + 1, SourceURI: "https://docs.test/" + s})
		}
		return e
	}
	rated := ev("how do I take a backup", false, "vacuum.md")
	events := []traffic.Event{rated, ev("reclaim dead tuples", false, "vacuum.md"), ev("reclaim dead tuples", false, "vacuum.md"),
		ev("what is mongodb sharding", true), ev("asked once only", false, "backup.md")}
	rec.Flush(t.Context(), events)
	err := store.InTenant(t.Context(), testdb.App(t), tt.ID, func(tx pgx.Tx) error {
		_, err := store.New().SetEventFeedback(t.Context(), tx, store.SetEventFeedbackParams{TenantID: tt.ID, ID: rated.ID,
			Helpful: pgtype.Bool{Bool: false, Valid: true}, RightSourceUri: pgtype.Text{String: "https://docs.test/backup.md", Valid: true}, NamesSource: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := runCLI(t, env, "eval", "candidates", "--tenant", tt.Slug, "--json")
	if code != 0 {
		t.Fatalf("candidates: exit %d: %s", code, stderr)
	}
	var cs []traffic.Candidate
	if err := json.Unmarshal([]byte(stdout), &cs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Reason+":"+c.Question)
	}
	want := "unhelpful:how do I take a backup|refused:what is mongodb sharding|frequent:reclaim dead tuples"
	if strings.Join(got, "|") != want {
		t.Fatalf("candidates %q, want %q", strings.Join(got, "|"), want)
	}

	export := filepath.Join(t.TempDir(), "candidates.jsonl")
	if code, _, stderr := runCLI(t, env, "eval", "candidates", "--tenant", tt.Slug, "--export", export); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	// As exported, the question to label is refused: its retrieved sources
	// are not labels.
	_, err = eval.ParseJSONL(bytes.NewReader(raw))
	var verr *eval.ValidationError
	if !errors.As(err, &verr) || len(verr.Problems) != 2 || verr.Problems[0].Code != "unlabelled" || verr.Problems[0].Line != 2 ||
		verr.Problems[1].Code != "unlabelled" || verr.Problems[1].Line != 3 {
		t.Fatalf("the unlabelled export parsed as %v, want unlabelled problems on lines 2 and 3", err)
	}
	if code, _, stderr := runCLI(t, env, "eval", "load", "--tenant", tt.Slug, "--name", "labelled", export); code == 0 ||
		!strings.Contains(stderr, "line 3: still unlabelled") {
		t.Errorf("eval load of the unlabelled export: exit %d: %s", code, stderr)
	}
	// Labelled by a person (the retrieved sources kept, categories of their
	// own), it loads.
	labelled := strings.NewReplacer(`"unlabelled-frequent"`, `"vacuum"`, `"unlabelled-refused"`, `"refused"`).Replace(string(raw))
	qs, err := eval.ParseJSONL(strings.NewReader(labelled))
	if err != nil {
		t.Fatalf("the labelled export is not a valid set: %v", err)
	}
	if len(qs) != 3 || qs[0].Category != "traffic-rated" || strings.Join(qs[0].Relevant, ",") != "https://docs.test/backup.md" ||
		qs[2].Category != "vacuum" || strings.Join(qs[2].Relevant, ",") != "https://docs.test/vacuum.md" {
		t.Errorf("exported set: %+v", qs)
	}
	if err := os.WriteFile(export, []byte(labelled), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, env, "eval", "load", "--tenant", tt.Slug, "--name", "labelled", export); code != 0 {
		t.Errorf("eval load of the labelled export: exit %d: %s", code, stderr)
	}

	code, stdout, stderr = runCLI(t, env, "eval", "run", "--tenant", tt.Slug, "--from-traffic", "7", "--no-store", "--json")
	if code != 0 {
		t.Fatalf("run --from-traffic: exit %d: %s", code, stderr)
	}
	var rep struct {
		Set struct {
			Name      string `json:"name"`
			Questions int    `json:"questions"`
		} `json:"set"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if rep.Set.Name != "traffic" || rep.Set.Questions != 1 || !strings.Contains(stderr, "1 rated questions") {
		t.Errorf("run --from-traffic evaluated %+v (stderr %s), want the one rated question", rep.Set, stderr)
	}
}

// TestTenantLimitsCommand: the operator sets a tenant's own rates and
// quotas, a negative value returns one to the server default, and the
// tenant's other settings are kept.
func TestTenantLimitsCommand(t *testing.T) {
	tt := testdb.NewTenant(t, "cli-limits", "")
	env := map[string]string{"RAGD_ADMIN_DATABASE_URL": testdb.AdminURL()}
	limits := func() tenant.Settings {
		t.Helper()
		row, err := store.New().GetTenantBySlug(t.Context(), testdb.Owner(t), tt.Slug)
		if err != nil {
			t.Fatal(err)
		}
		s, err := tenant.ParseSettings(row.Settings)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if code, _, stderr := runCLI(t, env, "tenant", "limits", "--slug", tt.Slug, "--query-rate", "5", "--max-documents", "100"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	s := limits()
	if s.Limits == nil || s.Limits.QueryRate == nil || *s.Limits.QueryRate != 5 || s.Limits.MaxDocuments == nil || *s.Limits.MaxDocuments != 100 || s.Limits.WriteRate != nil {
		t.Fatalf("limits %+v", s.Limits)
	}
	if code, stdout, stderr := runCLI(t, env, "tenant", "limits", "--slug", tt.Slug, "--query-rate", "-1"); code != 0 || !strings.Contains(stdout, "query_rate\tserver default") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if s := limits(); s.Limits == nil || s.Limits.QueryRate != nil || *s.Limits.MaxDocuments != 100 {
		t.Fatalf("after clearing the rate: %+v", s.Limits)
	}
	if code, stdout, stderr := runCLI(t, env, "tenant", "purge-events", "--slug", tt.Slug); code != 0 || !strings.Contains(stdout, "older than 30 days") {
		t.Fatalf("purge-events: exit %d: %s %s", code, stdout, stderr)
	}
}

// TestEvalFollowups: `eval followups` searches each follow-up as asked and
// with the earlier question's terms carried (no LLM configured), and
// reports how many it rewrote; a malformed line is a usage error.
func TestEvalFollowups(t *testing.T) {
	tt := testdb.NewTenant(t, "cli-followups", "")
	env := map[string]string{"RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "RAGD_DATABASE_URL": testdb.URL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "vacuum.md"), []byte("# Vacuum\n\nVACUUM reclaims storage occupied by dead tuples.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, env, "ingest", "--tenant", tt.Slug, "--base-uri", "https://docs.test/", dir); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	set := filepath.Join(t.TempDir(), "followups.jsonl")
	if err := os.WriteFile(set, []byte(`{"first": "What does VACUUM reclaim?", "followup": "and how often should it run?", "relevant": ["https://docs.test/vacuum.md"]}
{"first": "What does VACUUM reclaim?", "followup": "Which storage do dead tuples occupy?", "relevant": ["https://docs.test/vacuum.md"]}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, env, "eval", "followups", "--tenant", tt.Slug, "--json", set)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []struct {
		Variant   string  `json:"variant"`
		Pairs     int     `json:"pairs"`
		Rewritten int     `json:"rewritten"`
		RecallAt5 float64 `json:"recall_at_5"`
	}
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Rewritten != 0 || rows[1].Rewritten != 1 || rows[0].Pairs != 2 || rows[1].RecallAt5 != 1 {
		t.Errorf("rows %+v, want as asked (0 rewritten) and carried terms (1 rewritten, the one-document tenant found)", rows)
	}
	if err := os.WriteFile(set, []byte(`{"first": "x", "followup": "y"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI(t, env, "eval", "followups", "--tenant", tt.Slug, set); code != 2 {
		t.Errorf("a pair without relevant: exit %d, want 2", code)
	}
}
