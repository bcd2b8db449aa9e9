package web

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// staticFile is one file of the embedded static folder, with its gzip form.
type staticFile struct {
	raw, gz []byte
	ctype   string
}

// staticFiles reads the static folder once and compresses every file:
// phones fetch the scripts and stylesheets gzipped (about a third of their
// size), which keeps the simulation view and the race light.
func staticFiles() (map[string]staticFile, error) {
	files := map[string]staticFile{}
	err := fs.WalkDir(assets, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(assets, p)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		ctype, ok := staticTypes[path.Ext(p)]
		if !ok {
			ctype = http.DetectContentType(raw)
		}
		files["/"+p] = staticFile{raw: raw, gz: b.Bytes(), ctype: ctype}
		return nil
	})
	return files, err
}

// staticTypes are the content types of the static files (fixed here, not
// read from the system's MIME database).
var staticTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
	".svg": "image/svg+xml",
}

// acceptsGzip reports whether the request accepts a gzip body.
func acceptsGzip(r *http.Request) bool {
	for _, e := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(e), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// handleStatic serves the embedded static files, gzipped when the client
// takes it; anything else under /static/ is the site's 404 page.
func (s *Server) handleStatic(w http.ResponseWriter, r *http.Request) {
	f, ok := s.static[r.URL.Path]
	if !ok {
		s.errorPage(w, r, http.StatusNotFound, "There is no page at this address.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Vary", "Accept-Encoding")
	body := f.raw
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	w.Write(body)
}
