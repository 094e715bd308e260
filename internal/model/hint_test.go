package model_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestNewSetHintsMigrateOnlyForAMissingSchema: `ragd serve` starts by
// reading the model registry. On a database without ragd's tables the
// error says to run `ragd migrate up`; a failed password authentication
// says what it is, without sending the operator to migrations.
func TestNewSetHintsMigrateOnlyForAMissingSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	open := func(url string) *pgxpool.Pool {
		pool, err := pgxpool.New(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		return pool
	}

	// An application-role pool whose search_path is an empty schema: the
	// database answers, ragd's tables are not there.
	owner := testdb.Owner(t)
	var appRole string
	if err := testdb.App(t).QueryRow(ctx, "SELECT current_user").Scan(&appRole); err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("unmigrated_%d", time.Now().UnixNano())
	for _, sql := range []string{"CREATE SCHEMA " + schema, fmt.Sprintf("GRANT USAGE ON SCHEMA %s TO %q", schema, appRole)} {
		if _, err := owner.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _, _ = owner.Exec(context.WithoutCancel(ctx), "DROP SCHEMA "+schema+" CASCADE") })
	_, err = model.NewSet(ctx, open(testdb.URL()+"&search_path="+schema), cfg, nil, nil)
	if !errors.Is(err, store.ErrUndefinedObject) || !strings.Contains(err.Error(), "ragd migrate up") {
		t.Errorf("an unmigrated database: %v; want ErrUndefinedObject and the migrate hint", err)
	}

	wrong := strings.Replace(testdb.URL(), "://"+appRole+":"+appRole+"@", "://"+appRole+":not-the-password@", 1)
	if wrong == testdb.URL() {
		t.Skipf("the test database URL has no %s:%s credentials to alter", appRole, appRole)
	}
	_, err = model.NewSet(ctx, open(wrong), cfg, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "password authentication failed") || strings.Contains(err.Error(), "migrate") {
		t.Errorf("a wrong password: %v; want the authentication failure without the migrate hint", err)
	}
}
