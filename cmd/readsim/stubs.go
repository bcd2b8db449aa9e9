package main

// The commands whose issues have not landed yet. Each is moved to a file of its
// own when it is implemented; none may remain when the last issue ends.

func init() {
	for _, c := range []*command{} {
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
