package httpapi

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// cutShortExport writes the given number of bytes of a zip (none: fails before its first
// byte) and then fails, as an export does when the database goes away part-way.
type cutShortExport struct{ bytes int }

func (cutShortExport) Begin(context.Context, uuid.UUID) error { return nil }

func (e cutShortExport) Write(_ context.Context, _ uuid.UUID, w io.Writer) error {
	if e.bytes > 0 {
		zw := zip.NewWriter(w)
		f, err := zw.CreateHeader(&zip.FileHeader{Name: "percolate-export.json", Method: zip.Store})
		if err != nil {
			return err
		}
		if _, err := f.Write(bytes.Repeat([]byte("x"), e.bytes)); err != nil {
			return err
		}
		if err := zw.Flush(); err != nil {
			return err
		}
	}
	return errors.New("export sessions: the database went away")
}

// An export that fails once its response has started must break the download, so the
// client sees a failed transfer: never a 200 whose zip has a JSON error appended.
func TestExportCutShortBreaksTheDownload(t *testing.T) {
	for _, n := range []int{0, 200 << 10} {
		srv := httptest.NewServer(buildHandler(t, Deps{Verifier: userTokens{}, Export: cutShortExport{bytes: n}}))
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/profile/export", nil)
		req.Header.Set("Authorization", "Bearer token-"+uuid.NewString())
		res, err := srv.Client().Do(req)
		if err != nil {
			// Broken before the status line left the server's buffer: a failed download.
			srv.Close()
			continue
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		srv.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%d bytes: status %d", n, res.StatusCode)
		}
		if err == nil {
			t.Errorf("%d bytes: the broken export read as a whole body of %d bytes", n, len(body))
		}
		// The error shape of the contract (api.ErrorResponse), by its code and its member.
		if strings.Contains(string(body), "INTERNAL_ERROR") {
			t.Errorf("%d bytes: an INTERNAL_ERROR was appended to the zip", n)
		}
		if strings.Contains(string(body), `"code"`) {
			t.Errorf("%d bytes: a JSON error (a \"code\" member) was appended to the zip", n)
		}
		if len(body) < n {
			t.Errorf("%d bytes: only %d arrived before the break", n, len(body))
		}
	}
}
