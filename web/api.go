package web

import (
	"encoding/json"
	"errors"
	"github.com/readsim/readsim/effort"
	"net/http"
	"slices"
)

// The JSON API: everything the pages show.
//
//	GET /api/search?q=Q            {"query":Q,"hits":[{rank,id,title,snippet,score,passages:[{offset,length}],lang}]}
//	GET /api/article/{id}?q=Q      {"id","title","length","lang","passages":[…],"page":"/article/{id}?q=Q"}
//	GET /api/topics                [{"id","title"}]
//	GET /api/runs                  [{"id","source","topics":[…]}]
//	GET /api/relevant?topic=T&doc=D [{"offset","length"}] the judged relevant passages
//
// Errors are {"error": message} with a 4xx or 5xx status.

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	writeJSONBytes(w, status, b, err)
}

// writeJSONBytes writes b, a JSON value, and a line end; when err is not
// nil, an internal error instead.
func writeJSONBytes(w http.ResponseWriter, status int, b []byte, err error) {
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func (s *Server) apiSearch(w http.ResponseWriter, r *http.Request) {
	q, ok := query(r)
	switch {
	case !ok:
		jsonError(w, http.StatusBadRequest, "the query is too long or not valid UTF-8")
		return
	case q == "":
		jsonError(w, http.StatusBadRequest, "missing q")
		return
	case s.opt.Searcher == nil:
		jsonError(w, http.StatusNotFound, "no search index")
		return
	}
	hits, err := s.opt.Searcher.Search(r.Context(), q, s.opt.K)
	if err != nil {
		s.opt.Logf("web: search %q: %v", q, err)
		jsonError(w, http.StatusInternalServerError, "the search failed")
		return
	}
	if hits == nil {
		hits = []Hit{}
	}
	b, err := appendSearchJSON(make([]byte, 0, 512*len(hits)+64), q, hits)
	writeJSONBytes(w, http.StatusOK, b, err)
}

func (s *Server) apiArticle(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	pages, searcher, done := s.opt.snapshot()
	defer done()
	info, err := ArticleInfo{}, ErrNoArticle
	if validID(id) {
		info, err = pages.Info(id)
	}
	switch {
	case errors.Is(err, ErrNoArticle):
		jsonError(w, http.StatusNotFound, "no such article")
		return
	case err != nil:
		s.opt.Logf("web: article %s: %v", id, err)
		jsonError(w, http.StatusInternalServerError, "the article cannot be read")
		return
	}
	q, ok := query(r)
	if !ok {
		jsonError(w, http.StatusBadRequest, "the query is too long or not valid UTF-8")
		return
	}
	passages := []effort.Span{}
	if q != "" && searcher != nil {
		ps, err := searcher.Passages(r.Context(), q, id)
		if err != nil {
			s.opt.Logf("web: passages %q %s: %v", q, id, err)
			jsonError(w, http.StatusInternalServerError, "the search failed")
			return
		}
		passages = append(passages, ps...)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": info.ID, "title": info.Title, "length": info.Length, "lang": info.Lang,
		"passages": passages, "page": articleURL(id, q),
	})
}

func (s *Server) apiTopics(w http.ResponseWriter, r *http.Request) {
	if s.opt.Replayer == nil {
		writeJSON(w, http.StatusOK, []Topic{})
		return
	}
	writeJSON(w, http.StatusOK, nonNil(s.opt.Replayer.Topics()))
}

func (s *Server) apiRuns(w http.ResponseWriter, r *http.Request) {
	if s.opt.Replayer == nil {
		writeJSON(w, http.StatusOK, []RunInfo{})
		return
	}
	writeJSON(w, http.StatusOK, nonNil(s.opt.Replayer.Runs()))
}

func (s *Server) apiRelevant(w http.ResponseWriter, r *http.Request) {
	if s.opt.Replayer == nil {
		jsonError(w, http.StatusNotFound, "no judgments")
		return
	}
	topic, doc := r.URL.Query().Get("topic"), r.URL.Query().Get("doc")
	if !validID(doc) || !slices.ContainsFunc(s.opt.Replayer.Topics(), func(t Topic) bool { return t.ID == topic }) {
		jsonError(w, http.StatusNotFound, "no such topic or article")
		return
	}
	writeJSON(w, http.StatusOK, nonNil(s.opt.Replayer.Relevant(topic, doc)))
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
