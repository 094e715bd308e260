package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHR24RateHistorySectionIsNoChangelog: an API reference page "Exchange
// rates API" whose "History" section documents the endpoint for past rates
// and shows its sample output, one closing rate with its date a line
// ("1.0842 (2024-01-02)"). Since f9cfd49 a heading "History" is enough to
// title a chunk as a change log, and the rate lines pass versionLine's new
// "2.28.1 (2022-06-29)" alternative, so for "Which endpoint returns the
// past daily closing rates of a currency pair?" the section that answers
// keeps half its fused score (0.91 → 0.46) and ranks third, below the
// page's "Latest rate" section and the alerts page, which only share the
// question's words. With the section headed "Past rates" (the control,
// same text) it ranks first. Should: the section documenting
// GET /rates/{pair}/history first under either heading.
func TestHR24RateHistorySectionIsNoChangelog(t *testing.T) {
	t.Parallel()
	for i, heading := range []string{"Past rates", "History"} {
		docs := map[string]string{
			"api/rates.md": "# Exchange rates API\n\n## Latest rate\n\n" +
				"GET /rates/{pair} returns the latest rate of a currency pair such as EURUSD, updated every minute while the markets are open. " +
				"The response holds the pair, the bid, the ask and the time of the quote in UTC. Requests need an API key in the Authorization header, " +
				"and each key may make sixty requests a minute before the service answers 429. " +
				"Quotes come from the interbank market through three liquidity providers; when they disagree by more than a pip the service takes the median of the three. " +
				"A pair that the providers do not quote, such as an exotic currency against another exotic currency, is computed through the US dollar and marked as derived in the response. " +
				"Outside market hours, from Friday evening to Sunday evening New York time, the endpoint keeps returning the last quote of the week with its original time, " +
				"so clients that show a live price should check the time field and say that the market is closed.\n\n" +
				"## " + heading + "\n\n" +
				"GET /rates/{pair}/history returns the daily closing rates of a currency pair, oldest first, one line a day with the closing rate and its date. " +
				"Pass from and to as ISO dates to choose the period; without them the endpoint returns the last thirty days. The sample output below is for EURUSD:\n\n" +
				"```\n1.0842 (2024-01-02)\n1.0861 (2024-01-03)\n1.0917 (2024-01-04)\n1.0899 (2024-01-05)\n```\n",
			"api/alerts.md": "# Rate alerts\n\nAn alert watches a currency pair and notifies you when its rate crosses a threshold. " +
				"Alerts compare the live rate, not the daily closing rate, so an alert may fire during the day and the pair may close on the other side of the threshold. " +
				"Create an alert with POST /alerts and the pair, the threshold and the direction.",
			"api/keys.md": "# API keys\n\nCreate a key in the dashboard and send it in the Authorization header of every request. Revoke a key that leaked at once.",
		}
		tt, s := corpusTenant(t, "hr24ratehist"+string(rune('a'+i)), "english", docs)
		ctx := context.Background()
		q := "Which endpoint returns the past daily closing rates of a currency pair?"
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.SourceURI+" ["+r.HeadingPath+"]")
		}
		if len(resp.Results) == 0 || !strings.Contains(resp.Results[0].Content, "/history returns") {
			t.Errorf("section headed %q: %q: results %q, want the section documenting GET /rates/{pair}/history first", heading, q, got)
		}
	}
}
