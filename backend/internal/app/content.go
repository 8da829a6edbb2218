package app

import (
	"encoding/json"
	"io/fs"
	"log/slog"
)

// contentStatusFile is written by the web app's build (frontend/vite.config.ts) from
// frontend/src/content/content.json, the file operators edit for testimonials and team members.
const contentStatusFile = "content-status.json"

// warnIfSampleContent logs a warning while the built web app still shows the shipped sample
// testimonials and team members: a real launch must not present invented people as real ones.
func warnIfSampleContent(webApp fs.FS, logger *slog.Logger) {
	b, err := fs.ReadFile(webApp, contentStatusFile)
	if err != nil {
		// No build (the placeholder dist) or an older build: nothing to say.
		return
	}
	var status struct {
		Sample bool `json:"sample"`
	}
	if err := json.Unmarshal(b, &status); err != nil {
		logger.Warn("cannot read the web app's content status", "file", contentStatusFile, "error", err.Error())
		return
	}
	if status.Sample {
		logger.Warn("the web app shows SAMPLE testimonials and team members; edit frontend/src/content/content.json, set \"sample\": false and rebuild before launch")
	}
}
