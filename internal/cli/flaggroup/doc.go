// Package flaggroup holds the groups of flags that several readsim
// commands share, so that their names, defaults and checks never drift
// apart: the measure request (Measures: --qrels, -m, --order, --compat,
// --group, --merge-overlaps, --lengths, --offsets), the report (Report:
// --format, --digits, --plot), the articles (Articles: --dtd, --lang, and
// OpenCollection) and the retrieval (Retrieval: --index, -k, the boosts
// and the threshold). It is part of the command line's wiring: only
// cmd/readsim imports it (internal/housetest).
//
// It imports internal/cli (usage errors, the environment), scenario,
// index and index/article.
package flaggroup
