package answer

import (
	"strings"
	"testing"
)

// A passage that already holds the announcing sentence and the first item
// of its list brings the rest of the list too: complete only extended a
// passage ending right on the sentence ("!d[to-1].item"), so a procedure
// was quoted as its first step alone, under "follow these steps:", as if
// it were the whole procedure.
func TestExtractiveAnnouncedListIsNotCutAfterItsFirstItem_hreview8(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "upgrade.md", Title: "Upgrading", Content: `Upgrading

To upgrade the cluster, follow these steps:

1. Stop the old server with pg_ctl stop before anything else.
2. Run pg_upgrade with the old and new data directories.
3. Start the new server and run vacuumdb --analyze-in-stages.

Never delete the old cluster until the new one has been verified.`}}
	r := Extractive("How do I upgrade the cluster?", src, 3)
	if !strings.Contains(r.Answer, "follow these steps") {
		t.Fatalf("Answer = %q, want the announcing sentence (the premise of this test)", r.Answer)
	}
	for _, want := range []string{"Stop the old server", "Run pg_upgrade with the old and new data directories", "Start the new server"} {
		if !strings.Contains(r.Answer, want) {
			t.Errorf("Answer = %q, want every step of the announced list (missing %q)", r.Answer, want)
		}
	}
}

// A sentence after a list is not part of its last item: render put it on
// the item's line ("- the log settings [1] You must never change …"), so
// the answer listed a prohibition as one of the settings one may change.
func TestExtractiveSentenceAfterAListIsNotAnItem_hreview8(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "replica.md", Title: "Replicas", Content: `Replicas

You may change these settings on a replica:

- work_mem
- maintenance_work_mem
- the log settings

You must never change wal_level or max_connections on a replica.`}}
	r := Extractive("Which settings must I never change on a replica?", src, 3)
	if !strings.Contains(r.Answer, "You must never change wal_level") {
		t.Fatalf("Answer = %q, want the sentence (the premise of this test)", r.Answer)
	}
	for _, line := range strings.Split(r.Answer, "\n") {
		if strings.HasPrefix(line, "- ") && strings.Contains(line, "You must never change") {
			t.Errorf("Answer = %q: the sentence after the list is rendered inside the item %q", r.Answer, line)
		}
	}
}

// An ordered list keeps its numbers: rendered with "- ", "Repeat steps 1
// and 2" pointed at numbers the answer no longer shows, and the order of
// a procedure read as an unordered set.
func TestExtractiveOrderedListKeepsItsNumbers_hreview8(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "replicas.md", Title: "Adding replicas", Content: `Adding replicas

To add replicas to the cluster, do the following:

1. Take a base backup.
2. Start the replica.
3. Repeat steps 1 and 2 for each replica.`}}
	r := Extractive("How do I add replicas to the cluster?", src, 3)
	if !strings.Contains(r.Answer, "Repeat steps 1 and 2") {
		t.Fatalf("Answer = %q, want the list (the premise of this test)", r.Answer)
	}
	for _, want := range []string{"1. Take a base backup", "2. Start the replica", "3. Repeat steps 1 and 2"} {
		if !strings.Contains(r.Answer, want) {
			t.Errorf("Answer = %q, want the source's numbering (%q)", r.Answer, want)
		}
	}
}
