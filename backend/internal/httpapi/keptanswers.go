package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/google/uuid"
	"github.com/klauspost/compress/gzip"

	"github.com/percolate/percolate/backend/internal/cache"
	"github.com/percolate/percolate/backend/internal/chat"
)

// A session's detail is read again and again while its chat is open, and the session list
// at every visit of the dashboard; between two writes neither answer changes, and encoding
// and gzipping them was the largest part of their cost once the chat service stopped reading
// unchanged messages (bench/findings.md). So each instance keeps the gzipped answers it made
// recently, each with the version it was made at: a read of the same version writes the kept
// bytes. The chat service says first whether the rows are the caller's, and a key holds the
// caller's id or the session's, so a kept answer is only ever written to its owner; it is
// exactly the answer made afresh (TestKeptDetailIsTheFreshAnswer, TestKeptListIsTheFreshAnswer).

// keptAnswerBytes bounds what an instance keeps of gzipped answers.
const keptAnswerBytes = 4 << 20

// keptAnswer is one kept answer and the version it was made at.
type keptAnswer struct {
	version string
	gzip    []byte
}

// keptAnswers is the instance's kept answers by key; nil keeps nothing.
type keptAnswers = cache.Cache[string, *keptAnswer]

func newKeptAnswers(maxBytes int) *keptAnswers {
	return cache.New(cache.Config[string, *keptAnswer]{MaxBytes: maxBytes, Bytes: func(k *keptAnswer) int {
		return 256 + len(k.version) + len(k.gzip)
	}})
}

// writeKept writes a 200 JSON answer: the one kept under key when it was made at the answer's
// version, else the one encode makes, kept when it is worth gzipping. Only gzipped answers
// are kept: to a client that does not accept gzip the answer is made afresh, and version
// (which may cost an encoding of its own) is not asked for.
func writeKept(w http.ResponseWriter, kept *keptAnswers, key string, version func() (string, error), encode func(*bytes.Buffer) error) error {
	compress := kept != nil && compressing(w)
	var v string
	if compress {
		var err error
		if v, err = version(); err != nil {
			return err
		}
		if k, ok := kept.Get(key); ok && k.version == v {
			return writeGzipped(w, k.gzip)
		}
	}
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	if err := encode(buf); err != nil {
		return err
	}
	if !compress || buf.Len() < minGzipBytes {
		return writeJSONBytes(w, buf.Bytes()) // gzipped by gzipResponses, or sent as it is
	}
	k := &keptAnswer{version: v, gzip: gzipped(buf.Bytes())}
	kept.Set(key, k)
	return writeGzipped(w, k.gzip)
}

// detailAnswer is GET /api/chat/sessions/{id}'s 200 answer, kept by session at the detail's
// version (chat.Detail.Version) and the answer without its messages (which holds all the rest
// the bytes depend on: what the caller's role may see, whether a reply is in progress).
type detailAnswer struct {
	d    chat.Detail
	kept *keptAnswers
}

func (a detailAnswer) VisitGetChatSessionResponse(w http.ResponseWriter) error {
	encode := func(buf *bytes.Buffer) error {
		out := sessionDetailOf(&a.d)
		return encodeJSON(buf, &out)
	}
	kept := a.kept
	if a.d.Version < 0 {
		kept = nil
	}
	return writeKept(w, kept, "detail\x00"+string(a.d.ID[:]), func() (string, error) {
		h := sessionHeadOf(&a.d)
		head, err := json.Marshal(&h, jsonOptions)
		if err != nil {
			return "", err
		}
		return string(strconv.AppendInt(append(head, 0), a.d.Version, 10)), nil
	}, encode)
}

// listAnswer is GET /api/chat/sessions's 200 answer, kept by the caller and the page asked
// for, at the page's version (chat.Page.Version) and its Link.
type listAnswer struct {
	page chat.Page
	link *string
	key  string
	kept *keptAnswers
}

func (a listAnswer) VisitListChatSessionsResponse(w http.ResponseWriter) error {
	version := a.page.Version
	if a.link != nil {
		w.Header().Set("Link", *a.link)
		version += "\x00" + *a.link
	}
	return writeKept(w, a.kept, a.key, func() (string, error) { return version, nil }, func(buf *bytes.Buffer) error {
		return encodeJSON(buf, apiSessionItems(a.page.Items))
	})
}

// listKey is the key of a page of uid's session list: the same user, cursor and limit ask
// for the same page.
func listKey(uid uuid.UUID, cursor *string, limit *int) string {
	key := "list\x00" + string(uid[:])
	if cursor != nil {
		key += "\x00c" + *cursor
	}
	if limit != nil {
		key += "\x00l" + strconv.Itoa(*limit)
	}
	return key
}

// writeGzipped writes a gzipped 200 JSON answer with the headers gzipResponses gives one it
// compresses; gzipResponses passes it through as it is, since it has its Content-Encoding.
func writeGzipped(w http.ResponseWriter, body []byte) error {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Add("Vary", "Accept-Encoding")
	h.Set("Content-Encoding", "gzip")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}

// compressing reports whether w is (or wraps) a gzipWriter that has written nothing yet: the
// client accepts gzip, and an answer of minGzipBytes or more would be compressed.
func compressing(w http.ResponseWriter) bool {
	for {
		if g, ok := w.(*gzipWriter); ok {
			return !g.started()
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return false
		}
		w = u.Unwrap()
	}
}

// gzipped is b compressed as gzipWriter compresses a response written in one piece.
func gzipped(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b)/3 + 64)
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&out)
	_, _ = zw.Write(b) // a bytes.Buffer never fails
	_ = zw.Close()
	zw.Reset(io.Discard)
	gzipWriters.Put(zw)
	return out.Bytes()
}
