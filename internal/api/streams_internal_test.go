package api

import (
	"testing"

	"github.com/google/uuid"
)

// TestStreamCountsPerTenant: a tenant may hold maxStreamsPerTenant job
// event streams open; one more is refused until one closes, another
// tenant is not affected, and releasing a stream twice frees one place.
func TestStreamCountsPerTenant(t *testing.T) {
	t.Parallel()
	var c streamCounts
	a, b := uuid.New(), uuid.New()
	var releases []func()
	for i := range maxStreamsPerTenant {
		release, ok := c.open(a)
		if !ok {
			t.Fatalf("stream %d of tenant a refused", i+1)
		}
		releases = append(releases, release)
	}
	if _, ok := c.open(a); ok {
		t.Fatalf("stream %d of tenant a accepted", maxStreamsPerTenant+1)
	}
	if release, ok := c.open(b); !ok {
		t.Fatal("tenant b's first stream refused")
	} else {
		release()
	}
	releases[0]()
	releases[0]()
	if _, ok := c.open(a); !ok {
		t.Fatal("tenant a's stream refused after one closed")
	}
	if _, ok := c.open(a); ok {
		t.Fatal("a double release freed two places")
	}
}
