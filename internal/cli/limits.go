package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// runTenantLimits sets a tenant's own rates and quotas (tenant.Limits) with
// the owner role: they are the operator's decision, so the tenant's API
// (PATCH /v1/tenant/settings) cannot change them.
// tenantLimitsUsage is the usage line of `ragd tenant limits`.
const tenantLimitsUsage = "tenant limits --slug <slug> [--query-rate N] [--write-rate N] [--admin-rate N] [--max-documents N] [--max-chunks N] [--max-bytes N]" +
	"  (rates in requests/s; 0 = unlimited; a negative value returns to the server's default)"

func runTenantLimits(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "tenant limits", tenantLimitsUsage)
	slug := fs.String("slug", "", "tenant slug")
	fs.StringVar(slug, "tenant", "", "tenant slug (alias of --slug)")
	rates := map[string]*float64{}
	for _, n := range []string{"query-rate", "write-rate", "admin-rate"} {
		rates[n] = fs.Float64(n, 0, "requests per second ("+n[:len(n)-5]+" routes)")
	}
	quotas := map[string]*int64{}
	for _, n := range []string{"max-documents", "max-chunks", "max-bytes"} {
		quotas[n] = fs.Int64(n, 0, "storage quota")
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("%s: unexpected argument %q", tenantLimitsUsage, pos[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	pool, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 1, Logger: e.log})
	if err != nil {
		return err
	}
	defer pool.Close()
	t, err := tenantBySlug(ctx, pool, *slug)
	if err != nil {
		return err
	}
	var out tenant.Limits
	err = store.InTenant(ctx, pool, t.ID, func(tx pgx.Tx) error {
		q := store.New()
		raw, err := q.LockTenantSettings(ctx, tx, t.ID)
		if err != nil {
			return err
		}
		s, err := tenant.ParseSettings(raw)
		if err != nil {
			return err
		}
		l := tenant.Limits{}
		if s.Limits != nil {
			l = *s.Limits
		}
		fp := map[string]**float64{"query-rate": &l.QueryRate, "write-rate": &l.WriteRate, "admin-rate": &l.AdminRate}
		for n, v := range rates {
			if set[n] {
				*fp[n] = nil
				if *v >= 0 {
					x := *v
					*fp[n] = &x
				}
			}
		}
		ip := map[string]**int64{"max-documents": &l.MaxDocuments, "max-chunks": &l.MaxChunks, "max-bytes": &l.MaxBytes}
		for n, v := range quotas {
			if set[n] {
				*ip[n] = nil
				if *v >= 0 {
					x := *v
					*ip[n] = &x
				}
			}
		}
		s.Limits = &l
		if l == (tenant.Limits{}) {
			s.Limits = nil
		}
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		out = l
		return q.UpdateTenantSettings(ctx, tx, store.UpdateTenantSettingsParams{ID: t.ID, Settings: b})
	})
	if err != nil {
		return err
	}
	show := func(name string, f *float64, i *int64) {
		v := "server default"
		switch {
		case f != nil:
			v = strconv.FormatFloat(*f, 'g', -1, 64)
		case i != nil:
			v = strconv.FormatInt(*i, 10)
		}
		fmt.Fprintf(e.stdout, "%s\t%s\n", name, v)
	}
	show("query_rate", out.QueryRate, nil)
	show("write_rate", out.WriteRate, nil)
	show("admin_rate", out.AdminRate, nil)
	show("max_documents", nil, out.MaxDocuments)
	show("max_chunks", nil, out.MaxChunks)
	show("max_bytes", nil, out.MaxBytes)
	return nil
}

// runPurgeEvents deletes the retrieval events and usage counters past each
// tenant's retention, for every tenant (the server purges only the tenants
// it records for): run it periodically, e.g. daily from cron.
func runPurgeEvents(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "tenant purge-events", "tenant purge-events [--slug <slug>]  (every tenant when no slug)")
	slug := fs.String("slug", "", "only this tenant")
	fs.StringVar(slug, "tenant", "", "only this tenant (alias of --slug)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	pool, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 1, Logger: e.log})
	if err != nil {
		return err
	}
	defer pool.Close()
	return purgeEvents(ctx, e, pool, *slug)
}

func purgeEvents(ctx context.Context, e *env, pool *pgxpool.Pool, slug string) error {
	q := store.New()
	ts, err := q.ListTenants(ctx, pool)
	if err != nil {
		return err
	}
	var errs []error
	for _, row := range ts {
		if slug != "" && row.Slug != slug {
			continue
		}
		s, err := tenant.ParseSettings(row.Settings)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", row.Slug, err))
			continue
		}
		if err := store.InTenant(ctx, pool, row.ID, func(tx pgx.Tx) error {
			return traffic.Purge(ctx, tx, row.ID, s.RetentionDays(), time.Now())
		}); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", row.Slug, err))
			continue
		}
		fmt.Fprintf(e.stdout, "%s: events older than %d days purged\n", row.Slug, s.RetentionDays())
	}
	return errors.Join(errs...)
}
