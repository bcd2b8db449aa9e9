// Package housetest holds the test of the house's layout: that readsim's
// packages depend on each other in the one direction docs/architecture.md
// draws (its Rules, checked on the import graph that go list gives). It
// holds no code of its own and imports nothing.
package housetest
