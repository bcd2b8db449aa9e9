package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/cli"
)

// articleFlags are the flags of every command that reads articles: where
// their DTD is when it is not where the articles say, and their language.
type articleFlags struct {
	dtd  *string
	lang *string
}

// addArticleFlags defines --dtd and --lang on fs.
func addArticleFlags(fs *flag.FlagSet) *articleFlags {
	return &articleFlags{
		dtd:  fs.String("dtd", "", "the collection's DTD `FILE`, used when an article's DOCTYPE names a DTD that is neither beside it nor at the collection root (without one, the XHTML entities are built in)"),
		lang: fs.String("lang", "", "the articles' language (`en`, zh, ja, ko…) instead of detecting it per article"),
	}
}

// reader returns an article reader for the collection rooted at root ("" for
// single files) that warns on e.Stderr, once, when a DTD is missing.
func (f *articleFlags) reader(e *cli.Env, cmd, root string) (*article.Reader, error) {
	lang := strings.TrimSpace(*f.lang)
	if lang != "" && !article.ValidLang(lang) {
		return nil, cli.Usagef("--lang %q: want a language tag such as en, zh, ja or ko", lang)
	}
	return &article.Reader{
		Root: root,
		DTD:  *f.dtd,
		Lang: lang,
		Warn: func(msg string) { fmt.Fprintf(e.Stderr, "readsim %s: warning: %s\n", cmd, msg) },
	}, nil
}
