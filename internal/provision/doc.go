// Package provision is the operator's tenant work that is more than one
// statement: creating a tenant (Create) and applying a tenant manifest
// (Apply: tenants/<slug>/tenant.yaml → the tenant row, its sources ingested
// idempotently, the index policy, the evaluation set loaded, optionally
// tuned, and run). The rules live here, not in a command: `ragd tenant
// create` and `ragd tenant apply` parse flags and print what these functions
// report, and an HTTP handler could call them the same way.
//
// Everything here runs as the owner role where it touches the tenants table
// or DDL (creation, renaming, vindex.Due) and through the application-role
// request path (app.App) for the tenant's own data, as the CLI did before.
package provision
