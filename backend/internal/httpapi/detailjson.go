package httpapi

import (
	"bytes"
	"io"
	"net/http"

	"github.com/klauspost/compress/gzip"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/gen/api"
)

// A session's detail that the chat service keeps (chat.Detail.Cached) is encoded once per
// version of the session (and role, and whether a reply is in progress): its JSON, and that
// JSON gzipped as gzipResponses would, are kept with it, and later reads write them as they
// are. The bytes are exactly those of the uncached answer (TestCachedDetailIsTheUncachedAnswer).

// detailAnswer is GET /api/chat/sessions/{id}'s 200 answer.
type detailAnswer struct{ d chat.Detail }

func (a detailAnswer) VisitGetChatSessionResponse(w http.ResponseWriter) error {
	if r, ok := a.d.Rendered(); ok {
		return writeRendered(w, r)
	}
	out := sessionDetailOf(&a.d)
	if !a.d.Cached() {
		return out.VisitGetChatSessionResponse(w)
	}
	buf := jsonBuffers.Get().(*[]byte)
	defer putJSONBuffer(buf)
	b, ok := appendSessionDetail((*buf)[:0], (*api.SessionDetail)(&out))
	*buf = b
	if !ok {
		return out.VisitGetChatSessionResponse(w) // encoding/json's answer, not kept
	}
	r := chat.Rendered{Body: bytes.Clone(b)}
	if len(b) >= minGzipBytes {
		r.Gzip = gzipped(b)
	}
	a.d.KeepRendered(r)
	return writeRendered(w, r)
}

// writeRendered writes a kept answer: gzipped when gzipResponses would compress it (the
// client accepts gzip), which then passes it through as it is, since it has its
// Content-Encoding already; otherwise as it is, through whatever gzipResponses would do.
func writeRendered(w http.ResponseWriter, r chat.Rendered) error {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	body := r.Body
	if r.Gzip != nil && compressing(w) {
		// The headers gzipWriter gives a response it compresses.
		h.Add("Vary", "Accept-Encoding")
		h.Set("Content-Encoding", "gzip")
		body = r.Gzip
	}
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}

// compressing reports whether w is (or wraps) a gzipWriter that has written nothing yet: the
// client accepts gzip, and a compressible answer of minGzipBytes or more would be compressed.
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
