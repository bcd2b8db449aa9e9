package main

import (
	"context"
	"time"

	"github.com/readsim/readsim/index"
)

// reloadEvery is how often serve looks for a rebuilt index (tests lower
// it).
var reloadEvery = 2 * time.Second

// watchIndex makes x switch to a rebuilt index in its folder (readsim
// index run while serve runs) within reloadEvery, without a restart or a
// dropped request (index.Index.Watch), logging each switch; stop ends the
// watch.
//
// Decision where cli.md is silent: serve polls the manifest (a rebuilt or
// updated index is a new manifest file) rather than using file system
// notifications, which a rename of the whole index folder does not always
// reach and which differ between systems.
func watchIndex(ctx context.Context, x *index.Index, logf func(string, ...any)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}, 1)
	go func() {
		x.Watch(ctx, reloadEvery, logf)
		done <- struct{}{}
	}()
	return func() {
		cancel()
		<-done
	}
}
