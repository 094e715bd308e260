// Package followup turns a follow-up question of a conversation ("and how
// do I undo that?") into a standalone question that retrieval can serve
// alone. With an LLM it asks the model to rewrite the question from the
// conversation; without one (or when the model fails) it carries the key
// terms of the earlier question when the follow-up cannot stand alone: it
// refers back (it, that, those, …), opens with a connective (and, what
// about, …), or has fewer than three content words. The measurement on a
// hand-written follow-up set for the PostgreSQL manual is in docs/EVAL.md.
package followup

import (
	"context"
	"log/slog"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/llm"
)

// Turn is one earlier message of the conversation.
type Turn struct {
	Role    string // "user" or "assistant"
	Content string
}

// Methods of a rewrite (Result.Method).
const (
	MethodLLM   = "llm"   // the LLM rewrote the question
	MethodTerms = "terms" // the earlier question's key terms were carried over
)

// Result is a rewrite's outcome.
type Result struct {
	// Question is the standalone question: the rewrite, or the follow-up
	// itself when it stands alone (Method empty).
	Question string
	Method   string
}

// Rewriter rewrites follow-ups. A zero Rewriter (no LLM) carries terms.
type Rewriter struct {
	// LLM, when set, rewrites follow-ups; nil carries terms.
	LLM *llm.Client
	// MaxChars bounds a rewrite (a longer one is not used); 0 = 4000.
	MaxChars int
	Log      *slog.Logger
}

// maxTurnChars bounds each earlier turn given to the LLM: answers can be
// long, and the question's referents are near their start.
const maxTurnChars = 1500

// maxTurns is how many of the latest turns the LLM sees.
const maxTurns = 6

// Rewrite returns the standalone form of question given the earlier turns
// (oldest first). No turns: the question as is. An LLM failure falls back
// to carrying terms (logged); Rewrite never fails.
func (r *Rewriter) Rewrite(ctx context.Context, turns []Turn, question string) Result {
	if len(turns) == 0 || prevQuestion(turns) == "" {
		return Result{Question: question}
	}
	if r != nil && r.LLM != nil {
		q, err := r.viaLLM(ctx, turns, question)
		if err == nil && q != "" {
			if q == question {
				return Result{Question: question}
			}
			return Result{Question: q, Method: MethodLLM}
		}
		log := slog.Default()
		if r.Log != nil {
			log = r.Log
		}
		log.WarnContext(ctx, "follow-up rewrite: LLM failed, carrying the earlier question's terms", "err", err)
	}
	return CarryTerms(turns, question)
}

const instructions = "You rewrite the last question of a conversation into one standalone question that can be " +
	"understood without the conversation, for a search engine over documentation. Resolve pronouns and " +
	"ellipsis (it, that, those, the same, what about ...) from the earlier turns; keep the user's wording, " +
	"and every name, identifier, option and number. If the question already stands alone, return it unchanged. " +
	"Reply with the question only, on one line."

func (r *Rewriter) viaLLM(ctx context.Context, turns []Turn, question string) (string, error) {
	var b strings.Builder
	b.WriteString("Conversation:\n")
	for _, t := range turns[max(0, len(turns)-maxTurns):] {
		who := "User"
		if t.Role == "assistant" {
			who = "Assistant"
		}
		c := strings.TrimSpace(t.Content)
		if utf8.RuneCountInString(c) > maxTurnChars {
			c = string([]rune(c)[:maxTurnChars]) + " …"
		}
		b.WriteString(who + ": " + c + "\n")
	}
	b.WriteString("\nLast question: " + question + "\n\nStandalone question:")
	out, err := r.LLM.Complete(ctx, []llm.Message{{Role: llm.RoleSystem, Content: instructions}, {Role: llm.RoleUser, Content: b.String()}})
	if err != nil {
		return "", err
	}
	q := strings.TrimSpace(strings.SplitN(strings.TrimSpace(out), "\n", 2)[0])
	q = strings.Trim(q, "\"“”")
	q = strings.TrimSpace(strings.TrimPrefix(q, "Standalone question:"))
	limit := r.MaxChars
	if limit <= 0 {
		limit = 4000
	}
	if q == "" || utf8.RuneCountInString(q) > limit {
		return "", nil
	}
	return q, nil
}

// prevQuestion is the latest user turn.
func prevQuestion(turns []Turn) string {
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].Role == "user" && strings.TrimSpace(turns[i].Content) != "" {
			return turns[i].Content
		}
	}
	return ""
}

// maxCarried bounds the terms carried from the earlier question.
const maxCarried = 10

// CarryTerms is the rewrite without an LLM: when the follow-up cannot
// stand alone (NeedsContext), the content words of the latest earlier user
// question that the follow-up lacks are appended to it, in their order and
// as written (at most maxCarried); otherwise the follow-up is returned as
// is.
func CarryTerms(turns []Turn, question string) Result {
	prev := prevQuestion(turns)
	if prev == "" || !NeedsContext(question) {
		return Result{Question: question}
	}
	have := map[string]bool{}
	for _, w := range words(question) {
		have[w] = true
	}
	// A name joined by "/" or "." is carried whole: "HTTP/2",
	// "pg_hba.conf" and "9.6" are indexed as one word, and split into
	// "http 2" the subject of the conversation matched nothing.
	var carried []string
	for _, f := range strings.Fields(prev) {
		if len(carried) >= maxCarried {
			break
		}
		token := strings.Trim(f, ".,;:!?()[]{}\"'“”‘’")
		ws := words(token)
		var content []string
		for _, w := range ws {
			if !stop[w] && !have[w] {
				content = append(content, w)
			}
		}
		if len(content) == 0 {
			continue
		}
		for _, w := range ws {
			have[w] = true
		}
		if !strings.ContainsAny(token, "/.") || len(content) < len(ws) {
			// Words as before, lowercased; a compound partly in the
			// follow-up already brings only its new words.
			carried = append(carried, content[:min(len(content), maxCarried-len(carried))]...)
			continue
		}
		carried = append(carried, strings.ToLower(token))
	}
	if len(carried) == 0 {
		return Result{Question: question}
	}
	return Result{Question: strings.TrimSpace(question) + " " + strings.Join(carried, " "), Method: MethodTerms}
}

// referring are words that point back into the conversation.
var referring = set(`it its it's that this these those they them their theirs there one ones same such former latter above
	previous earlier aforementioned he she him her`)

// openers start a follow-up that continues the previous question.
var openers = []string{"and ", "but ", "also ", "then ", "so ", "what about ", "how about ", "what if ", "and if ", "or ", "same for ", "instead"}

// NeedsContext reports whether question cannot stand alone: it refers back,
// opens with a connective, or has fewer than three content words.
func NeedsContext(question string) bool {
	q := strings.ToLower(strings.TrimSpace(question))
	for _, o := range openers {
		if strings.HasPrefix(q, o) {
			return true
		}
	}
	content := 0
	for _, w := range words(q) {
		if referring[w] {
			return true
		}
		if !stop[w] {
			content++
		}
	}
	return content < 3
}

// words are the lowercased words of s: letters, digits and the joiners of
// identifiers (pg_dump, max_wal_size, 9.6), split on everything else.
func words(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '\''
	})
	out := f[:0]
	for _, w := range f {
		w = strings.Trim(w, "'_")
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// stop are English function and question words: they carry no topic, so
// they are neither carried over nor counted as content.
var stop = set(`a about above after again against all am an and any are as at be because been before being below
	between both but by can could did do does doing done down during each either few for from further had has have
	having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
	nor not now of off on once only or other our ours ourselves out over own same she should so some such than that
	the their theirs them themselves then there these they this those through to too under until up very was we
	were what when where which while who whom why will with would you your yours yourself yourselves also may might
	must shall cannot get gets got use used using tell explain describe please don doesn isn aren see mean means
	it's i'm what's how's instead one ones way want need make happen happens else thing things`)
