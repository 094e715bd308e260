package cli

import "testing"

// TestLocation: a result's place is printed once, not "Title — Title".
func TestLocation(t *testing.T) {
	for _, tc := range []struct{ title, path, want string }{
		{"Support FAQ", "Support FAQ", "Support FAQ"},
		{"COPY", "COPY > Parameters", "COPY > Parameters"},
		{"libtasn1.pdf", "3 Utilities > 3.1 Invoking asn1Parser", "libtasn1.pdf — 3 Utilities > 3.1 Invoking asn1Parser"},
		{"Notes", "", "Notes"},
		{"", "Intro", "Intro"},
	} {
		if got := location(tc.title, tc.path); got != tc.want {
			t.Errorf("location(%q, %q) = %q, want %q", tc.title, tc.path, got, tc.want)
		}
	}
}
