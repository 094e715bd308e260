package traffic_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
	"github.com/ragd-dev/ragd/internal/traffic"
)

func countEvents(t *testing.T, db store.Beginner, tenant uuid.UUID) int64 {
	t.Helper()
	var n int64
	err := store.InTenant(t.Context(), db, tenant, func(tx pgx.Tx) error {
		rows, err := store.New().ListRetrievalEvents(t.Context(), tx, store.ListRetrievalEventsParams{TenantID: tenant, MaxRows: 1000,
			Since: pgtype.Timestamptz{Time: time.Unix(0, 0), Valid: true}, Until: pgtype.Timestamptz{Time: time.Now().Add(time.Hour), Valid: true}})
		n = int64(len(rows))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWriterRetentionAndFailures: the writer stores a batch per tenant,
// purges what is past the tenant's retention, counts a refused batch
// without failing anything else, and events go with their tenant.
func TestWriterRetentionAndFailures(t *testing.T) {
	t.Parallel()
	a := testdb.NewTenant(t, "traffic", "")
	b := testdb.NewTenant(t, "traffic", "")
	r := traffic.New(testdb.App(t), 100)
	now := time.Now()
	ev := func(tenant uuid.UUID, at time.Time) traffic.Event {
		return traffic.Event{ID: uuid.Must(uuid.NewV7()), TenantID: tenant, At: at, Operation: "search", Question: "q", KeepText: true, RetentionDays: 30}
	}
	r.Count(a.ID, traffic.QueryRequests, 2)
	r.Flush(t.Context(), []traffic.Event{ev(a.ID, now), ev(a.ID, now.Add(-40*24*time.Hour)), ev(b.ID, now),
		ev(uuid.New(), now)}) // a tenant that does not exist: its batch fails alone
	if got := countEvents(t, testdb.App(t), a.ID); got != 1 {
		t.Errorf("tenant a keeps %d events, want 1 (the 40-day-old one purged)", got)
	}
	if got := countEvents(t, testdb.App(t), b.ID); got != 1 {
		t.Errorf("tenant b keeps %d events, want 1", got)
	}
	if r.Failed() != 1 {
		t.Errorf("write failures %d, want 1", r.Failed())
	}
	var u store.SumTenantUsageRow
	err := store.InTenant(t.Context(), testdb.App(t), a.ID, func(tx pgx.Tx) error {
		var err error
		u, err = store.New().SumTenantUsage(t.Context(), tx, store.SumTenantUsageParams{TenantID: a.ID, SinceDay: pgtype.Date{Time: now.AddDate(0, 0, -1), Valid: true}})
		return err
	})
	if err != nil || u.QueryRequests != 2 {
		t.Errorf("usage %+v %v, want 2 query requests", u, err)
	}
	if _, err := store.New().DeleteTenant(t.Context(), testdb.Owner(t), b.ID); err != nil {
		t.Fatal(err)
	}
	// The owner role under the deleted tenant's id sees whatever is left.
	if left := countEvents(t, testdb.Owner(t), b.ID); left != 0 {
		t.Errorf("%d events outlived their tenant", left)
	}
}

// TestWaitForAPendingEvent: an event queued and not yet written is
// pending; Wait has the writer write it at once (its interval here is an
// hour) and returns when it is stored. While the writer is held (not
// running), Wait ends with its context; an id never queued is not waited
// for.
func TestWaitForAPendingEvent(t *testing.T) {
	t.Parallel()
	a := testdb.NewTenant(t, "traffic", "")
	r := traffic.New(testdb.App(t), 10, traffic.WithFlushEvery(time.Hour))
	e := traffic.Event{ID: uuid.Must(uuid.NewV7()), TenantID: a.ID, At: time.Now(), Operation: "answer", Question: "q", KeepText: true, RetentionDays: 30}
	if !r.Record(e) {
		t.Fatal("event not queued")
	}
	if err := r.Wait(t.Context(), uuid.Must(uuid.NewV7())); err != nil {
		t.Fatalf("an id never queued: %v, want no wait", err)
	}
	held, cancel := context.WithCancel(t.Context())
	cancel()
	if err := r.Wait(held, e.ID); !errors.Is(err, context.Canceled) {
		t.Fatalf("the writer held: Wait = %v, want the context's error", err)
	}
	if got := countEvents(t, testdb.App(t), a.ID); got != 0 {
		t.Fatalf("%d events stored with the writer held", got)
	}
	ctx, stop := context.WithCancel(context.WithoutCancel(t.Context()))
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	if err := r.Wait(t.Context(), e.ID); err != nil {
		t.Fatal(err)
	}
	if got := countEvents(t, testdb.App(t), a.ID); got != 1 {
		t.Fatalf("%d events stored once Wait returned, want 1", got)
	}
	if err := r.Wait(t.Context(), e.ID); err != nil {
		t.Fatalf("a written event: %v", err)
	}
}
