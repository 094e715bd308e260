package traffic

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/ragd-dev/ragd/internal/store"
)

// Candidate is one distinct question of a tenant's recorded traffic, with
// what was asked and retrieved and how it was rated: the raw material of
// an evaluation set.
type Candidate struct {
	// Question is the text as last asked ("" when the tenant keeps only
	// hashes; such candidates cannot be exported).
	Question    string `json:"question"`
	QuestionSHA string `json:"question_sha256"`
	Asked       int    `json:"asked"`
	Refused     int    `json:"refused"`
	Helpful     int    `json:"helpful"`
	Unhelpful   int    `json:"unhelpful"`
	// RightSources are the source_uris feedback named as right (the label).
	RightSources []string `json:"right_sources,omitempty"`
	// Retrieved are the source_uris of the latest event's results, best first.
	Retrieved []string  `json:"retrieved"`
	LastAsked time.Time `json:"last_asked"`
	// Reason is why it is a candidate: unhelpful, refused or frequent (the
	// first that applies).
	Reason string `json:"reason"`
}

// maxEventsRead bounds how many events Candidates reads (newest first).
const maxEventsRead = 100000

// Candidates reads tenant's events since since (newest first, at most
// maxEventsRead) and groups them by question hash. Questions rated
// unhelpful come first, then refused ones, then the rest by how often they
// were asked; ties by the latest. minAsked drops questions asked fewer
// times unless they were refused or rated.
func Candidates(ctx context.Context, db store.Beginner, tenant uuid.UUID, since time.Time, minAsked int) ([]Candidate, error) {
	by := map[string]*Candidate{}
	var order []string
	p := store.ListRetrievalEventsParams{TenantID: tenant, MaxRows: 1000,
		Since: pgtype.Timestamptz{Time: since, Valid: true}, Until: pgtype.Timestamptz{Time: time.Now().Add(time.Hour), Valid: true}}
	read := 0
	for read < maxEventsRead {
		var rows []store.ListRetrievalEventsRow
		err := store.InTenant(ctx, db, tenant, func(tx pgx.Tx) error {
			var err error
			rows, err = store.New().ListRetrievalEvents(ctx, tx, p)
			return err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			c := by[r.QuestionSha]
			if c == nil {
				c = &Candidate{QuestionSHA: r.QuestionSha, LastAsked: r.CreatedAt.Time, Retrieved: []string{}}
				if r.Question.Valid {
					c.Question = r.Question.String
				}
				var res []Result
				if err := json.Unmarshal(r.Results, &res); err != nil {
					return nil, fmt.Errorf("event %s: %w", r.ID, err)
				}
				for _, x := range res {
					if !slices.Contains(c.Retrieved, x.SourceURI) {
						c.Retrieved = append(c.Retrieved, x.SourceURI)
					}
				}
				by[r.QuestionSha] = c
				order = append(order, r.QuestionSha)
			}
			c.Asked++
			if r.Refused {
				c.Refused++
			}
			if r.Helpful.Valid {
				if r.Helpful.Bool {
					c.Helpful++
				} else {
					c.Unhelpful++
				}
			}
			if u := strings.TrimSpace(r.RightSourceUri.String); u != "" && !slices.Contains(c.RightSources, u) {
				c.RightSources = append(c.RightSources, u)
			}
		}
		read += len(rows)
		if len(rows) < int(p.MaxRows) {
			break
		}
		last := rows[len(rows)-1]
		p.AfterAt, p.AfterID = last.CreatedAt, pgtype.UUID{Bytes: last.ID, Valid: true}
	}
	out := make([]Candidate, 0, len(order))
	for _, sha := range order {
		c := by[sha]
		switch {
		case c.Unhelpful > 0:
			c.Reason = "unhelpful"
		case c.Refused > 0:
			c.Reason = "refused"
		case c.Asked >= minAsked || len(c.RightSources) > 0 || c.Helpful > 0:
			c.Reason = "frequent"
		default:
			continue
		}
		out = append(out, *c)
	}
	rank := map[string]int{"unhelpful": 0, "refused": 1, "frequent": 2}
	slices.SortStableFunc(out, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(rank[a.Reason], rank[b.Reason]), cmp.Compare(b.Asked, a.Asked), b.LastAsked.Compare(a.LastAsked))
	})
	return out, nil
}
