// Package db ships ragd's schema migrations inside the binary.
//
// Migrations are goose SQL files with zero-padded versions (00001_init.sql, …),
// applied by `ragd migrate up|down|status` as the owner role. Source:
// https://pressly.github.io/goose/.
package db

import "embed"

// Migrations holds db/migrations/*.sql, embedded at build time.
//
//go:embed migrations/*.sql
var Migrations embed.FS
