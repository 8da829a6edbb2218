package app

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
)

func TestWarnIfSampleContent(t *testing.T) {
	tests := []struct {
		name string
		fs   fstest.MapFS
		warn bool
	}{
		{"sample content", fstest.MapFS{contentStatusFile: {Data: []byte(`{"sample":true}`)}}, true},
		{"real content", fstest.MapFS{contentStatusFile: {Data: []byte(`{"sample":false}`)}}, false},
		{"no build", fstest.MapFS{"index.html": {Data: []byte("placeholder")}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			warnIfSampleContent(tt.fs, slog.New(slog.NewTextHandler(&buf, nil)))
			if got := strings.Contains(buf.String(), "SAMPLE"); got != tt.warn {
				t.Errorf("warned = %v, want %v; log: %s", got, tt.warn, buf.String())
			}
		})
	}
}
