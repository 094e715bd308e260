package bench

import (
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// The synthetic corpus. Everything here is a pure function of the Config and
// its Seed, so a corpus found in the bench database can be reused by a later
// run without reading it back.

// tenantSizes splits chunks over tenants by a Zipf law: tenant i (0-based) gets
// a share ∝ (i+1)^-s, with s chosen so that the largest tenant holds the
// fraction largest of the rows (0.2: with 1,000 tenants s ≈ 1.15 and the
// smallest tenant holds about 0.007 %). Every tenant gets at least one chunk;
// the sizes sum to chunks and are non-increasing.
func tenantSizes(chunks, tenants int, largest float64) []int {
	if tenants < 1 || chunks < tenants {
		return nil
	}
	share := func(s float64) []float64 {
		w := make([]float64, tenants)
		var sum float64
		for i := range w {
			w[i] = math.Pow(float64(i+1), -s)
			sum += w[i]
		}
		for i := range w {
			w[i] /= sum
		}
		return w
	}
	// The largest share grows with s (1/T at s = 0); bisect for largest.
	lo, hi := 0.0, 8.0
	for range 60 {
		mid := (lo + hi) / 2
		if share(mid)[0] < largest {
			lo = mid
		} else {
			hi = mid
		}
	}
	w := share(lo)
	sizes := make([]int, tenants)
	left := chunks
	for i := range sizes {
		sizes[i] = max(1, int(math.Floor(w[i]*float64(chunks))))
		left -= sizes[i]
	}
	// Hand out the rounding remainder (or take back the excess) from the
	// largest tenants down, keeping every tenant at one chunk or more.
	for i := 0; left != 0; i = (i + 1) % tenants {
		switch {
		case left > 0:
			sizes[i]++
			left--
		case sizes[i] > 1:
			sizes[i]--
			left++
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(sizes)))
	return sizes
}

// stopWords head the vocabulary, as in English text: to_tsvector drops them,
// so they shape the text's length and the questions, never the postings.
var stopWords = strings.Fields(`the of and to a in is that for it as with was on be by this are or from at an
not which but have has can if will when all its into more other than may also only each such these how what`)

// syllables make the pseudo-words of the vocabulary: pronounceable,
// distinct, and split into several pieces by the model's tokenizer, as rare
// words are.
var syllables = strings.Fields(`ka lo mi ren tus vel dor sa pi qua ne zor bri est gal hum ix jo kel lun
mar nor ost pra rim sol tek ur vin wex yal zen cor dal fen gri hob ist jun`)

// vocabulary is a Zipfian vocabulary: word r (0-based rank) is drawn with
// probability ∝ 1/(r+1). The first len(stopWords) ranks are English stop
// words, the rest pseudo-words.
type vocabulary struct {
	words []string
	cdf   []float64
}

func newVocabulary(size int, seed uint64) *vocabulary {
	r := rand.New(rand.NewPCG(seed, 0xc0ffee))
	v := &vocabulary{words: make([]string, 0, size), cdf: make([]float64, size)}
	seen := map[string]bool{}
	for _, w := range stopWords {
		v.words = append(v.words, w)
		seen[w] = true
	}
	for len(v.words) < size {
		n := 2 + r.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			v.words = append(v.words, w)
		}
	}
	var sum float64
	for i := range v.cdf {
		sum += 1 / float64(i+1)
		v.cdf[i] = sum
	}
	for i := range v.cdf {
		v.cdf[i] /= sum
	}
	return v
}

// draw returns a word at its Zipf frequency.
func (v *vocabulary) draw(r *rand.Rand) string {
	return v.words[sort.SearchFloat64s(v.cdf, r.Float64())]
}

// inRange returns a uniformly drawn word of rank [lo, hi).
func (v *vocabulary) inRange(r *rand.Rand, lo, hi int) string {
	hi = min(hi, len(v.words))
	return v.words[lo+r.IntN(hi-lo)]
}

// Vocabulary bands used by the questions (ranks).
const (
	commonLo, commonHi = 50, 150    // the most frequent content words: long posting lists
	midLo, midHi       = 500, 5000  // ordinary words
	rareLo             = 10000      // rare words: short posting lists
	topicWords         = 40         // words per cluster topic
	topicBase          = 1000       // the topic words' first rank
	topicShare         = 0.15       // share of a chunk's words from its cluster's topic
	headingWords       = 3          // words per heading
	vocabularySize     = 50000      // words
	clusterRowsTarget  = 250        // rows per cluster, on average
	tenantClusterRows  = 200        // rows per cluster of a tenant, on average
	noiseCosine        = 0.75       // a row's cosine to its cluster centre, on average
	maxClusters        = 4096       // cluster centres at most
	minClusters        = 16         // cluster centres at least
	minTenantClusters  = 2          // clusters per tenant at least
	refLimit           = 20         // the reference query's per-leg LIMIT
	benchTopK          = 5          // results per hybrid search (the prompt's top 5)
	recallK            = 20         // recall@20
	generatorVersion   = "bench/v1" // part of the corpus fingerprint
)

// topic returns word j of cluster k's topic.
func (v *vocabulary) topic(k, j int) string {
	return v.words[(topicBase+k*topicWords+j)%(len(v.words)-topicBase)+topicBase]
}

// space is the vector space: cluster centres shared by all tenants, and each
// tenant's subset of them.
type space struct {
	dims    int
	sigma   float64 // per-component noise
	centers [][]float32
	tenant  [][]int // cluster ids per tenant
}

func newSpace(dims int, sizes []int, seed uint64) *space {
	total := 0
	for _, n := range sizes {
		total += n
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	s := &space{dims: dims, centers: make([][]float32, min(maxClusters, max(minClusters, total/clusterRowsTarget)))}
	// cosine c between a unit centre and centre + noise of norm σ√d:
	// c = 1/√(1 + σ²d)  ⇒  σ = √((1/c² − 1)/d).
	s.sigma = math.Sqrt((1/(noiseCosine*noiseCosine) - 1) / float64(dims))
	for i := range s.centers {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		s.centers[i] = normalize(v)
	}
	s.tenant = make([][]int, len(sizes))
	for t, n := range sizes {
		k := min(len(s.centers), max(minTenantClusters, n/tenantClusterRows))
		s.tenant[t] = r.Perm(len(s.centers))[:k]
	}
	return s
}

// point returns a unit vector near centre k.
func (s *space) point(r *rand.Rand, k int) []float32 {
	v := make([]float32, s.dims)
	for j, c := range s.centers[k] {
		v[j] = c + float32(r.NormFloat64()*s.sigma)
	}
	return normalize(v)
}

func normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// chunkRow is one generated chunk with its embedding.
type chunkRow struct {
	heading string
	content string
	vector  []float32
	sha     []byte
	tokens  int
}

// gen generates one tenant's chunks deterministically (its own stream).
type gen struct {
	v     *vocabulary
	s     *space
	words int // mean words per chunk
}

// chunks returns chunk rows [from, to) of tenant t.
func (g *gen) chunks(seed uint64, t, from, to int) []chunkRow {
	out := make([]chunkRow, 0, to-from)
	for i := from; i < to; i++ {
		r := rand.New(rand.NewPCG(seed^uint64(t)<<32, uint64(i)))
		k := g.s.tenant[t][r.IntN(len(g.s.tenant[t]))]
		var h strings.Builder
		for j := range headingWords {
			if j > 0 {
				h.WriteByte(' ')
			}
			h.WriteString(g.v.topic(k, r.IntN(topicWords)))
		}
		n := g.words/2 + r.IntN(g.words+1) // uniform in [words/2, 3·words/2]
		var b strings.Builder
		for j := range n {
			if j > 0 {
				if j%12 == 0 {
					b.WriteString(". ")
				} else {
					b.WriteByte(' ')
				}
			}
			if r.Float64() < topicShare {
				b.WriteString(g.v.topic(k, r.IntN(topicWords)))
			} else {
				b.WriteString(g.v.draw(r))
			}
		}
		b.WriteByte('.')
		text := h.String() + "\n" + b.String()
		sum := sha256.Sum256([]byte(text))
		out = append(out, chunkRow{heading: h.String(), content: b.String(), vector: g.s.point(r, k), sha: sum[:], tokens: n})
	}
	return out
}

// query is one benchmark question for a tenant.
type query struct {
	tenant int // index in the plan
	text   string
	common string // a common-term keyword question
	vector []float32
}

// question returns a question-like text for cluster k: stop words, one topic
// word, one common, one ordinary and one rare word — so the keyword leg meets
// a long posting list, short ones and terms the tenant may not have at all.
func (g *gen) question(r *rand.Rand, k int) string {
	starts := []string{"how does the", "what is the", "when can a", "which of the", "is it possible for the"}
	return fmt.Sprintf("%s %s %s with %s %s", starts[r.IntN(len(starts))],
		g.v.topic(k, r.IntN(topicWords)), g.v.inRange(r, commonLo, commonHi), g.v.inRange(r, midLo, midHi), g.v.inRange(r, rareLo, len(g.v.words)))
}

// commonQuestion returns three of the most frequent content words: the
// keyword leg's worst case, every term with a posting list of a large
// fraction of the tenant's chunks.
func (g *gen) commonQuestion(r *rand.Rand) string {
	return fmt.Sprintf("%s %s %s", g.v.inRange(r, commonLo, commonHi), g.v.inRange(r, commonLo, commonHi), g.v.inRange(r, commonLo, commonHi))
}
