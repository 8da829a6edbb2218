// Package keyset makes and reads the opaque cursors of keyset-paged lists (the sessions, the
// check-ins): the (time, id) of the last row of a page, after which the next page starts.
package keyset

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// First is a cursor time past every row: where the first page starts.
var First = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// Encode is the cursor of the page after the row (at, id).
func Encode(at time.Time, id uuid.UUID) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(at.UnixMicro(), 10) + "_" + id.String()))
}

// Decode reads a cursor made by Encode; for anything else it returns bad.
func Decode(c string, bad error) (time.Time, uuid.UUID, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return time.Time{}, uuid.Nil, bad
	}
	micros, idText, ok := strings.Cut(string(raw), "_")
	if !ok {
		return time.Time{}, uuid.Nil, bad
	}
	us, err := strconv.ParseInt(micros, 10, 64)
	if err != nil || us < 0 || us > First.UnixMicro() {
		return time.Time{}, uuid.Nil, bad
	}
	id, err := uuid.Parse(idText)
	if err != nil || id.String() != idText {
		return time.Time{}, uuid.Nil, bad
	}
	return time.UnixMicro(us).UTC(), id, nil
}
