// Package web serves readsim's phone prototype and its live simulation view.
//
// The prototype is the interface of scenario.md on a real phone: a search form
// (/), a ranked list of articles (/search?q=…) and the anchored article page
// (/article/{id}?q=…) with its arrow links. The reading path is plain links and
// anchors: it works without JavaScript and with the browser's back button.
//
// The simulation view (/simulate) shows a simulated reader working through a
// topic's results in a phone-sized frame. It is driven by the trace events of
// scenario.md, streamed as JSON text messages over a WebSocket at /ws/replay.
//
// The study mode (Options.Study; study.go) turns the prototype into an
// instrument: participants consent at /study, get topics, search and read,
// and their pages record what was on screen, in the trace schema, to one
// JSON Lines file per participant that readsim eval --readings and readsim
// calibrate read. Its files: the consent text and its form's token
// (studyconsent.go, studytoken.go), recruitment ids and the completion link
// (studyrecruit.go), the events (studyevents.go), the folder's participants,
// lock and audit log (studystore.go, studylock.go, studyaudit.go), and what
// readsim study does with the folder (studyadmin.go, studyexport.go).
//
// The package knows nothing of Bleve, the renderer or the scenario: it talks to
// them through the small interfaces below (Searcher, Pages, Replayer), so that
// its handlers are tested with fakes and wired to the real packages by the
// readsim command.
//
// Decisions where the specification is silent:
//   - The server streams a replay's events as fast as the client reads them;
//     the page buffers them and plays them back at the chosen speed, so pause,
//     step, speed and jump to a rank are client-side and cost the server
//     nothing. A client that does not read for SlowClientTimeout is dropped.
//   - On reconnection the page asks for the events after the last one it has
//     (query parameter after=SEQ), so a dropped connection resumes, not restarts.
//   - The simulation frame shows the run's retrieved passages highlighted
//     (/article/{id}?p=OFFSET:LENGTH…): they are what the simulated reader
//     follows, whereas ?q= asks the live system for its own best passages.
//   - Relevant text is coloured only once read: the page fetches the judged
//     passages of the open article (/api/relevant) and marks their intersection
//     with each read event's range.
//
// It imports only effort of readsim (the character span of its JSON),
// scenario/trace (the trace schema the study's recordings keep) and
// internal/ground/durable (the study's files):
// everything else reaches it through the interfaces above, which
// internal/app implements with the index, the renderer and scenario.
package web
