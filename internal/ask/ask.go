// Package ask answers a tenant's question end to end: hybrid retrieval
// (package search) → refusal when retrieval is weak → numbered sources → a
// cited answer (package answer: LLM with verified citations, or extractive).
package ask

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// DefaultSources is how many retrieved chunks go into the prompt.
const DefaultSources = 5

// Refusal reasons.
const (
	ReasonNoResults     = "no_results"
	ReasonLowConfidence = "low_retrieval_confidence"
	ReasonNotInSources  = "not_in_sources"
	ReasonUnsupported   = "unsupported_answer"
)

// Response is the answer contract: either an answer whose every citation
// names a given source, or Refused with answer.RefusalPhrase.
type Response struct {
	Answer        string            `json:"answer"`
	Refused       bool              `json:"refused"`
	RefusalReason string            `json:"refusal_reason,omitempty"`
	Citations     []answer.Citation `json:"citations"`
	// Sources are the sources given to the answerer, numbered from 1 (with
	// an extractive answerer, each widened to its neighbouring chunks).
	Sources          []answer.Source `json:"sources"`
	InvalidCitations []int           `json:"invalid_citations"`
	Mode             string          `json:"mode"`
	// Degraded: ragd answered without a leg or a provider: a provider failed
	// (embedding → keyword leg only; rerank → fused order; LLM → extractive
	// answer), or the embedding model does not represent the question's
	// script (keyword leg only).
	Degraded bool `json:"degraded"`
	// DegradedReasons says which and why, one entry per leg or stage left
	// out (search.Response.DegradedReasons, then LegLLM).
	DegradedReasons []search.Degradation `json:"degraded_reasons"`
	// Confidence is the retrieval confidence the refusal was decided on: the
	// estimated probability that the documents answer the question.
	Confidence float64 `json:"confidence"`
	// ConfidenceReason says in words why Confidence is low (e.g. no document
	// mentions “MongoDB”), or why the passages found do not answer (a
	// not_in_sources refusal: "the passages found give no number, which the
	// question asks for"); empty when neither.
	ConfidenceReason string `json:"confidence_reason,omitempty"`
	// MissingTerms are the question's names and identifiers that no
	// document of the tenant contains (search.Response.MissingTerms).
	MissingTerms []string `json:"missing_terms,omitempty"`
	// RefuseBelow is the tenant's threshold that Confidence was compared with.
	RefuseBelow float64 `json:"refuse_below"`
	// Timings are milliseconds per stage: the search's stages
	// (search.Response.Timings: embed, retrieve, fuse, rerank, …) and
	// "answer", the answerer's time (absent when retrieval already decided
	// a refusal).
	Timings map[string]float64 `json:"timings_ms"`
	// Retrieved are the search results the sources were taken from, with
	// each leg's rank and score (recorded in retrieval events).
	Retrieved []search.Result `json:"-"`
}

// LegLLM names answer generation in a search.Degradation: the LLM failed
// and the answer was extracted from the sources instead.
const LegLLM search.Leg = "llm"

// Service answers questions. Fields are read-only after construction.
type Service struct {
	Searcher *search.Searcher
	Answerer *answer.Answerer
	// Sources is the number of chunks in the prompt (default DefaultSources).
	Sources int
}

// Ask answers req.Query for tenant t from the sources req retrieves: its
// filters (source_uri prefix, metadata) apply as in search, and req.TopK (0
// = Sources) bounds the sources; sources under the relevance floor
// (DropWeak) are dropped rather than padding the list to TopK, the first
// one never. req.Only, if set, is honoured as in search.
// onDelta, when non-nil, receives the answer text as it is generated (the
// final Response is still authoritative: citations are verified after
// generation, and a refusal replaces streamed text). Errors: search's
// validation errors (search.ErrEmptyQuery, ErrQueryTooLong, ErrBadTopK) and
// store errors; provider failures degrade instead of failing.
func (s *Service) Ask(ctx context.Context, t tenant.Tenant, req search.Request, onDelta func(string) error) (Response, error) {
	// The question in the form the documents are stored in (the answerer
	// matches its words against theirs).
	req.Query = analyze.Question(req.Query)
	question := req.Query
	if req.TopK <= 0 {
		req.TopK = s.Sources
		if req.TopK <= 0 {
			req.TopK = DefaultSources
		}
	}
	// Twice the sources are searched for (within the largest top_k; a
	// larger one stays the search's error), so that copies of a passage
	// (distinct) do not take the places of other sources.
	topK := req.TopK
	if limit := s.Searcher.TopKCap(); topK <= limit {
		req.TopK = min(2*topK, limit)
	}
	res, err := s.Searcher.Search(ctx, t, req)
	if err != nil {
		return Response{}, err
	}
	res.Results = distinct(res.Results)
	res.Results = res.Results[:min(topK, len(res.Results))]
	set := s.Searcher.Settings(t, nil)
	out := Response{Citations: []answer.Citation{}, Sources: []answer.Source{}, InvalidCitations: []int{}, Degraded: res.Degraded,
		DegradedReasons: res.DegradedReasons, Confidence: res.Confidence, ConfidenceReason: res.ConfidenceReason, MissingTerms: res.MissingTerms, RefuseBelow: *set.RefuseBelow,
		Mode: answer.ModeExtractive, Timings: maps.Clone(res.Timings), Retrieved: res.Results}
	if out.Timings == nil {
		out.Timings = map[string]float64{}
	}
	if out.DegradedReasons == nil {
		out.DegradedReasons = []search.Degradation{} // [] as the API prints it, not null
	}
	refuse := func(reason string) (Response, error) {
		out.Answer, out.Refused, out.RefusalReason = answer.RefusalPhrase, true, reason
		out.Citations = []answer.Citation{}
		return out, nil
	}
	if len(res.Results) == 0 {
		return refuse(ReasonNoResults)
	}
	res.Results = DropWeak(question, res.Results)
	var nbs []*neighbourhood
	var extras []sourceExtras
	if !s.Answerer.Generative() {
		if res.Results, nbs, extras, err = s.widen(ctx, t, res.Results); err != nil {
			return Response{}, err
		}
	}
	srcs := make([]answer.Source, len(res.Results))
	changes := search.AsksAboutChanges(question)
	for i, r := range res.Results {
		srcs[i] = answer.Source{N: i + 1, ChunkID: r.ChunkID.String(), DocumentID: r.DocumentID.String(), SourceURI: r.SourceURI,
			Title: r.Title, HeadingPath: r.HeadingPath, Content: r.Content, StartOffset: r.StartOffset, EndOffset: r.EndOffset,
			PageStart: r.PageStart, PageEnd: r.PageEnd, Anchor: r.Anchor, Aside: !changes && search.ChangelogChunk(r)}
		if i < len(extras) {
			srcs[i].Code, srcs[i].Titles = extras[i].code, extras[i].titles
		}
		if i < len(nbs) && nbs[i] != nil && len(nbs[i].parts) > 1 {
			for _, p := range nbs[i].parts {
				srcs[i].ChunkIDs = append(srcs[i].ChunkIDs, p.id)
			}
		}
	}
	out.Sources = srcs
	if res.Confidence < *set.RefuseBelow {
		return refuse(ReasonLowConfidence)
	}
	var ar answer.Result
	start := time.Now()
	if onDelta != nil {
		ar, err = s.Answerer.AnswerStream(ctx, question, srcs, onDelta)
	} else {
		ar, err = s.Answerer.Answer(ctx, question, srcs)
	}
	out.Timings["answer"] = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return Response{}, fmt.Errorf("ask: %w", err)
	}
	out.Mode = ar.Mode
	if ar.Degraded {
		out.Degraded = true
		out.DegradedReasons = append(out.DegradedReasons, search.Degradation{Leg: LegLLM,
			Reason: "the LLM failed; the answer quotes the sources instead"})
	}
	out.InvalidCitations = append(out.InvalidCitations, ar.InvalidCitations...)
	if ar.Refused {
		if ar.Unsupported {
			return refuse(ReasonUnsupported)
		}
		if ar.Reason != "" {
			out.ConfidenceReason = ar.Reason
		}
		return refuse(ReasonNotInSources)
	}
	out.Answer, out.Citations = ar.Answer, ar.Citations
	if ar.Order != nil {
		// The extractive answer numbers its sources in the order it
		// quotes them: the sources are presented in that order.
		srcs, nbs = inOrder(srcs, ar.Order), inOrder(nbs, ar.Order)
		for i := range srcs {
			srcs[i].N = i + 1
		}
		out.Sources = srcs
	}
	if ar.Mode == answer.ModeExtractive {
		citeQuoted(out.Answer, out.Citations, srcs, nbs)
	}
	return out, nil
}

// widen replaces each result's text with its neighbourhood in the document:
// from the start of the chunk before it to the end of the chunk after it
// when they continue its section (ChunkNeighbourhoods says which do),
// offsets updated to match. The extractive answer
// quotes contiguous passages, and the sentence that names a passage's
// subject, or the command it introduces, is often just across a chunk
// boundary; an LLM gets the chunks as retrieved. A result whose neighbourhood
// is missing (deleted meanwhile) keeps its chunk. As for a chunk, a
// neighbourhood that starts inside a table begins with the table's header
// row(s), which are not part of [StartOffset, EndOffset). A result whose
// chunk an earlier result's neighbourhood already holds is left out. The
// third result is each kept result's code ranges and section titles
// (answer.Source.Code, answer.Source.Titles).
func (s *Service) widen(ctx context.Context, t tenant.Tenant, rs []search.Result) ([]search.Result, []*neighbourhood, []sourceExtras, error) {
	ids := make([]uuid.UUID, len(rs))
	for i, r := range rs {
		ids[i] = r.ChunkID
	}
	var rows []store.ChunkNeighbourhoodsRow
	err := store.InTenant(ctx, s.Searcher.Pool, t.ID, func(tx pgx.Tx) error {
		var err error
		rows, err = store.New().ChunkNeighbourhoods(ctx, tx, store.ChunkNeighbourhoodsParams{TenantID: t.ID, ChunkIds: ids})
		return err
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ask: chunk neighbourhoods: %w", err)
	}
	by := make(map[uuid.UUID]store.ChunkNeighbourhoodsRow, len(rows))
	for _, row := range rows {
		by[row.ChunkID] = row
	}
	out := make([]search.Result, len(rs))
	nbs := make([]*neighbourhood, len(rs))
	extras := make([]sourceExtras, len(rs))
	for i, r := range rs {
		n, ok := by[r.ChunkID]
		if ok && strings.TrimSpace(n.Body) != "" && len(n.Body) >= len(r.Content)/2 {
			prefix := headerPrefix(n.FirstContent, n.Body)
			nbs[i] = neighbourhoodOf(n, len(prefix), r.StartOffset)
			r.Content, r.StartOffset, r.EndOffset = prefix+n.Body, int(n.StartOffset), int(n.EndOffset)
			if n.PageStart > 0 {
				r.PageStart, r.PageEnd = ptr(int(n.PageStart)), ptr(int(n.PageEnd))
			}
		}
		if ok {
			extras[i] = sourceExtras{code: clipSpans(n.CodeSpans, r.StartOffset, r.EndOffset, len(r.Content)-(r.EndOffset-r.StartOffset)),
				titles: sectionTitles(n.PartSections)}
		}
		out[i] = r
	}
	// A result whose chunk lies inside an earlier result's neighbourhood
	// (the next chunk of the same page) is already in that source: quoted
	// twice, as two sources of overlapping text, it padded every other
	// answer of a fresh-user trial.
	kept, keptNbs, keptExtras := out[:0], nbs[:0], extras[:0]
	for i, r := range out {
		covered := false
		for j := range kept {
			if kept[j].DocumentID == r.DocumentID && rs[i].StartOffset >= kept[j].StartOffset && rs[i].EndOffset <= kept[j].EndOffset {
				covered = true
				break
			}
		}
		if !covered {
			kept, keptNbs, keptExtras = append(kept, r), append(keptNbs, nbs[i]), append(keptExtras, extras[i])
		}
	}
	return kept, keptNbs, keptExtras, nil
}

// sourceExtras is what widen learns of a source beyond its text: its code
// ranges and the titles of the sections it holds.
type sourceExtras struct {
	code   []answer.Span
	titles []string
}

// sectionTitles returns the titles of the sections that parts' chunks lie
// in (each part the heading paths of one chunk's sections, joined by
// newlines): the last heading of each path, once each, in order. A chunk
// that packs short sections (an FAQ's entries) holds their titles as lines
// of its text, which the answerer must read as titles, not sentences.
func sectionTitles(parts []string) []string {
	var out []string
	for j := range parts {
		for _, path := range partSections(parts, j) {
			for _, t := range pathTitles(path) {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// pathTitles returns the last heading of a heading path as the text may
// write it: as stored and, when it holds " › ", with " > " there too. A
// heading's own " > " is stored as " › " (chunk.pathElem), and a heading
// may write "›" itself (a breadcrumb: "Settings › Privacy › Cookies"),
// so the stored form alone cannot say which. Nil for an empty path.
func pathTitles(path string) []string {
	hs := strings.Split(path, " > ")
	t := strings.TrimSpace(hs[len(hs)-1])
	switch u := strings.ReplaceAll(t, " › ", " > "); {
	case t == "":
		return nil
	case u != t:
		return []string{t, u}
	}
	return []string{t}
}

// clipSpans turns a document's code ranges (start, end pairs of its text)
// into ranges of a source's Content holding the text [start, end) after
// prefix bytes (a table's repeated header rows): the parts inside it, in
// order. Nil when the document has none recorded.
func clipSpans(pairs []int32, start, end, prefix int) []answer.Span {
	var out []answer.Span
	for j := 0; j+1 < len(pairs); j += 2 {
		from, to := max(int(pairs[j]), start), min(int(pairs[j+1]), end)
		if from < to && prefix >= 0 {
			out = append(out, answer.Span{Start: from - start + prefix, End: to - start + prefix})
		}
	}
	return out
}

// neighbourhoodOf describes row's chunks; prefix is the length of the
// header rows put before its body, chunkStart the retrieved chunk's offset.
func neighbourhoodOf(row store.ChunkNeighbourhoodsRow, prefix, chunkStart int) *neighbourhood {
	nb := &neighbourhood{prefix: prefix, start: int(row.StartOffset)}
	for j := range row.PartStarts {
		if j >= len(row.PartEnds) || j >= len(row.PartPageStarts) || j >= len(row.PartPageEnds) || j >= len(row.PartHeadings) || j >= len(row.PartIds) {
			break
		}
		if int(row.PartStarts[j]) == chunkStart {
			nb.chunk = j
		}
		nb.parts = append(nb.parts, part{start: int(row.PartStarts[j]), end: int(row.PartEnds[j]),
			pageStart: int(row.PartPageStarts[j]), pageEnd: int(row.PartPageEnds[j]), heading: row.PartHeadings[j], id: row.PartIds[j].String(),
			anchor: partAnchor(row.PartAnchors, j), sectionAnchors: partSections(row.PartSectionAnchors, j),
			sections: partSections(row.PartSections, j), marks: partMarks(row.PartAnchorMarks, j)})
	}
	return nb
}

// partAnchor is the j-th part's anchor (ChunkNeighbourhoods' part_anchors),
// "" when none is known.
func partAnchor(anchors []string, j int) string {
	if j < len(anchors) {
		return anchors[j]
	}
	return ""
}

// partMarks returns the anchor marks of the j-th part (ChunkNeighbourhoods'
// part_anchor_marks: one text per part, each mark "<offset>\t<anchor>",
// joined by newlines), nil when none are known. A mark that does not
// parse is left out.
func partMarks(all []string, j int) []mark {
	var out []mark
	for _, m := range partSections(all, j) {
		at, anchor, ok := strings.Cut(m, "\t")
		n, err := strconv.Atoi(at)
		if ok && err == nil && anchor != "" {
			out = append(out, mark{at: n, anchor: anchor})
		}
	}
	return out
}

// partSections returns the heading paths of the sections of the j-th
// part (ChunkNeighbourhoods' part_sections: one text per part, the paths
// joined by newlines), nil when unknown.
func partSections(all []string, j int) []string {
	if j >= len(all) || all[j] == "" {
		return nil
	}
	return strings.Split(all[j], "\n")
}

// headerPrefix returns the bytes that first (the content of the first chunk
// of a neighbourhood) holds before the text it shares with body: the header
// row(s) and "\n" of a table the chunk starts inside, or "".
func headerPrefix(first, body string) string {
	for i := 0; i < len(first); i++ {
		if first[i] == '\n' && strings.HasPrefix(body, first[i+1:]) {
			return first[:i+1]
		}
		if strings.HasPrefix(body, first[i:]) {
			return first[:i]
		}
	}
	return ""
}

func ptr[T any](v T) *T { return &v }

// inOrder returns xs in order (answer.Result.Order): position i holds
// xs[order[i]]. A slice shorter than order (nil: the sources were not
// widened for an LLM) is returned as it is.
func inOrder[T any](xs []T, order []int) []T {
	if len(xs) < len(order) {
		return xs
	}
	out := make([]T, len(order))
	for i, j := range order {
		out[i] = xs[j]
	}
	return out
}

// distinct drops each result whose text a better one already has word for
// word, blanks aside: a tenant's copies of one page (Postfix installs
// bounce.8, defer.8 and trace.8 as one file) filled three of an answer's
// five sources with the same passage, and the answer quoted it from each.
// Search returns every copy (each is a document of its own, and the
// evaluation counts documents); the answerer needs each passage once.
func distinct(results []search.Result) []search.Result {
	seen := make(map[string]bool, len(results))
	out := results[:0:0]
	for _, r := range results {
		key := strings.Join(strings.Fields(r.Content), " ")
		if !seen[key] {
			seen[key] = true
			out = append(out, r)
		}
	}
	return out
}
