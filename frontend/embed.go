// Package frontend embeds the built web app (frontend/dist) into the Go binary.
//
// `make build` runs the Vite build before compiling Go. Without a build, dist holds only the
// placeholder that the Makefile writes, and the server says so instead of showing a page.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built web app, rooted at the directory that holds index.html.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		// fs.Sub only fails on an invalid path, and "dist" is a constant valid one.
		panic(err)
	}
	return sub
}
