package search

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/tenant"
)

func ids(n int) []uuid.UUID {
	out := make([]uuid.UUID, n)
	for i := range out {
		out[i] = uuid.MustParse("00000000-0000-0000-0000-00000000000" + string(rune('a'+i)))
	}
	return out
}

func order(fs []Fused) []uuid.UUID {
	out := make([]uuid.UUID, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

func sameOrder(t *testing.T, got, want []uuid.UUID) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d ids, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("position %d: got %v, want %v (all: %v)", i, got[i], want[i], got)
		}
	}
}

func TestFuseRRFByHand(t *testing.T) {
	id := ids(3)
	// a: 1/(10+1) + 1/(10+2); b: 1/(10+2); c: 1/(10+1)
	got := Fuse(10, []Ranking{{Weight: 1, IDs: []uuid.UUID{id[0], id[1]}}, {Weight: 1, IDs: []uuid.UUID{id[2], id[0]}}})
	sameOrder(t, order(got), []uuid.UUID{id[0], id[2], id[1]})
	if want := 1.0/11 + 1.0/12; math.Abs(got[0].Score-want) > 1e-12 {
		t.Fatalf("score %v, want %v", got[0].Score, want)
	}
	// A leg at weight 0 is ignored.
	got = Fuse(60, []Ranking{{Weight: 0, IDs: []uuid.UUID{id[1]}}, {Weight: 1, IDs: []uuid.UUID{id[0]}}})
	sameOrder(t, order(got), []uuid.UUID{id[0]})
}

func TestFuseConvexByHand(t *testing.T) {
	id := ids(4)
	vector := []Scored{{ID: id[0], Value: 0.2}, {ID: id[1], Value: 0.3}, {ID: id[2], Value: 0.6}} // similarities 0.8, 0.7, 0.4
	keyword := []Scored{{ID: id[2], Value: 10}, {ID: id[3], Value: 5}}
	got := FuseConvex(1, 1, 0, vector, keyword)
	// V: a 1, b 0.75, c 0; K: c 1, d 0.5; halves.
	want := map[uuid.UUID]float64{id[0]: 0.5, id[1]: 0.375, id[2]: 0.5, id[3]: 0.25}
	for _, f := range got {
		if math.Abs(f.Score-want[f.ID]) > 1e-12 {
			t.Fatalf("%v: score %v, want %v", f.ID, f.Score, want[f.ID])
		}
	}
	// a and c tie at 0.5: both rank 1 in a leg, so the id decides.
	sameOrder(t, order(got), []uuid.UUID{id[0], id[2], id[1], id[3]})

	// A weak vector leg at weight 0.25 only reorders near ties of the
	// keyword leg: the keyword leader stays first.
	got = FuseConvex(0.25, 1, 0, vector, keyword)
	if got[0].ID != id[2] {
		t.Fatalf("weighted: first %v, want the keyword leader %v", got[0].ID, id[2])
	}
	for _, f := range got {
		if f.Score < 0 || f.Score > 1 {
			t.Fatalf("score %v outside [0, 1]", f.Score)
		}
	}
	// Every candidate's vector similarity equal: each gets V = 1.
	flat := FuseConvex(1, 0, 0, []Scored{{ID: id[0], Value: 0.5}, {ID: id[1], Value: 0.5}}, nil)
	if flat[0].Score != 1 || flat[1].Score != 1 {
		t.Fatalf("equal similarities: %+v", flat)
	}
	if FuseConvex(0, 0, 0, vector, keyword) != nil {
		t.Fatal("both weights 0 must fuse nothing")
	}
}

func TestCombineDispatches(t *testing.T) {
	id := ids(3)
	vector := []Scored{{ID: id[0], Value: 0.1}, {ID: id[1], Value: 0.2}}
	keyword := []Scored{{ID: id[1], Value: 3}, {ID: id[2], Value: 2.9}}
	one, k := 1.0, 1.0
	rrf := tenant.Settings{Fusion: FusionRRF, RRFK: 60, VectorWeight: &one, KeywordWeight: &k}.Effective()
	sameOrder(t, order(Combine(rrf, vector, keyword)), order(Fuse(60, []Ranking{{1, []uuid.UUID{id[0], id[1]}}, {1, []uuid.UUID{id[1], id[2]}}})))
	convex := tenant.Settings{}.EffectiveFor(0.25)
	sameOrder(t, order(Combine(convex, vector, keyword)), order(FuseConvex(0.25, 1, tenant.DefaultDocumentWeight, vector, keyword)))
	// One leg empty: the other leg's own order, whatever its weight.
	zero := 0.0
	kwOnly := tenant.Settings{KeywordWeight: &zero}.EffectiveFor(0.25)
	sameOrder(t, order(Combine(kwOnly, nil, keyword)), []uuid.UUID{id[1], id[2]})
	sameOrder(t, order(Combine(convex, vector, nil)), []uuid.UUID{id[0], id[1]})
}

func TestDiversifyCapsPerDocument(t *testing.T) {
	docA, docB := uuid.New(), uuid.New()
	id := ids(5)
	in := []Result{{ChunkID: id[0], DocumentID: docA}, {ChunkID: id[1], DocumentID: docA}, {ChunkID: id[2], DocumentID: docA},
		{ChunkID: id[3], DocumentID: docB}, {ChunkID: id[4], DocumentID: docA}}
	got := Diversify(in, 2)
	var order []uuid.UUID
	for _, r := range got {
		order = append(order, r.ChunkID)
	}
	sameOrder(t, order, []uuid.UUID{id[0], id[1], id[3], id[2], id[4]})
	if len(Diversify(in, 0)) != len(in) || Diversify(in, 0)[2].ChunkID != id[2] {
		t.Fatal("perDoc < 1 must return the input unchanged")
	}
}

// TestDiversifyKeepsAStrongDocumentAheadOfWeakOthers: the chunks of one
// document over the cap go after other documents' chunks that score about
// as well, not after unrelated ones at a fraction of their score (a tenant
// whose answer is one PDF manual).
func TestDiversifyKeepsAStrongDocumentAheadOfWeakOthers(t *testing.T) {
	id := ids(6)
	manual, faq, other := uuid.New(), uuid.New(), uuid.New()
	in := []Result{{ChunkID: id[0], DocumentID: manual, Score: 2.3}, {ChunkID: id[1], DocumentID: manual, Score: 2.25},
		{ChunkID: id[2], DocumentID: manual, Score: 2.2}, {ChunkID: id[3], DocumentID: faq, Score: 1.7},
		{ChunkID: id[4], DocumentID: manual, Score: 1.4}, {ChunkID: id[5], DocumentID: other, Score: 0.1}}
	var order []uuid.UUID
	for _, r := range Diversify(in, 2) {
		order = append(order, r.ChunkID)
	}
	// id2, the third of its page, counts 0.75·2.2 = 1.65 and yields to the
	// FAQ (1.7), not to the unrelated page; id4 counts 0.75²·1.4 = 0.79,
	// still ahead of the unrelated page (0.1).
	sameOrder(t, order, []uuid.UUID{id[0], id[1], id[3], id[2], id[4], id[5]})
}

func TestFuseConvexDocumentEvidence(t *testing.T) {
	id := ids(4)
	page, other := uuid.New(), uuid.New()
	// The other page has the single best chunk; the page has three good ones.
	keyword := []Scored{{ID: id[0], Doc: other, Value: 10}, {ID: id[1], Doc: page, Value: 9}, {ID: id[2], Doc: page, Value: 8}, {ID: id[3], Doc: page, Value: 8}}
	alone := FuseConvex(0, 1, 0, nil, keyword)
	if alone[0].ID != id[0] {
		t.Fatalf("without document evidence the best chunk leads: %v", order(alone))
	}
	got := FuseConvex(0, 1, 0.2, nil, keyword)
	// id1: (0.9 + 0.2·√1.6) / 1.2 = 0.9608 > id0: 1/1.2 (the others' sum,
	// 1.6, is above 1: its square root counts).
	if got[0].ID != id[1] {
		t.Fatalf("with document evidence the page's best chunk leads: %v", order(got))
	}
	if want := (0.9 + 0.2*math.Sqrt(1.6)) / 1.2; math.Abs(got[0].Score-want) > 1e-12 {
		t.Fatalf("score %v, want %v", got[0].Score, want)
	}
	// Within the page, chunks keep their own order.
	if got[1].ID != id[2] && got[1].ID != id[3] {
		t.Fatalf("second: %v", order(got))
	}
}

// TestFuseConvexDocumentEvidenceSaturates: a long page whose many chunks
// each match the question a little does not outrank a page with a far
// better chunk: its chunks' evidence counts under a square root. (Summed as
// it is, 30 other chunks at 0.2 gave the long page's best chunk (0.4 +
// 0.2·6) / 1.2 = 1.33, above the answer's 1/1.2; now (0.4 + 0.2·√6) / 1.2
// = 0.74.)
func TestFuseConvexDocumentEvidenceSaturates(t *testing.T) {
	answer, long := uuid.New(), uuid.New()
	keyword := []Scored{{ID: uuid.New(), Doc: answer, Value: 10}, {ID: uuid.New(), Doc: long, Value: 4}}
	for range 30 {
		keyword = append(keyword, Scored{ID: uuid.New(), Doc: long, Value: 2})
	}
	got := FuseConvex(0, 1, 0.2, nil, keyword)
	if got[0].ID != keyword[0].ID {
		t.Fatalf("the long page's chunk %v leads the answer (%v)", got[0], keyword[0].ID)
	}
}

// TestFuseConvexDocumentEvidenceBeyondChance: a page that is a large share
// of the tenant holds many of any question's candidates by chance; only
// its chunks beyond that count as evidence. 50 candidates: the answer's
// chunk at 0.9 of the best score, a page of 30% of the tenant with its
// best chunk at 0.75 and 20 more at 0.5, others at 0.3. Summed, the big
// page's evidence (√10) put its chunk first, (0.75 + 0.2·√10) / 1.2 = 1.15
// against (0.9 + 0) / 1.2; divided by the 15 chunks it would hold by
// chance, (0.75 + 0.2·10/15) / 1.2 = 0.74 against 0.75. A page of ordinary
// size gets its evidence as before.
func TestFuseConvexDocumentEvidenceBeyondChance(t *testing.T) {
	answer, big := uuid.New(), uuid.New()
	keyword := []Scored{{ID: uuid.New(), Doc: uuid.New(), Value: 1, DocShare: 0.001},
		{ID: uuid.New(), Doc: answer, Value: 0.9, DocShare: 0.001}, {ID: uuid.New(), Doc: big, Value: 0.75, DocShare: 0.3}}
	for range 20 {
		keyword = append(keyword, Scored{ID: uuid.New(), Doc: big, Value: 0.5, DocShare: 0.3})
	}
	for len(keyword) < 50 {
		keyword = append(keyword, Scored{ID: uuid.New(), Doc: uuid.New(), Value: 0.3, DocShare: 0.001})
	}
	pos := func(fs []Fused, id uuid.UUID) int {
		for i, f := range fs {
			if f.ID == id {
				return i
			}
		}
		return -1
	}
	got := FuseConvex(0, 1, 0.2, nil, keyword)
	if pos(got, keyword[1].ID) > pos(got, keyword[2].ID) {
		t.Fatalf("the big page's chunk (%d) leads the answer (%d)", pos(got, keyword[2].ID), pos(got, keyword[1].ID))
	}
	if want := (0.75 + 0.2*10.0/15) / 1.2; math.Abs(got[pos(got, keyword[2].ID)].Score-want) > 1e-12 {
		t.Errorf("the big page's chunk scores %v, want %v", got[pos(got, keyword[2].ID)].Score, want)
	}
	// The same page as an ordinary share of a large tenant: evidence as
	// before, √10.
	for i := range keyword {
		if keyword[i].Doc == big {
			keyword[i].DocShare = 0.01
		}
	}
	got = FuseConvex(0, 1, 0.2, nil, keyword)
	if want := (0.75 + 0.2*math.Sqrt(10)) / 1.2; got[0].ID != keyword[2].ID || math.Abs(got[0].Score-want) > 1e-12 {
		t.Errorf("an ordinary page's evidence changed: first %v %v, want %v at %v", got[0].ID, got[0].Score, keyword[2].ID, want)
	}
}

// TestSearcherSharedAcrossRequests: one Searcher serves concurrent requests
// with its zero fields meaning the defaults; nothing a request does writes
// it (run under -race in CI, where a write here is reported).
func TestSearcherSharedAcrossRequests(t *testing.T) {
	s := &Searcher{}
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func() {
			req := Request{Query: " how do I rotate keys ", TopK: 0}
			err := s.Validate(&req)
			if err == nil && (req.TopK != DefaultTopK || req.Query != "how do I rotate keys") {
				err = errors.New("request not normalised")
			}
			_ = s.Settings(tenant.Tenant{}, nil)
			_ = s.DocumentCap() + s.PerTermCap()
			done <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if *s != (Searcher{}) {
		t.Fatalf("the searcher was written: %+v", *s)
	}
}

// A query that Unicode normalisation lengthens past the limit is refused
// with both counts: the client sent 100 characters, not the 300 searched.
func TestValidateNamesTheLengthAsSent(t *testing.T) {
	s := &Searcher{MaxQueryChars: 200}
	req := Request{Query: strings.Repeat("\ufb2c", 100)}
	err := s.Validate(&req)
	if !errors.Is(err, ErrQueryTooLong) || !strings.Contains(err.Error(), "300 characters after Unicode normalisation (100 as sent), the limit is 200") {
		t.Fatalf("err = %v", err)
	}
	req = Request{Query: strings.Repeat("a", 201)}
	if err := s.Validate(&req); !errors.Is(err, ErrQueryTooLong) || !strings.Contains(err.Error(), ": 201 characters, the limit is 200") {
		t.Fatalf("err = %v", err)
	}
}

// TestDiversifyKeepsAWellScoredChunkNearItsScore: a page's third chunk
// that outscores every other page's stays ahead of chunks at a fraction
// of its score (the SSL section of a server page, held back behind
// chunks at a ninth of its score, reached no answer), and a long page
// still cannot fill the top: each chunk over the cap counts less.
func TestDiversifyKeepsAWellScoredChunkNearItsScore(t *testing.T) {
	id := make([]uuid.UUID, 11)
	for i := range id {
		id[i] = uuid.New()
	}
	page, proxy, deploy := uuid.New(), uuid.New(), uuid.New()
	in := []Result{{ChunkID: id[0], DocumentID: page, Score: 1.02}, {ChunkID: id[1], DocumentID: page, Score: 0.87},
		{ChunkID: id[2], DocumentID: page, Score: 0.85}, {ChunkID: id[3], DocumentID: proxy, Score: 0.55},
		{ChunkID: id[4], DocumentID: deploy, Score: 0.30}, {ChunkID: id[5], DocumentID: deploy, Score: 0.10}}
	var order []uuid.UUID
	for _, r := range Diversify(in, 2) {
		order = append(order, r.ChunkID)
	}
	sameOrder(t, order, []uuid.UUID{id[0], id[1], id[2], id[3], id[4], id[5]})

	long, other := uuid.New(), uuid.New()
	in = nil
	for i := range 10 {
		in = append(in, Result{ChunkID: id[i], DocumentID: long, Score: 1})
	}
	in = append(in, Result{ChunkID: id[10], DocumentID: other, Score: 0.3})
	got := Diversify(in, 2)
	// Over the cap the page's chunks count 0.75, 0.56, 0.42, 0.32, then
	// 0.24 < 0.3: the other page is seventh, not eleventh.
	if got[6].ChunkID != id[10] {
		var o []uuid.UUID
		for _, r := range got {
			o = append(o, r.ChunkID)
		}
		t.Fatalf("the other page is not seventh: %v", o)
	}
	// The first chunk of every document keeps its relative order, and
	// nothing is dropped.
	if len(got) != len(in) || got[0].ChunkID != id[0] {
		t.Fatalf("Diversify dropped or reordered first chunks: %d results", len(got))
	}
}
