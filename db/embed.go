// Package db holds the database schema (goose migrations) and the SQL
// queries that sqlc turns into the typed Go code in gen/db.
//
// The migrations are embedded so the binary can migrate its database with no
// files on disk.
package db

import "embed"

//go:generate go tool sqlc generate -f sqlc.yaml

// Migrations holds the goose migration files, at migrations/*.sql.
//
//go:embed migrations/*.sql
var Migrations embed.FS
