package durable

import (
	"os"
	"sync"
)

// tempSet is the temporary files being written.
type tempSet struct {
	mu    sync.Mutex
	names map[string]bool
}

var temps = &tempSet{names: map[string]bool{}}

func (t *tempSet) add(n string) {
	t.mu.Lock()
	t.names[n] = true
	t.mu.Unlock()
}

func (t *tempSet) remove(n string) {
	t.mu.Lock()
	delete(t.names, n)
	t.mu.Unlock()
}

// RemoveTempFiles removes the temporary files Write is writing: a
// command calls it when a signal ends it, so that nothing half-written is
// left behind.
func RemoveTempFiles() {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	for n := range temps.names {
		os.Remove(n)
	}
	clear(temps.names)
}
