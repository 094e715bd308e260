package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// hr31Docs is a small tenant: an API with rate limits and tokens, signing
// keys, an install page, and a PostgreSQL connection page. Written for
// these tests.
var hr31Docs = map[string]string{
	"api.md": "# Rate limits\n\nThe API v2 allows 100 requests per minute for each key. A client over the limit receives 429 Too Many Requests " +
		"and should wait for the number of seconds the Retry-After header gives before it retries.\n\n" +
		"## Authentication\n\nThe API returns 401 Unauthorized when the token has expired; request a new token and retry.",
	"keys.md": "# Signing keys\n\nThe server signs tokens with RSA 4096 keys by default. Set the key_size option to choose " +
		"another size of RSA key; smaller keys sign faster.",
	"install.md": "# Installation\n\nFrobtool supports Python 3.8 and later. Install it with pip install frobtool. " +
		"The cosine 0.9 threshold marks near duplicates; lower the similarity threshold to find more.",
	"db.md": "# Connecting\n\nConnect to PostgreSQL with psycopg.connect and a connection string. Pass autocommit=True to psycopg.connect " +
		"to commit every statement at once.",
	"std.md": "# Standards\n\nTimestamps are written in ISO-8601 form, with the offset. Country names follow ISO 3166 codes. " +
		"Caching follows RFC9110; older clients follow RFC 7234.",
}

type hr31Case struct {
	question string
	// missing is what MissingTerms must be; capped whether the release cap
	// applies.
	missing []string
	capped  bool
}

func hr31Check(t *testing.T, tt tenant.Tenant, s *search.Searcher, cases []hr31Case) {
	t.Helper()
	for _, tc := range cases {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if resp.Signals.Capped != tc.capped || !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: capped %v, missing %q (confidence %.3f, reason %q); want capped %v, missing %q",
				tc.question, resp.Signals.Capped, resp.MissingTerms, resp.Confidence, resp.ConfidenceReason, tc.capped, tc.missing)
		}
	}
}

// TestCodeOrSizeAfterCapitalsIsNoSeriesDocument_hreview31: standardNumber
// takes any name of two to six capitals before three or four digits for a
// document of a series ("PEP 735"), excepting only a status code after
// "HTTP". A status code after another name ("API 401", "API 429": how
// people write the error they got) and a key size ("RSA 2048") are not
// documents of a series. What the user sees: the question is refused with
// "no document mentions “API 401”" (confidence capped at 0.1) though the
// page says what a 401 from the API means; before this change it was
// answered (confidence 0.82; "RSA 2048" 0.36).
func TestCodeOrSizeAfterCapitalsIsNoSeriesDocument_hreview31(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr31codes", "english", hr31Docs)
	hr31Check(t, tt, s, []hr31Case{
		{"Why does the API 401 after my token expires?", nil, false},
		{"Can I sign tokens with RSA 2048 keys instead?", nil, false},
	})
}

// TestStandardWrittenHyphenatedOrJoined_hreview31: the documents write a
// standard the way most do, "ISO-8601" or "RFC9110", and another of the
// series with a blank ("ISO 3166", "RFC 7234"), so the name counts as
// versioned; the release's forms are only "ISO 8601", "ISO v8601", "ISO
// version 8601", "ISO 8601.0", and the joined probe ("rfc9110") is not
// consulted. What the user sees: "Are timestamps written in ISO 8601
// form?" is refused, "no document mentions “ISO 8601”" (0.1; before this
// change 0.54 and answered).
func TestStandardWrittenHyphenatedOrJoined_hreview31(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr31std", "english", hr31Docs)
	hr31Check(t, tt, s, []hr31Case{
		{"Are timestamps written in ISO 8601 form?", nil, false},
		{"How does caching follow RFC 9110 for older clients?", nil, false},
	})
}

// TestLowerCaseReleaseFalseRefusals_hreview31: a lower-case word before a
// number is taken for a release (release.lower) and capped when no
// document writes exactly that release. Two everyday questions fail:
//   - "python 3" where the page says "Python 3.8 and later": a whole-number
//     release's forms are "python 3", "python v3", "python version 3",
//     "python 3.0", so no 3.x release counts (the bare spellings are v3,
//     3.0, …). Refused, "no document mentions “python 3”" (0.1; 0.41 and
//     answered before this change).
//   - "cosine 0.85": a measured value, not a release, is capped because the
//     page writes "cosine 0.9" (0.73 and answered before; now 0.1).
func TestLowerCaseReleaseFalseRefusals_hreview31(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr31lower", "english", hr31Docs)
	hr31Check(t, tt, s, []hr31Case{
		{"How do I install frobtool on python 3?", nil, false},
		{"Which similarity threshold marks near duplicates, cosine 0.85?", nil, false},
	})
}

// TestPlaceholderIsNoRealLibrary_hreview31: placeholder takes any
// identifier opening with "My" and a capital for the asker's own
// ("MyModel"), so MySQLdb.connect — the mysqlclient library's real API —
// is never a missing term. What the user sees: asked of PostgreSQL-only
// documents, "How do I pass autocommit to MySQLdb.connect?" gets
// confidence 0.41 (above the default refusal threshold 0.34: answered
// from the psycopg page) with no missing terms, while the same question
// about pymysql.connect is refused at 0.15 naming pymysql.connect.
func TestPlaceholderIsNoRealLibrary_hreview31(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr31placeholder", "english", hr31Docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "How do I pass autocommit to MySQLdb.connect?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "MySQLdb.connect") || resp.Confidence >= tenant.DefaultRefuseBelow {
		t.Errorf("MySQLdb.connect: missing %q, confidence %.3f (reason %q); want MySQLdb.connect missing and a confidence below %.2f",
			resp.MissingTerms, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
	}
}
