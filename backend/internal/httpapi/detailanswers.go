package httpapi

import (
	"bytes"
	"io"
	"net/http"

	"github.com/go-json-experiment/json"
	"github.com/google/uuid"
	"github.com/klauspost/compress/gzip"

	"github.com/percolate/percolate/backend/internal/cache"
	"github.com/percolate/percolate/backend/internal/chat"
)

// A session's detail is read again and again while its chat is open, and between two writes
// its answer does not change; gzipping it was the largest part of its cost once the chat
// service stopped reading unchanged messages (bench/findings.md). So each instance keeps the
// gzipped answer of recently read sessions, by session, with the version it was made at
// (chat.Detail.Version) and the answer without its messages (which holds all the rest the
// bytes depend on: what the caller's role may see, whether a reply is in progress). A read
// whose detail is of the same version, with the same rest, writes the kept bytes. The chat
// service says first whether the session is the caller's, so a kept answer is only ever
// written to its owner; it is exactly the answer made afresh (TestKeptDetailIsTheFreshAnswer).

// keptDetailBytes bounds what an instance keeps of gzipped session answers.
const keptDetailBytes = 4 << 20

// keptDetail is one session's kept answer.
type keptDetail struct {
	version int64
	head    []byte // the answer without its messages, as JSON
	gzip    []byte
}

// keptDetails is the instance's kept answers; nil keeps nothing.
type keptDetails = cache.Cache[uuid.UUID, *keptDetail]

func newKeptDetails(maxBytes int) *keptDetails {
	return cache.New(cache.Config[uuid.UUID, *keptDetail]{MaxBytes: maxBytes, Bytes: func(k *keptDetail) int {
		return 256 + len(k.head) + len(k.gzip)
	}})
}

// detailAnswer is GET /api/chat/sessions/{id}'s 200 answer.
type detailAnswer struct {
	d    chat.Detail
	kept *keptDetails
}

func (a detailAnswer) VisitGetChatSessionResponse(w http.ResponseWriter) error {
	if a.kept == nil || a.d.Version < 0 || !compressing(w) {
		return sessionDetailOf(&a.d).VisitGetChatSessionResponse(w)
	}
	h := sessionHeadOf(&a.d)
	head, err := json.Marshal(&h, jsonOptions)
	if err != nil {
		return err
	}
	if k, ok := a.kept.Get(a.d.ID); ok && k.version == a.d.Version && bytes.Equal(k.head, head) {
		return writeGzipped(w, k.gzip)
	}
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	out := sessionDetailOf(&a.d)
	if err := encodeJSON(buf, &out); err != nil {
		return err
	}
	if buf.Len() < minGzipBytes {
		return writeJSONBytes(w, buf.Bytes()) // sent as it is, which costs nothing to make again
	}
	k := &keptDetail{version: a.d.Version, head: head, gzip: gzipped(buf.Bytes())}
	a.kept.Set(a.d.ID, k)
	return writeGzipped(w, k.gzip)
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
