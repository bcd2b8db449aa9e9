// Package synth writes synthetic INEX 2009-format articles for the index's
// tests and benchmarks (internal: not part of readsim's API): a
// Wikipedia-like length distribution (log-normal, median about 2,500
// characters, a long tail cut at 200,000) and a Zipfian vocabulary.
package synth

import (
	"bufio"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Options configure Generate.
type Options struct {
	N     int   // number of articles
	Seed  int64 // same seed, same collection
	Vocab int   // vocabulary size; 0 means 50,000
}

// Generator draws words and article lengths.
type Generator struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	words []string
}

// New returns a generator.
func New(opt Options) *Generator {
	if opt.Vocab <= 0 {
		opt.Vocab = 50000
	}
	rng := rand.New(rand.NewSource(opt.Seed))
	g := &Generator{rng: rng, zipf: rand.NewZipf(rng, 1.07, 2, uint64(opt.Vocab-1))}
	// pronounceable pseudo-words, distinct, lengths 2–10
	cons, vows := "bcdfghklmnprstvz", "aeiou"
	seen := map[string]bool{}
	for len(g.words) < opt.Vocab {
		n := 1 + rng.Intn(4)
		var b strings.Builder
		for k := 0; k < n; k++ {
			b.WriteByte(cons[rng.Intn(len(cons))])
			b.WriteByte(vows[rng.Intn(len(vows))])
			if rng.Intn(3) == 0 {
				b.WriteByte(cons[rng.Intn(len(cons))])
			}
		}
		w := b.String()
		if !seen[w] {
			seen[w] = true
			g.words = append(g.words, w)
		}
	}
	return g
}

// Word returns a word drawn from the Zipfian distribution.
func (g *Generator) Word() string { return g.words[g.zipf.Uint64()] }

// WordOfRank returns the word of the given frequency rank (0 = most frequent).
func (g *Generator) WordOfRank(r int) string { return g.words[r%len(g.words)] }

// Length draws an article length in characters: log-normal with median
// 2,500 and σ = 1.1, clamped to [300, 200,000].
func (g *Generator) Length() int {
	l := 2500 * math.Exp(1.1*g.rng.NormFloat64())
	return int(math.Max(300, math.Min(200000, l)))
}

func (g *Generator) sentence(b *strings.Builder, words int) {
	for i := 0; i < words; i++ {
		w := g.Word()
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		} else {
			b.WriteByte(' ')
		}
		if g.rng.Intn(40) == 0 {
			fmt.Fprintf(b, "<link xlink:type=\"simple\" xlink:href=\"../%d.xml\">%s</link>", g.rng.Intn(1000000), w)
			continue
		}
		if g.rng.Intn(60) == 0 {
			b.WriteString("<b>" + w + "</b>")
			continue
		}
		b.WriteString(w)
	}
	b.WriteString(". ")
}

// paragraph writes sentences until about n characters of text are written,
// returning the characters written.
func (g *Generator) paragraph(b *strings.Builder, n int) int {
	start := b.Len()
	for b.Len()-start < n {
		g.sentence(b, 6+g.rng.Intn(14))
	}
	return b.Len() - start
}

// Article returns the XML of one article with the given id.
func (g *Generator) Article(id int) string {
	target := g.Length()
	var b strings.Builder
	b.Grow(target * 3 / 2)
	title := g.Word() + " " + g.Word()
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<article xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n<header>\n<title>%s</title>\n<id>%d</id>\n<revision><id>1</id><timestamp>2009-01-01T00:00:00Z</timestamp></revision>\n<categories><category>%s</category></categories>\n</header>\n<bdy>\n", title, id, g.Word())
	written := len(title)
	b.WriteString("<p>")
	written += g.paragraph(&b, min(600, target/3))
	b.WriteString("</p>\n")
	for written < target {
		b.WriteString("<sec>\n<st>" + g.Word() + " " + g.Word() + "</st>\n")
		written += 10
		for k := 1 + g.rng.Intn(4); k > 0 && written < target; k-- {
			switch g.rng.Intn(10) {
			case 0:
				b.WriteString("<list>\n")
				for e := 2 + g.rng.Intn(5); e > 0; e-- {
					b.WriteString("<entry>")
					written += g.paragraph(&b, 40+g.rng.Intn(80))
					b.WriteString("</entry>\n")
				}
				b.WriteString("</list>\n")
			case 1:
				b.WriteString("<table>\n")
				for r := 2 + g.rng.Intn(5); r > 0; r-- {
					b.WriteString("<row><col>" + g.Word() + "</col><col>" + g.Word() + " " + g.Word() + "</col></row>\n")
					written += 20
				}
				b.WriteString("</table>\n")
			default:
				b.WriteString("<p>")
				written += g.paragraph(&b, 200+g.rng.Intn(700))
				b.WriteString("</p>\n")
			}
		}
		b.WriteString("</sec>\n")
	}
	b.WriteString("</bdy>\n</article>\n")
	return b.String()
}

// Generate writes opt.N articles into dir, 1,000 per sub-folder, and returns
// the bytes written.
func Generate(dir string, opt Options) (int64, error) {
	g := New(opt)
	var total int64
	for i := 0; i < opt.N; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("%03d", i/1000))
		if i%1000 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return total, err
			}
		}
		id := 1000000 + i
		f, err := os.Create(filepath.Join(sub, fmt.Sprintf("%d.xml", id)))
		if err != nil {
			return total, err
		}
		w := bufio.NewWriter(f)
		n, _ := w.WriteString(g.Article(id))
		total += int64(n)
		if err := w.Flush(); err != nil {
			f.Close()
			return total, err
		}
		if err := f.Close(); err != nil {
			return total, err
		}
	}
	return total, nil
}
