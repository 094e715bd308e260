package provision

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ragd-dev/ragd/internal/store"
)

// languages maps a tenant's language to its PostgreSQL text-search
// configuration. Only configurations whose analysis the keyword leg was
// measured with are offered.
var languages = map[string]string{"english": "english", "simple": "simple"}

// Languages returns the accepted tenant languages, sorted.
func Languages() []string {
	out := make([]string, 0, len(languages))
	for l := range languages {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// TSConfig returns the text-search configuration of language, and false for
// a language that is not offered.
func TSConfig(language string) (string, bool) {
	c, ok := languages[language]
	return c, ok
}

// Errors of Create (and of Apply, which creates a missing tenant).
var (
	// ErrExists: a tenant with the slug exists already.
	ErrExists = errors.New("tenant already exists")
	// ErrInvalidSlug: the slug is not 1-63 lowercase letters, digits and
	// dashes, or the name not 1-200 characters (the tenants table's check
	// constraints).
	ErrInvalidSlug = errors.New("invalid slug or name: the slug is lowercase letters, digits and dashes, 1-63 characters; the name 1-200 characters")
	// ErrLanguage: the language is not one of Languages.
	ErrLanguage = errors.New("unknown language")
)

// Create creates tenant slug named name with language's text-search
// configuration. owner is the owner role (the only one that may create
// tenants). Errors: ErrLanguage, ErrExists, ErrInvalidSlug (each wrapped
// with the value), store errors.
func Create(ctx context.Context, owner store.DBTX, slug, name, language string) (store.CreateTenantRow, error) {
	cfg, ok := TSConfig(language)
	if !ok {
		return store.CreateTenantRow{}, fmt.Errorf("%w %q (want english or simple)", ErrLanguage, language)
	}
	t, err := store.New().CreateTenant(ctx, owner, store.CreateTenantParams{Slug: slug, Name: name, TsConfig: cfg})
	switch err = store.Translate(err); {
	case errors.Is(err, store.ErrConflict):
		return t, fmt.Errorf("%w: %q", ErrExists, slug)
	case errors.Is(err, store.ErrInvalidValue):
		return t, fmt.Errorf("%w: %q", ErrInvalidSlug, slug)
	}
	return t, err
}
