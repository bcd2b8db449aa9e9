// Package python holds readsim's Python package (docs/python.md): its
// pyproject.toml and build hook (hatch_build.py, which builds the Go binary
// into the wheel), its code (src/readsim: DataFrames of judgments and runs,
// readsim's measures in ir_measures and PyTerrier, the commands as
// DataFrames) and its pytest tests (tests/). The Go code here is one test,
// TestPytest, which runs those tests from `go test ./...`, so that the
// README's one test command runs the Go and the Python tests alike.
package python
