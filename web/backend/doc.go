// Package backend wires readsim's real packages to the web server's
// interfaces: the Bleve index (index) as web.Searcher, the renderer (render)
// over the indexed articles as web.Pages, and the simulated reader (scenario)
// over judgments and runs as web.Replayer. Serve assembles them and runs
// the server that readsim serve and demo start. MakeRun makes a run from
// the index's hits (readsim run, and the live system's run): it needs both
// the index and scenario's formats, so it lives here and evaluation
// (scenario) does not import the search engine.
//
// It imports effort, index/article, index, render, scenario, scenario/inex
// and web: it is where the packages meet, and only cmd/readsim imports it.
package backend
