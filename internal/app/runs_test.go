package app

import "testing"

// MakeRunOptions.Check: the four tasks of formats.md, and a run id that
// fits in one column.
func TestMakeRunOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		opt MakeRunOptions
		err string
	}{
		{MakeRunOptions{Task: "ric"}, ""},
		{MakeRunOptions{Task: "focused", RunID: "my-run_2"}, ""},
		{MakeRunOptions{Task: "bic"}, ""},
		{MakeRunOptions{Task: "doc"}, ""},
		{MakeRunOptions{Task: "thorough"}, `unknown task "thorough": want one of ric, focused, bic, doc`},
		{MakeRunOptions{Task: ""}, `unknown task "": want one of ric, focused, bic, doc`},
		{MakeRunOptions{Task: "ric", RunID: "my run"}, "--run-id must not contain white space"},
		{MakeRunOptions{Task: "ric", RunID: "a\tb"}, "--run-id must not contain white space"},
	} {
		err := tc.opt.Check()
		if (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("%+v: %v, want %q", tc.opt, err, tc.err)
		}
	}
}
