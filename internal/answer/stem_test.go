package answer

import "testing"

// TestStemMeetsWordsOfOneFamily: the forms a question and a source write
// of one word meet in one stem; "verification" had been "verificat" and
// "verified" "verifi", apart from "verify", so the sentence saying "if
// you set verify to False" held no term of "turn off SSL certificate
// verification".
func TestStemMeetsWordsOfOneFamily(t *testing.T) {
	for _, family := range [][]string{
		{"verify", "verifies", "verified", "verifying", "verification", "verifications"},
		{"modify", "modified", "modifies", "modification"},
		{"notify", "notified", "notification", "notifications"},
		{"tenant", "tenants"},
		{"violation", "violated", "violations"},
		{"store", "stored", "storing"},
	} {
		want := stem(family[0])
		for _, w := range family[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q; want one stem", w, got, family[0], want)
			}
		}
	}
}
