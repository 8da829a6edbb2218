package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// TestUUIDsInBinary: the store's connections read and write uuid.UUID as PostgreSQL's 16
// binary bytes (not through its text form), NULLs and pointers included.
func TestUUIDsInBinary(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()

	c, err := s.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	typ, ok := c.Conn().TypeMap().TypeForOID(pgtype.UUIDOID)
	c.Release()
	if !ok {
		t.Fatal("no type for uuid")
	}
	if _, stock := typ.Codec.(pgtype.UUIDCodec); stock {
		t.Fatal("the connection reads uuids with pgx's stock codec (through uuid.UUID's sql.Scanner)")
	}

	id := uuid.New()
	var got uuid.UUID
	var text string
	var ptr *uuid.UUID
	if err := s.Pool().QueryRow(ctx, "SELECT $1::uuid, $1::uuid::text, $2::uuid", id, &id).Scan(&got, &text, &ptr); err != nil {
		t.Fatal(err)
	}
	if got != id || text != id.String() || ptr == nil || *ptr != id {
		t.Fatalf("read %v, %q, %v; want %v", got, text, ptr, id)
	}

	var none *uuid.UUID
	var isNull bool
	ptr = &id
	if err := s.Pool().QueryRow(ctx, "SELECT NULL::uuid, $1::uuid IS NULL", none).Scan(&ptr, &isNull); err != nil {
		t.Fatal(err)
	}
	if ptr != nil || !isNull {
		t.Fatalf("NULL read as %v, nil pointer written as NULL: %v", ptr, isNull)
	}
	if err := s.Pool().QueryRow(ctx, "SELECT NULL::uuid").Scan(&got); err == nil {
		t.Fatal("NULL was read into a uuid.UUID without an error")
	}
	// Text in, uuid out: a uuid given as text still reads.
	if err := s.Pool().QueryRow(ctx, "SELECT $1::text::uuid", id.String()).Scan(&got); err != nil || got != id {
		t.Fatalf("read %v, %v; want %v", got, err, id)
	}
}
