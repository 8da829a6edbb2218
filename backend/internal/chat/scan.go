package chat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/percolate/percolate/backend/internal/companion"
	dbgen "github.com/percolate/percolate/gen/db"
)

// The two hottest reads, the session list and a session's messages, decode their rows here
// rather than in the generated code, into exactly the generated row types. The generated code
// grows its slice by doubling and allocates every text value (and every emotions array) on
// its own: about 250 allocations and 40 KB of garbage for a page of 50 sessions, which at a
// few thousand reads a second is most of the server's GC work. Here the rows go into one
// slice of the right length and every text value of the page into one string.
// TestHandDecodedRowsMatchGenerated (chat) holds both equal to the generated code's rows.

// span is where one text value lies in a page's text; n < 0 is NULL.
type span struct{ off, n int }

// pageText gathers the text values of a page, to become one string once the page is read.
type pageText struct {
	buf   []byte
	spans []span
	emo   []span // the emotions arrays' elements, in order
	ends  []int  // where each row's emotions end in emo
	msgs  []dbgen.Message
	alone []int16 // each message's alone_level, -1 for NULL
	views []Message
}

var pageTexts = sync.Pool{New: func() any { return &pageText{} }}

// maxPooledText is the largest scratch buffer kept for the next page.
const maxPooledText = 1 << 20

func getPageText() *pageText {
	t := pageTexts.Get().(*pageText)
	t.buf, t.spans, t.emo, t.ends, t.msgs, t.alone, t.views = t.buf[:0], t.spans[:0], t.emo[:0], t.ends[:0], t.msgs[:0], t.alone[:0], t.views[:0]
	return t
}

func (t *pageText) put() {
	clear(t.msgs[:cap(t.msgs)])
	if cap(t.buf) <= maxPooledText && cap(t.msgs) <= 4096 && cap(t.views) <= 4096 {
		pageTexts.Put(t)
	}
}

// add notes one raw text value (nil is NULL).
func (t *pageText) add(v []byte) span {
	if v == nil {
		return span{n: -1}
	}
	s := span{off: len(t.buf), n: len(v)}
	t.buf = append(t.buf, v...)
	return s
}

func (s span) in(all string) string {
	if s.n <= 0 {
		return ""
	}
	return all[s.off : s.off+s.n]
}

// ptrIn is in for a nullable column, the value kept in *slot.
func (s span) ptrIn(all string, slot *string) *string {
	if s.n < 0 {
		return nil
	}
	*slot = s.in(all)
	return slot
}

// addTextArray notes the elements of a text[] value in PostgreSQL's binary format.
func (t *pageText) addTextArray(v []byte) error {
	if v == nil {
		return errors.New("emotions: NULL array")
	}
	if len(v) < 12 {
		return errors.New("emotions: short array header")
	}
	ndim := binary.BigEndian.Uint32(v)
	switch {
	case ndim == 0:
		return nil
	case ndim != 1 || len(v) < 20:
		return fmt.Errorf("emotions: %d dimensions", ndim)
	}
	count := binary.BigEndian.Uint32(v[12:])
	rest := v[20:]
	for range count {
		if len(rest) < 4 {
			return errors.New("emotions: truncated array")
		}
		n := uint64(binary.BigEndian.Uint32(rest)) // NULL is 0xFFFFFFFF
		rest = rest[4:]
		if n > uint64(len(rest)) {
			return errors.New("emotions: NULL or truncated element")
		}
		t.emo = append(t.emo, t.add(rest[:n]))
		rest = rest[n:]
	}
	return nil
}

// sessionRows are the slices decodeSessionsPage decodes a page into, given back by
// putSessionRows once the page's sessions are made of them: about 6.5 KB a page of 50 that
// would otherwise be garbage at every read. (The rows' text is not in them: it stays in the
// page's one string, which the sessions keep.)
var sessionRows = sync.Pool{New: func() any { return new([]dbgen.ListSessionsPageRow) }}

// putSessionRows gives back a page's rows from decodeSessionsPage, which must no longer be used.
func putSessionRows(rows []dbgen.ListSessionsPageRow) {
	if cap(rows) > MaxPageLimit+1 {
		return
	}
	rows = rows[:cap(rows)]
	clear(rows) // drop the pointers into the page's text, so that the pool does not keep it alive
	rows = rows[:0]
	sessionRows.Put(&rows)
}

// decodeSessionsPage decodes ListSessionsPage's rows (at most capacity of them).
func decodeSessionsPage(capacity int) func(pgx.Rows) ([]dbgen.ListSessionsPageRow, error) {
	return func(rows pgx.Rows) ([]dbgen.ListSessionsPageRow, error) {
		// id, title, status, summary, emotions, last_message, updated_at, closing_feeling
		const cols = 8
		if fd := rows.FieldDescriptions(); len(fd) != cols || fd[4].Format != pgtype.BinaryFormatCode {
			return nil, fmt.Errorf("list sessions: unexpected columns (%d)", len(fd))
		}
		t := getPageText()
		defer t.put()
		out := *sessionRows.Get().(*[]dbgen.ListSessionsPageRow)
		if cap(out) < capacity {
			out = make([]dbgen.ListSessionsPageRow, 0, capacity)
		}
		// One row and one list of destinations for all rows: made in the loop, both would escape
		// to the heap at every row (Scan takes them as interfaces).
		var r dbgen.ListSessionsPageRow
		dest := []any{&r.ID, nil, nil, nil, nil, nil, &r.UpdatedAt, nil}
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				return nil, err
			}
			raw := rows.RawValues()
			for _, c := range [...]int{1, 2, 3, 5, 7} {
				if (c == 1 || c == 2 || c == 5) && raw[c] == nil {
					return nil, fmt.Errorf("list sessions: NULL in column %d", c)
				}
				t.spans = append(t.spans, t.add(raw[c]))
			}
			if err := t.addTextArray(raw[4]); err != nil {
				return nil, err
			}
			t.ends = append(t.ends, len(t.emo))
			out = append(out, r)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		all := string(t.buf)
		emotions := make([]string, len(t.emo))
		for i, s := range t.emo {
			emotions[i] = s.in(all)
		}
		nullable := make([]string, 2*len(out)) // what Summary and ClosingFeeling point to
		start := 0
		for i := range out {
			r, s, p := &out[i], t.spans[i*5:i*5+5], nullable[i*2:i*2+2]
			r.Title, r.Status, r.Summary = s[0].in(all), s[1].in(all), s[2].ptrIn(all, &p[0])
			r.LastMessage, r.ClosingFeeling = s[3].in(all), s[4].ptrIn(all, &p[1])
			end := t.ends[i]
			r.Emotions = emotions[start:end:end]
			start = end
		}
		return out, nil
	}
}

// decodeMessages decodes the rows of ListMessagesBySession and ListContextMessages (both
// SELECT * FROM messages).
func decodeMessages(rows pgx.Rows) ([]dbgen.Message, error) {
	if fd := rows.FieldDescriptions(); len(fd) != 10 {
		return nil, fmt.Errorf("messages: unexpected columns (%d)", len(fd))
	}
	t := getPageText()
	defer t.put()
	// One row and one list of destinations for all rows, as in decodeSessionsPage.
	var m dbgen.Message
	var alone pgtype.Int2 // a *int16 would be a new allocation for each row
	dest := []any{&m.ID, &m.SessionID, &m.UserID, nil, nil, &m.TokenCount, &m.CreatedAt, nil, &m.RiskLevel, &alone}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		raw := rows.RawValues()
		for _, c := range [...]int{3, 4, 7} {
			if raw[c] == nil {
				return nil, fmt.Errorf("messages: NULL in column %d", c)
			}
			t.spans = append(t.spans, t.add(raw[c]))
		}
		t.msgs = append(t.msgs, m)
		if !alone.Valid {
			alone.Int16 = -1
		}
		t.alone = append(t.alone, alone.Int16)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	all := string(t.buf)
	out := make([]dbgen.Message, len(t.msgs))
	copy(out, t.msgs)
	var levels []int16
	for i := range out {
		m, s := &out[i], t.spans[i*3:i*3+3]
		m.Role, m.Content, m.Status = s[0].in(all), s[1].in(all), s[2].in(all)
		if a := t.alone[i]; a >= 0 {
			if levels == nil {
				levels = make([]int16, len(out))
			}
			levels[i] = a
			m.AloneLevel = &levels[i]
		}
	}
	return out, nil
}

// versionedMessages is what ListMessagesUnlessVersion read: the session's version as that
// statement saw it, and the session's messages (those the caller sees: the user's and the
// companion's) unless that was the version asked about.
type versionedMessages struct {
	version int64
	found   bool // a row came back: the session is (still) the user's
	msgs    []Message
}

// decodeVersionedMessages decodes ListMessagesUnlessVersion's rows: either one row with NULL
// message columns (the version asked about, or no messages) or one row per message, each
// carrying the version. Its text values go into one string, as in decodeMessages.
func decodeVersionedMessages(rows pgx.Rows) (versionedMessages, error) {
	// version, id, role, content, token_count, created_at, status
	if fd := rows.FieldDescriptions(); len(fd) != 7 {
		return versionedMessages{}, fmt.Errorf("versioned messages: unexpected columns (%d)", len(fd))
	}
	t := getPageText()
	defer t.put()
	var out versionedMessages
	var m Message
	var tokens int32
	header := []any{&out.version, nil, nil, nil, nil, nil, nil}
	dest := []any{&out.version, &m.ID, nil, nil, &tokens, &m.CreatedAt, nil}
	for rows.Next() {
		out.found = true
		raw := rows.RawValues()
		if raw[1] == nil {
			if err := rows.Scan(header...); err != nil {
				return versionedMessages{}, err
			}
			continue
		}
		if err := rows.Scan(dest...); err != nil {
			return versionedMessages{}, err
		}
		for _, c := range [...]int{2, 3, 6} {
			if raw[c] == nil {
				return versionedMessages{}, fmt.Errorf("versioned messages: NULL in column %d", c)
			}
		}
		// Only the user's and the companion's messages are shown; the texts of the others are
		// not kept.
		if r := string(raw[2]); r != companion.RoleUser && r != companion.RoleAssistant {
			continue
		}
		for _, c := range [...]int{2, 3, 6} {
			t.spans = append(t.spans, t.add(raw[c]))
		}
		m.TokenCount = int(tokens)
		t.views = append(t.views, m)
	}
	if err := rows.Err(); err != nil {
		return versionedMessages{}, err
	}
	all := string(t.buf)
	out.msgs = make([]Message, len(t.views))
	copy(out.msgs, t.views)
	for i := range out.msgs {
		m, s := &out.msgs[i], t.spans[i*3:i*3+3]
		m.Role, m.Content, m.Status = s[0].in(all), s[1].in(all), s[2].in(all)
	}
	return out, nil
}
