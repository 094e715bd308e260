package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestReview56ManualRevisionHistoryIsNoRelease: a manual titled with its
// product whose "Document history" numbers the manual's own editions with
// dates ("1.0 (2019-03-01)") is no change log of the product: a question
// naming the asker's firmware ("Frobgate 4.2") is not capped as about a
// release the documents do not cover (a review).
func TestReview56ManualRevisionHistoryIsNoRelease(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"reset.md": "---\ntitle: Factory reset - Frobgate Router Manual\n---\n\nTo restore the factory settings, hold the reset button on the back of the router for ten seconds until the power light blinks. " +
			"The router then restarts with the default password printed on its label.",
		"history.md": "---\ntitle: Document history - Frobgate Router Manual\n---\n\n## 1.0 (2019-03-01)\n\nFirst edition of this manual.\n\n## 1.1 (2019-09-15)\n\nAdded the chapter on VPN tunnels.",
		"vpn.md":     "---\ntitle: VPN tunnels - Frobgate Router Manual\n---\n\nThe router can open an IPsec tunnel to another site; enter the peer's address and the shared key on the VPN page.",
	}
	tt, s := corpusTenant(t, "rv56hist", "english", docs)
	for _, q := range []string{"How do I reset my Frobgate 4.2 to factory settings?", "How do I restore the factory settings of a Frobgate 4.2 router?"} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence < tenant.DefaultRefuseBelow || len(resp.MissingTerms) != 0 {
			t.Errorf("%q over a manual whose document history is dated: confidence %.3f (reason %q), missing %q; want answered, nothing missing",
				q, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms)
		}
	}
}

// TestReview56UnreleasedSectionCovers: a change log whose top section is
// "0.23.0 (unreleased)" and the others dated: the dated headings make
// Frobdict versioned, and the unreleased heading is a release's notes too,
// so a question about 0.23.0, whose notes are right there, is not capped
// (a review).
func TestReview56UnreleasedSectionCovers(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"changelog.md": "---\ntitle: Changelog - Frobdict\n---\n\n## 0.23.0 (unreleased)\n\nAdd the frobnicate method, which inverts a frobdict in place.\n\n" +
			"## 0.22.1 (2022-12-31)\n\nOnly include the source distribution and the wheel.\n\n" +
			"## 0.22.0 (2022-03-23)\n\nDrop support for the oldest interpreter and add type hints to the inverse attribute.",
		"intro.md": "---\ntitle: Introduction - Frobdict\n---\n\nA frobdict maps keys to values and values back to keys through its inverse attribute.",
	}
	tt, s := corpusTenant(t, "rv56unrel", "english", docs)
	q := "Which method does Frobdict 0.23.0 add?"
	resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence < tenant.DefaultRefuseBelow || len(resp.MissingTerms) != 0 {
		t.Errorf("%q over a change log heading \"0.23.0 (unreleased)\": confidence %.3f (reason %q), missing %q; want answered, nothing missing",
			q, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms)
	}
}

// TestReview56PossessiveBeforeTheMissingFeature: over the 15-chunk tenant of
// TestSmallTenantAbsentWordsWeighLess, "my" before the format the library
// lacks (xliff) leaves it the subject: the question is refused as the
// same question with "an" is (a review: counted as an ordinary word at half
// its weight, "my xliff file" was answered at 0.367).
func TestReview56PossessiveBeforeTheMissingFeature(t *testing.T) {
	t.Parallel()
	docs := frobpoDocs()
	tt, s := corpusTenant(t, "rv56poss", "english", docs)
	for _, q := range []string{"how do I load an xliff file with frobpo", "how do I load my xliff file with frobpo", "how do I load my yaml file with frobpo"} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence >= tenant.DefaultRefuseBelow {
			t.Errorf("%q over 15 chunks none of which mentions the format: confidence %.3f (reason %q), want below %.2f",
				q, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
		}
	}
}
