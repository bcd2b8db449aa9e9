package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario/inex"
)

// TestExitStatusKinds checks that each bad-input error of docs/cli.md
// ("Exit status") gives status 2, also wrapped, and that any other
// failure gives 1.
func TestExitStatusKinds(t *testing.T) {
	cause := errors.New("cause")
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"inex.Error", &inex.Error{File: "qrels", Line: 3, Err: cause}, 2},
		{"article.Error", &article.Error{File: "a.xml", Msg: "bad"}, 2},
		{"article.AmbiguousError", &article.AmbiguousError{Root: "r"}, 2},
		{"index.InputError", &index.InputError{Msg: "bad"}, 2},
		{"index.DamagedError", &index.DamagedError{Index: "ix", File: "f", Err: cause}, 2},
		{"app.InputError", &app.InputError{Err: cause}, 2},
		{"cli.InputError", cli.InputError{Err: cause}, 2},
		{"wrapped inex.Error", fmt.Errorf("eval: %w", &inex.Error{File: "run", Err: cause}), 2},
		{"plain error", cause, 1},
		{"wrapped plain error", fmt.Errorf("eval: %w", cause), 1},
	} {
		if got := cli.InputStatus(c.err); got != c.want {
			t.Errorf("%s: exit status %d, want %d", c.name, got, c.want)
		}
	}
}
