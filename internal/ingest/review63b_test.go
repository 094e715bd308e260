package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// review63b (a defect a review of 5696f4e found, fixed; what went wrong
// then): a root that exists as a symbolic link whose target is gone is
// reported as "no such file or directory" of the link itself, which ls
// shows; the missing target, which the error used to name, is dropped.
func TestReview63bDanglingLinkRootNamesTheTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "docs")
	target := filepath.Join(dir, "gone", "site")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, _, err := Walk([]string{link}, WalkOptions{})
	if err == nil {
		t.Fatal("want an error")
	}
	t.Logf("error: %v", err)
	if !strings.Contains(err.Error(), "gone") {
		t.Errorf("error %q does not say that the link's target (%s) is what is missing", err, target)
	}
}
