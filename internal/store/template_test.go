package store

import (
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestRenderTemplate(t *testing.T) {
	idx, err := TemplateIdent("ce_hnsw_1_abc")
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.MustParse("01234567-89ab-cdef-0123-456789abcdef")
	got, err := renderTemplate(`CREATE INDEX /* TEMPLATE: name */ ON t ((e::vector(/* TEMPLATE: dims */))) WHERE m = /* TEMPLATE: model */ AND t = /* TEMPLATE: tenant */ AND x = vector(/* TEMPLATE: dims */)`,
		map[string]TemplateValue{"name": idx, "dims": TemplateInt(512), "model": TemplateInt(-3), "tenant": TemplateUUID(id)})
	want := `CREATE INDEX "ce_hnsw_1_abc" ON t ((e::vector(512))) WHERE m = -3 AND t = '01234567-89ab-cdef-0123-456789abcdef'::uuid AND x = vector(512)`
	if err != nil || got != want {
		t.Errorf("render: %q, %v\nwant %q", got, err, want)
	}
	for name, tc := range map[string]struct {
		sql    string
		values map[string]TemplateValue
	}{
		"placeholder without a value": {`SELECT /* TEMPLATE: a */, /* TEMPLATE: b */`, map[string]TemplateValue{"a": TemplateInt(1)}},
		"value without a placeholder": {`SELECT /* TEMPLATE: a */`, map[string]TemplateValue{"a": TemplateInt(1), "b": TemplateInt(2)}},
		"zero value":                  {`SELECT /* TEMPLATE: a */`, map[string]TemplateValue{"a": {}}},
	} {
		if got, err := renderTemplate(tc.sql, tc.values); !errors.Is(err, ErrTemplate) || got != "" {
			t.Errorf("%s: %q, %v; want ErrTemplate and no SQL", name, got, err)
		}
	}
}

// TestTemplateValuesCannotInject: a placeholder's replacement is an integer,
// a uuid literal or a quoted identifier of [a-z0-9_], so no input can close
// a literal or identifier, open a comment or add a statement; free text has
// no constructor.
func TestTemplateValuesCannotInject(t *testing.T) {
	for _, n := range []int64{0, 1, -1, 512, math.MaxInt64, math.MinInt64} {
		if v := TemplateInt(n).text; !regexp.MustCompile(`^-?[0-9]+$`).MatchString(v) {
			t.Errorf("TemplateInt(%d) = %q", n, v)
		}
	}
	for _, id := range []uuid.UUID{uuid.Nil, uuid.New(), uuid.Max} {
		if v := TemplateUUID(id).text; !regexp.MustCompile(`^'[0-9a-f-]{36}'::uuid$`).MatchString(v) {
			t.Errorf("TemplateUUID(%s) = %q", id, v)
		}
	}
	for _, name := range []string{
		``, `x"; DROP TABLE tenants; --`, `x" OR "1`, `a b`, `Tenants`, `1abc`, `ä`, `x-y`, `x/*`, `x--`, "x\x00", `x;`, `'x'`,
		`/* TEMPLATE: dims */`, strings.Repeat("a", 64),
	} {
		if v, err := TemplateIdent(name); !errors.Is(err, ErrTemplate) || v.text != "" {
			t.Errorf("TemplateIdent(%q) = %q, %v; want ErrTemplate", name, v.text, err)
		}
	}
	if v, err := TemplateIdent(strings.Repeat("a", 63)); err != nil || v.text != `"`+strings.Repeat("a", 63)+`"` {
		t.Errorf("63-character identifier: %q, %v", v.text, err)
	}
}

// FuzzTemplateIdent: whatever the input, TemplateIdent either refuses it or
// returns it double-quoted, made of [a-z0-9_] only.
func FuzzTemplateIdent(f *testing.F) {
	for _, s := range []string{"ce_hnsw_1_ab", `a"b`, "a;b", "a b", "", "_", "a\nb"} {
		f.Add(s)
	}
	safe := regexp.MustCompile(`^"[a-z_][a-z0-9_]{0,62}"$`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := TemplateIdent(s)
		if err != nil {
			if v.text != "" {
				t.Fatalf("%q refused but rendered %q", s, v.text)
			}
			return
		}
		if !safe.MatchString(v.text) || v.text != `"`+s+`"` {
			t.Fatalf("%q rendered as %q", s, v.text)
		}
	})
}

func TestVectorLegSQL(t *testing.T) {
	for _, plan := range []VectorPlan{VectorExact, VectorHNSW, VectorFiltered} {
		sql, err := VectorLegSQL(plan, 512, 3)
		if err != nil {
			t.Fatalf("plan %d: %v", plan, err)
		}
		model := "e.model_id = 3\n"
		if plan == VectorFiltered {
			model = "vector_search_filtered($2::uuid, 3::smallint,"
		}
		if strings.Contains(sql, "TEMPLATE") || !strings.Contains(sql, model) {
			t.Errorf("plan %d: placeholders left or model id missing:\n%s", plan, sql)
		}
		// The HNSW plan casts the query once to vector(512) for the exact
		// re-ranking and once, through it, to halfvec(512) for the walk.
		dims, half := strings.Count(sql, "vector(512)"), strings.Count(sql, "halfvec(512)")
		if (plan == VectorHNSW) != (dims == 2 && half == 2) || (plan != VectorHNSW && dims+half != 0) {
			t.Errorf("plan %d: %d typmods vector(512), %d halfvec(512):\n%s", plan, dims, half, sql)
		}
	}
	for _, tc := range []struct {
		plan  VectorPlan
		dims  int
		model int16
	}{{VectorHNSW, 0, 1}, {VectorHNSW, -512, 1}, {VectorHNSW, maxDims + 1, 1}, {VectorExact, 512, 0}, {VectorExact, 512, -1}, {VectorPlan(9), 512, 1}} {
		if sql, err := VectorLegSQL(tc.plan, tc.dims, tc.model); !errors.Is(err, ErrTemplate) || sql != "" {
			t.Errorf("VectorLegSQL(%d, %d, %d) = %q, %v; want ErrTemplate", tc.plan, tc.dims, tc.model, sql, err)
		}
	}
}

func TestVectorIndexDDL(t *testing.T) {
	tenant := uuid.MustParse("01234567-89ab-cdef-0123-456789abcdef")
	got, err := CreateVectorIndexSQL("ce_hnsw_2_0123456789abcdef0123456789abcdef", 384, 2, tenant, true)
	want := `CREATE INDEX CONCURRENTLY IF NOT EXISTS "ce_hnsw_2_0123456789abcdef0123456789abcdef" ON chunk_embeddings
    USING hnsw ((embedding::halfvec(384)) halfvec_cosine_ops) WITH (m = 16, ef_construction = 128)
    WHERE model_id = 2 AND tenant_id = '01234567-89ab-cdef-0123-456789abcdef'::uuid`
	if err != nil || got != want {
		t.Errorf("create: %q, %v\nwant %q", got, err, want)
	}
	if got, err := CreateVectorIndexSQL("ix", 384, 2, tenant, false); err != nil || !strings.HasPrefix(got, `CREATE INDEX IF NOT EXISTS "ix" ON`) {
		t.Errorf("plain create: %q, %v", got, err)
	}
	for _, tc := range []struct {
		name  string
		dims  int
		model int16
	}{{`ix" ON tenants (id); DROP TABLE tenants; --`, 384, 2}, {"ix", 0, 2}, {"ix", MaxIndexDims + 1, 2}, {"ix", 384, 0}} {
		if got, err := CreateVectorIndexSQL(tc.name, tc.dims, tc.model, tenant, true); !errors.Is(err, ErrTemplate) || got != "" {
			t.Errorf("CreateVectorIndexSQL(%q, %d, %d) = %q, %v; want ErrTemplate", tc.name, tc.dims, tc.model, got, err)
		}
	}
	// DropIndex refuses a name that is not a plain identifier before it
	// reaches the database (db is nil: it is never used).
	if err := DropIndex(t.Context(), nil, `ix"; DROP TABLE tenants; --`, true); !errors.Is(err, ErrTemplate) {
		t.Errorf("DropIndex of an injected name: %v, want ErrTemplate", err)
	}
}
