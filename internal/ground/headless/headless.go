// Package headless starts the headless Chromium of readsim's browser tests
// (the tests of render, web and cmd/readsim): one place for where Chromium
// is, the flags it runs with and what a test does when it is missing. It
// imports only chromedp and the standard library.
package headless

import (
	"context"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// Path is where the tests expect Chromium (Debian's chromium package).
const Path = "/usr/bin/chromium"

// Require skips the test when Chromium is missing, except when the
// environment variable CI is set: there the test fails, since CI always has
// Chromium and a skip would hide a failure.
func Require(tb testing.TB) {
	tb.Helper()
	if _, err := os.Stat(Path); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("CI is set and %s is missing (%v): install it (apt-get install -y chromium)", Path, err)
		}
		tb.Skipf("%s is missing (apt-get install -y chromium); the browser test needs it", Path)
	}
}

// New starts headless Chromium (no sandbox, no GPU, no first-run or
// background traffic) and opens one tab; width and height, when not 0, set
// the window's size. cancel closes the tab and the browser.
func New(width, height int) (tab context.Context, cancel func()) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Path), chromedp.NoSandbox, chromedp.Headless,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
	}
	if width > 0 && height > 0 {
		opts = append(opts, chromedp.WindowSize(width, height))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	tab, cancelT := chromedp.NewContext(actx)
	return tab, func() { cancelT(); cancelA() }
}

// Tab is Require then New for one test: the browser closes when the test
// ends.
func Tab(tb testing.TB, width, height int) context.Context {
	tb.Helper()
	Require(tb)
	tab, cancel := New(width, height)
	tb.Cleanup(cancel)
	return tab
}
