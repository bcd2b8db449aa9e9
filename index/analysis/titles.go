package analysis

import "strings"

// TitleKey is how titles and term-less queries are compared: lower case,
// runs of white space one space, no white space at either end. A query
// of only stop words ("The Who", "It", "This Is It") finds the articles
// whose title has its key (TitleKeys).
func TitleKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// TitleKeys are the keys a title search finds an article by: its title's
// TitleKey and, for a title ending in a Wikipedia qualifier in
// parentheses ("It (novel)", "This Is It (song)"), the key without it
// ("it"). An article whose title is the query exactly has one key, its
// field one term long; one found without its qualifier has two: BM25's
// length normalisation ranks the exact title first.
func TitleKeys(title string) []string {
	key := TitleKey(title)
	if key == "" {
		return nil
	}
	keys := []string{key}
	if i := strings.LastIndex(key, " ("); i > 0 && strings.HasSuffix(key, ")") {
		keys = append(keys, key[:i])
	}
	return keys
}
