package app

import "sync"

// cache is a bounded map safe for concurrent use: when full, adding a key
// drops one entry at random (Go's map order), which is as good as LRU for a
// server's working set and costs nothing to maintain.
type cache[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	items map[K]V
}

func newCache[K comparable, V any](max int) *cache[K, V] {
	return &cache[K, V]{max: max, items: make(map[K]V)}
}

// get returns the value of k, or make's (stored when make succeeds). make runs
// outside the lock: two callers may make the same value; either is kept.
func (c *cache[K, V]) get(k K, make func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.items[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := make()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if len(c.items) >= c.max {
		for old := range c.items {
			delete(c.items, old)
			break
		}
	}
	c.items[k] = v
	c.mu.Unlock()
	return v, nil
}
