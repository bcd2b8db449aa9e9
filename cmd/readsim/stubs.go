package main

// The commands whose issues have not landed yet. Each is moved to a file of its
// own when it is implemented; none may remain when the last issue ends.

func init() {
	for _, c := range []*command{
		{name: "demo", args: "[--addr :8080]", summary: "index the bundled sample and serve the phone prototype and the simulation view"},
		{name: "fidelity", args: "--qrels Q [--articles DIR] [-m MEASURE]...", summary: "the fidelity suite of simulated runs"},
		{name: "serve", args: "--index IDX [--addr A] [--qrels Q] [--run R]...", summary: "the web prototype and simulation view over an index"},
	} {
		c := c
		c.run = func(e *env, args []string) error {
			fs := newFlags(e, c)
			if _, err := parseFlags(fs, args); err != nil && len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
				return err
			}
			return errNotDone
		}
		register(c)
	}
}
