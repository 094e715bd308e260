package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// handbookHbreak12 is a small tenant's whole corpus: four short Markdown
// pages of an employee handbook, one chunk each (a new tenant, default
// settings, no calibration).
var handbookHbreak12 = map[string]string{
	"vacation.md": "# Vacation policy\n\nFull-time employees get 25 days of paid vacation per calendar year. Vacation days are accrued monthly, at a rate of 2.08 days per month.\n\n" +
		"## Carry-over\n\nUp to 5 unused vacation days can be carried over into the next year. Carried-over days expire on March 31.\n\n" +
		"## Requesting vacation\n\nRequest vacation in the HR portal at least two weeks in advance. Your manager approves or declines the request within three working days.\n",
	"expenses.md": "# Expense reimbursement\n\nSubmit expense reports within 30 days of the purchase. Attach a receipt for every item over 25 EUR.\n\n" +
		"## Travel\n\nEconomy class is required for flights under 6 hours. For longer flights, premium economy may be booked with manager approval.\n" +
		"Hotel costs are reimbursed up to 150 EUR per night in most cities, and up to 220 EUR per night in London, Paris and New York.\n\n" +
		"## Meals\n\nMeals during business travel are reimbursed up to 60 EUR per day. Alcohol is not reimbursed.\n",
	"laptop.md": "# Laptop and equipment\n\nEvery new employee receives a laptop on the first day. Choose between a 14-inch MacBook Pro and a ThinkPad X1 Carbon.\n\n" +
		"## Replacement\n\nLaptops are replaced every three years. A broken laptop is repaired or replaced by the IT desk; open a ticket at it.example.com.\n\n" +
		"## Returning equipment\n\nWhen you leave the company, return your laptop and badge to the IT desk on your last working day.\n",
	"remote.md": "# Remote work\n\nEmployees may work remotely up to three days per week. Core hours are 10:00 to 15:00 in your local time zone.\n\n" +
		"Working from another country is allowed for up to 30 days per year. Tell HR before you travel, because of tax and insurance rules.\n",
}

func handbookTenantHbreak12(t *testing.T) (*bundle, string) {
	t.Helper()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	for uri, content := range handbookHbreak12 {
		b.upsert(editor, uri, content)
	}
	return b, editor
}

func askHbreak12(t *testing.T, b *bundle, tok, question string) api.AnswerResponse {
	t.Helper()
	return decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: tok,
		body: map[string]any{"question": question}}), http.StatusOK)
}

// TestRequestPhrasingDoesNotRefuse_hbreak12 (h-break12): the words a person
// wraps a question in — "Please tell me …", "I would like to know …", a
// modal such as "must" or "would" — are not in PostgreSQL's English stop
// list (it has "should", "can", "will", but not "must", "would", "please",
// "like", "know", "need", "use"), so they count as content terms. On a
// small tenant none of its documents has them, the absent share takes the
// highest idf, and an answerable question is refused with a reason naming
// the phrasing: "no document mentions “know”, “would”, “like”". Over this
// four-page handbook, 10 plain questions are all answered (0.55–0.93); of
// their 20 rephrasings, "Please tell me …" refuses 3 and "I would like to
// know …" 6 ("what are the core hours?" 0.665 → 0.083). Single words do
// it too: "What do I return when I leave?" 0.671, "What must I return when
// I leave?" 0.190 (“must”); "Do I get a laptop on my first day?" 0.570,
// "Would I get …" 0.268 (“Would”). Over a thermostat manual, "What
// batteries does the thermostat use?" is refused for “use”.
//
// Expected: words that frame the request (politeness, modals, "I want / I
// would like to know", "tell me") are no evidence the documents lack the
// subject: a question answered plainly is answered when so phrased, and a
// refusal never names them as what no document mentions.
func TestRequestPhrasingDoesNotRefuse_hbreak12(t *testing.T) {
	t.Parallel()
	b, tok := handbookTenantHbreak12(t)
	base := []string{
		"how many days of paid vacation do full-time employees get?",
		"when do carried-over vacation days expire?",
		"how long does my manager have to approve a vacation request?",
		"within how many days must I submit an expense report?",
		"how much are meals reimbursed per day during business travel?",
		"which laptops can I choose from?",
		"what are the core hours?",
		"how many days per week may employees work remotely?",
		"is alcohol reimbursed?",
		"where do I return my laptop when I leave the company?",
	}
	type pair struct{ plain, phrased string }
	var cases []pair
	for _, q := range base {
		cases = append(cases, pair{q, "Please tell me " + q}, pair{q, "I would like to know " + q})
	}
	cases = append(cases,
		pair{"What do I return when I leave?", "What must I return when I leave?"},
		pair{"Do I get a laptop on my first day?", "Would I get a laptop on my first day?"},
	)
	framing := []string{"please", "would", "like", "know", "must"}
	failed := 0
	for _, c := range cases {
		plain := askHbreak12(t, b, tok, c.plain)
		if plain.Refused {
			t.Errorf("premise: %q is answered; refused (%.3f, %s)", c.plain, plain.Confidence, plain.ConfidenceReason)
			continue
		}
		got := askHbreak12(t, b, tok, c.phrased)
		if !got.Refused {
			continue
		}
		failed++
		named := ""
		for _, w := range framing {
			if strings.Contains(strings.ToLower(got.ConfidenceReason), "“"+w+"”") {
				named = " (the reason names the phrasing word “" + w + "”)"
			}
		}
		t.Errorf("%q refused at %.3f: %s%s; %q is answered at %.3f",
			c.phrased, got.Confidence, got.ConfidenceReason, named, c.plain, plain.Confidence)
	}
	if failed > 0 {
		t.Logf("%d of %d rephrasings of answered questions refused", failed, len(cases))
	}
}
