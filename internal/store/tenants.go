package store

import (
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// QueueGetTenant queues GetTenant (queries/tenants.sql) on b, for
// SendTenantBatch: the tenant row in one round trip instead of InTenant's
// four (BEGIN, the tenant setting, the query, COMMIT), which every API
// request pays before its own work. fn receives the row, or found = false
// when the transaction sees no tenant with the id. The scan is GetTenant's,
// column for column (TestQueueGetTenantMatchesGetTenant).
func QueueGetTenant(b *pgx.Batch, id uuid.UUID, fn func(row GetTenantRow, found bool) error) {
	b.Queue(getTenant, id).Query(func(rows pgx.Rows) error {
		defer rows.Close()
		var i GetTenantRow
		found := rows.Next()
		if found {
			if err := rows.Scan(&i.ID, &i.Slug, &i.Name, &i.TsConfig, &i.Status, &i.Settings, &i.CreatedAt, &i.ChunkCount,
				&i.EmbeddingModelID, &i.TargetModelID, &i.PreviousModelID, &i.ModelSwitchedAt, &i.ModelSwitchError); err != nil {
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		return fn(i, found)
	})
}
