package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/provider"
)

// LegRerank names the reranking stage in a Degradation.
const LegRerank Leg = "rerank"

// Degradation is one leg or stage a search ran without, and why.
type Degradation struct {
	// Leg is LegVector, LegKeyword or LegRerank.
	Leg Leg `json:"leg"`
	// Reason is a sentence a person can read, e.g. "the embedding model
	// use-lite does not represent Han script (100% of the question)". It
	// names models and HTTP statuses, never a provider's error text.
	Reason string `json:"reason"`
}

// degrade records that the search ran without d.Leg.
func (r *Response) degrade(d Degradation) {
	r.Degraded = true
	r.DegradedReasons = append(r.DegradedReasons, d)
}

// scriptGap reports the vector leg as unable to serve query when more than
// half of the question (analyze.Scripts units: words, or characters of the
// CJK scripts) is in scripts e's model does not represent: its vector then
// says little about the question (USE-lite gives every Chinese or Japanese
// sentence the same vector), and fusing its ranking would only push the
// keyword leg's matches down. Digits and punctuation count for no script.
func scriptGap(e embed.Embedder, query string) (Degradation, bool) {
	var total, missing int
	var names []string
	for _, c := range analyze.Scripts(query) {
		total += c.Units
		if !embed.Represents(e, c.Script) {
			missing += c.Units
			names = append(names, c.Script)
		}
	}
	if total == 0 || 2*missing <= total {
		return Degradation{}, false
	}
	list := names[0]
	if len(names) > 1 {
		list = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	noun := "script"
	if len(names) > 1 {
		noun = "scripts"
	}
	return Degradation{Leg: LegVector, Reason: fmt.Sprintf("the embedding model %s does not represent %s %s (%d%% of the question)",
		e.Model(), list, noun, 100*missing/total)}, true
}

// representable drops the vector leg's hits whose chunk is mostly in scripts
// the embedding model does not represent: their vectors say nothing about
// the text (USE-lite gives every Chinese or Japanese chunk nearly the same
// vector), so their similarity to any question is noise, and in a tenant
// with documents in several scripts they would otherwise crowd the leg's
// top for questions in the represented script.
func (s *Searcher) representable(emb embed.Embedder, hits []legHit) []legHit {
	if sl, ok := emb.(embed.ScriptLimited); !ok || len(sl.Scripts()) == 0 {
		return hits
	}
	latin := embed.Represents(emb, "Latin")
	out := hits[:0:0]
	for _, h := range hits {
		// The common case, decided without counting scripts (which costs
		// ~50 µs for a chunk of 250 words): a chunk that opens with Latin
		// letters, punctuation and symbols only (a chunk is one section, so
		// its opening shows its script).
		if latin && latinOnly(h.chunk.HeadingPath) && latinOnly(prefix(h.chunk.Content, 512)) {
			out = append(out, h)
			continue
		}
		if _, gap := scriptGap(emb, h.chunk.HeadingPath+"\n"+h.chunk.Content); !gap {
			out = append(out, h)
		}
	}
	return out
}

// prefix is s cut to at most n bytes (possibly inside a character: the
// decoder then sees U+FFFD, which latinOnly counts as a symbol).
func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// latinOnly reports whether every character of s is Basic Latin, a Latin
// supplement or extension (up to U+024F), general punctuation, or a symbol
// (U+2000–U+2BFF: dashes, quotes, arrows, mathematical operators).
func latinOnly(s string) bool {
	for _, r := range s {
		if r >= 0x0250 && (r < 0x2000 || r > 0x2BFF) && r != utf8.RuneError {
			return false
		}
	}
	return true
}

// vectorDepth is how many hits the vector leg reads for n candidates: n +
// vectorSlack when representable may drop some, so that the leg still has
// n and its first n are the first n representable hits (the prefix property
// the evaluation's in-memory fusion relies on; TuneResult.Verified reports
// it), unless more than vectorSlack of them are dropped. Reading 2n rows
// instead cost 6.5 ms at the median on the manual's tenant (100 rows with
// their content); the slack costs about one.
func (s *Searcher) vectorDepth(emb embed.Embedder, n int) int {
	if sl, ok := emb.(embed.ScriptLimited); ok && len(sl.Scripts()) > 0 {
		return n + vectorSlack
	}
	return n
}

// vectorSlack is the extra depth of a script-limited model's vector leg.
const vectorSlack = 10

// embedFailed is the Degradation of a query embedding that failed with err.
func embedFailed(model string, err error) Degradation {
	return Degradation{Leg: LegVector, Reason: fmt.Sprintf("embedding the question with %s failed (%s)", model, failure(err))}
}

// rerankFailed is the Degradation of a rerank call that failed with err.
func rerankFailed(err error) Degradation {
	return Degradation{Leg: LegRerank, Reason: fmt.Sprintf("the reranker failed (%s); the fused order is kept", failure(err))}
}

// failure names what went wrong with a provider call in a few words, without
// the provider's own text (which may echo internals).
func failure(err error) string {
	var se *provider.StatusError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("HTTP %d", se.StatusCode)
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	case errors.Is(err, embed.ErrModelMismatch):
		return "the server answered with another model"
	case errors.Is(err, embed.ErrDimensionMismatch):
		return "vectors of other dimensions than registered"
	case err == nil:
		return "no result"
	default:
		return "unreachable or invalid response"
	}
}
