// Package vindex is the dedicated vector indexes' lifecycle: write-side
// operator work, apart from the query path that walks them (internal/search)
// and the SQL it runs (internal/store: queries/indexes.sql, indexes.go).
//
// A tenant whose chunks of one embedding model
// outnumber the exact-search threshold gets its own partial HNSW index,
//
//	CREATE INDEX ce_halfvec_<model>_<tenant hex> ON chunk_embeddings
//	  USING hnsw ((embedding::halfvec(<dims>)) halfvec_cosine_ops)
//	  WITH (m = 16, ef_construction = 128)
//	  WHERE model_id = <model> AND tenant_id = '<tenant>'
//
// over the vectors cast to 16-bit floats (half the pages per walk, models
// of up to 4,000 dimensions; the vector leg re-ranks the walk's candidates
// at full precision), which replaced the index over 32-bit vectors
// (ce_hnsw_…): Ensure builds the halfvec index and then retires the old one.
//
// and smaller tenants have none: the vector leg scans them exactly. Measured
// against one shared per-model index (docs/BENCHMARKS.md): a shared graph
// walked under the tenant filter visits about 1/share rows per result, so a
// tenant holding 1 % of the rows paid 70–100 ms per query; a dedicated graph
// holds only the tenant's rows, so its walk costs what a small index costs,
// and inserting into a small tenant touches no graph at all. The price is DDL
// per large tenant (the planner checks each partial index's predicate, so
// this suits hundreds of large tenants, not hundreds of thousands; see
// docs/SCALING.md) and an operator step: Ensure, run by
// `ragd tenant index`, `ragd migrate up` and `ragd tenant apply`. Until it
// runs, a tenant that grew past the threshold is still answered correctly,
// by an exact scan.
package vindex
