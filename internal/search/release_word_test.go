package search

import (
	"slices"
	"testing"
)

// TestReleaseWithTheWordVersion: "Hypothesis version 6.90" names
// Hypothesis's release 6.90 as "Hypothesis 6.90" does (a trial's question
// about a release newer than the documents' was answered at 0.57 where
// "Hypothesis 7.0" was refused). Only after a product's name: "the version
// 2 file", a part of a document, and a question opening with "Version" are
// no release of anything, and a number of three or four digits is a build.
func TestReleaseWithTheWordVersion(t *testing.T) {
	for q, want := range map[string][]string{
		"What changed about the example database in Hypothesis version 6.90 compared to earlier releases?": {"Hypothesis version 6.90"},
		"Is Django release 5.1 out yet?":                {"Django release 5.1"},
		"Is the package built for Debian version 14?":   {"Debian version 14"},
		"Does Node.js version 22 support require(esm)?": {"Node.js version 22"},
		"What did Hypothesis' version 6.90 change?":     {"Hypothesis version 6.90"},
		"How do I read the version 2 file?":             nil,
		"See Section version 3 of the guide":            nil,
		"Version 6.90 of Hypothesis, is it out?":        nil,
		"Does Debian version 12 GB of RAM suffice?":     nil, // a quantity
		"Does the agent run on Windows version 1903?":   nil, // a build number
	} {
		var got []string
		for _, r := range releases(q) {
			got = append(got, r.written)
			if r.name == "version" || r.name == "release" || r.lower || !r.bare {
				t.Errorf("releases(%q): %+v, want the product's name, capitalised, checked against bare numbers", q, r)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("releases(%q) = %q, want %q", q, got, want)
		}
	}
	// A lower-case product is one only where the documents write it
	// before a dotted number (lower), as for "setuptools 80".
	rs := releases("Does setuptools version 80 drop setup.py install?")
	if len(rs) != 1 || rs[0].name != "setuptools" || !rs[0].lower || !rs[0].bare {
		t.Errorf("setuptools version 80: %+v, want setuptools, lower, bare", rs)
	}
}

// TestGermanNounsAreNoNames: German capitalises every noun, so a capital
// in a German question names nothing ("An welche Adresse melde ich eine
// Sicherheitslücke …?" was refused for its missing "Sicherheitslücke");
// a name shaped as one (MongoDB, an identifier) still is, and an English
// question's capitalised word inside the sentence still is a name.
func TestGermanNounsAreNoNames(t *testing.T) {
	words := func(q string) []string {
		var out []string
		for _, p := range namesOf(q).probes {
			out = append(out, p.word)
		}
		return out
	}
	if got := words("An welche Adresse melde ich eine Sicherheitslücke, die ich in einem Debian-Paket entdeckt habe?"); len(got) != 0 {
		t.Errorf("German question: probes %q, want none", got)
	}
	if got := words("Wie richte ich Sharding mit MongoDB und der Datei mongod.conf ein?"); !slices.Contains(got, "MongoDB") || !slices.Contains(got, "mongod.conf") || slices.Contains(got, "Datei") {
		t.Errorf("German question naming MongoDB: probes %q, want MongoDB and mongod.conf, not Datei", got)
	}
	if got := words("How do I set up sharding with replica sets in Cassandra?"); !slices.Contains(got, "Cassandra") {
		t.Errorf("English question: probes %q, want Cassandra", got)
	}
}
