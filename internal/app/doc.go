// Package app is the program's wiring: what readsim serve and demo assemble
// and run. It puts readsim's real packages behind the web server's
// interfaces: the Bleve index (index) as web.Searcher, the renderer (render)
// over the indexed articles as web.Pages, and the simulated reader (scenario)
// over judgments and runs as web.Replayer. Serve assembles them and runs
// the server, including reloading a rebuilt index and the server's start
// and shutdown. MakeRun makes a run from the index's hits (readsim run, and
// the live system's run): it needs both the index and scenario's formats,
// so it lives here and evaluation (scenario) does not import the search
// engine.
//
// It imports effort, index/article, index, render, scenario, scenario/inex
// and web: it is where the packages meet, and only cmd/readsim imports it.
// It sits under internal/ because nothing outside this module should build
// on it.
package app
