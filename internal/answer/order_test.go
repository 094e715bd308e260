package answer

import (
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// An extractive answer numbers its sources in the order it quotes them: its
// markers read [1], [2], … in order of first use, each citation names the
// source it quotes, and the sources it does not quote follow in their
// given order.
func TestExtractiveNumbersSourcesInReadingOrder(t *testing.T) {
	t.Parallel()
	src := []Source{
		{ChunkID: "a", Content: "Autovacuum runs VACUUM in the background when enough dead tuples accumulate."},
		{ChunkID: "b", Content: "Unrelated text about bread, flour and ovens."},
		{ChunkID: "c", Content: "VACUUM reclaims storage occupied by dead tuples. A plain VACUUM can run in parallel with reads and writes."},
	}
	r := Extractive("How does VACUUM reclaim storage of dead tuples?", src, 2)
	if r.Refused || len(r.Citations) < 2 {
		t.Fatalf("answer %q with citations %+v: want the quoted source and a supporting one", r.Answer, r.Citations)
	}
	marker := regexp.MustCompile(`\[(\d+)\]`)
	var firstUse []int
	for _, m := range marker.FindAllStringSubmatch(r.Answer, -1) {
		n, _ := strconv.Atoi(m[1])
		if !slices.Contains(firstUse, n) {
			firstUse = append(firstUse, n)
		}
	}
	for i, n := range firstUse {
		if n != i+1 {
			t.Fatalf("markers first used in the order %v in %q, want 1, 2, …", firstUse, r.Answer)
		}
	}
	// The quoted source is the given third ("c"), the support the first
	// ("a"); the unquoted "b" comes last.
	if !slices.Equal(r.Order, []int{2, 0, 1}) {
		t.Errorf("Order = %v, want [2 0 1]", r.Order)
	}
	presented := reorder(src, r.Order)
	for _, c := range r.Citations {
		if c.ChunkID != presented[c.N-1].ChunkID || presented[c.N-1].N != c.N {
			t.Errorf("citation %d names chunk %q, the presented source %d is %q (N %d)", c.N, c.ChunkID, c.N, presented[c.N-1].ChunkID, presented[c.N-1].N)
		}
	}
	if clean, cited, invalid := Verify(r.Answer, presented); clean != r.Answer || !slices.Equal(cited, []int{1, 2}) || len(invalid) != 0 {
		t.Errorf("the answer does not verify against the sources as presented: %v %v", cited, invalid)
	}
}

func TestNumberInOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cited         []int
		n             int
		order, number []int
	}{
		{[]int{1, 2}, 3, nil, []int{1, 2, 3}},
		{[]int{2}, 3, []int{1, 0, 2}, []int{2, 1, 3}},
		{[]int{3, 1}, 4, []int{2, 0, 1, 3}, []int{2, 3, 1, 4}},
		{[]int{2, 2, 4}, 4, []int{1, 3, 0, 2}, []int{3, 1, 4, 2}},
	} {
		order, number := numberInOrder(tc.cited, tc.n)
		if !slices.Equal(order, tc.order) || !slices.Equal(number, tc.number) {
			t.Errorf("numberInOrder(%v, %d) = %v, %v; want %v, %v", tc.cited, tc.n, order, number, tc.order, tc.number)
		}
	}
}
