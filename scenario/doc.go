// Package scenario is readsim's evaluation and simulation layer: it replays
// runs against judgments. It holds
//
//   - what a command asks to measure (MeasureRequest: the judgments, the
//     measures, the reading order, checked in one order for every command;
//     RequestError for a request it cannot take);
//   - the evaluation driver (Evaluate, EvaluateFiles: runs × topics ×
//     measures, the numbers of `readsim eval`) and its reports (WriteEval);
//   - the simulated reader (Reader, Replayer) and its trace (Event, an
//     alias of trace.Event: package scenario/trace owns the event schema
//     and its rules), whose scores come from the same evaluator, so the
//     trace and eval agree;
//   - comparisons of runs (Compare: paired t-test, randomization test,
//     Holm–Bonferroni, effect size, confidence interval), the fidelity suite
//     (RunFidelity) and their charts;
//   - one report writer (Table: table, TSV, Markdown, LaTeX; JSON through
//     encoding/json) for every command, the catalogue of measures
//     (WriteCatalogue) and each name described (DescribeMeasures:
//     `readsim measures NAME…`);
//   - judgments and runs as rows for other programs (WriteQrelsRows,
//     WriteRunRows: `readsim rows`, which the Python package reads);
//   - the queries of a run made from topics (TopicFields, TopicQueries) and
//     judgments made from highlighted quotes (Assess).
//
// It imports effort, index/article, scenario/inex, scenario/trace and
// internal/durable (its
// charts are written as every output file is); nothing below it imports it.
// It does not import the search engine: runs made from the index's hits
// (MakeRun) live in the program's wiring, which knows both.
package scenario
