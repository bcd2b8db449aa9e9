package build

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/readsim/readsim/index/store"
)

// Parsing a collection for an index kept elsewhere than in Bleve shards
// (an index on an OpenSearch cluster, which the package index builds):
// the same listing, parse and analysis as Build, each article handed over
// as its terms, title keys, record and element counts.

// Parsed is an article as a build parses it.
type Parsed struct {
	ID, Lang string
	// Path is the article's file, relative to the articles folder,
	// slash-separated; Size its size in bytes.
	Path string
	Size int64
	// Title and Text are the article's terms as the build analyses them,
	// each as many times as it occurs (sorted: the order of the words is
	// not kept); Aux the terms of its auxiliary text (store.AuxField,
	// docs/search.md), likewise; TitleKeys its title keys
	// (analysis.TitleKeys).
	Title, Text, Aux []string
	TitleKeys        []string
	// Record is its record (index/records).
	Record []byte
	// Elems is its number of candidate elements, ElemLen their length in
	// tokens; ElemTerms and ElemDF, parallel, in how many of them each
	// term occurs.
	Elems, ElemLen int
	ElemTerms      []string
	ElemDF         []int32
}

// Listing is a collection listed for Parse.
type Listing struct {
	opt   Options
	files []srcFile
	dtds  []store.FileStamp
	// Result holds what the listing found (NotXML, Dups, IDClashes,
	// DTDs); Parse adds what parsing finds.
	Result *Result
}

// List checks opt (its articles folder) and lists the collection as Build
// does. It neither reads nor writes opt.Index.
func List(opt Options) (*Listing, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	res := &Result{Full: true}
	files, dtds, err := listArticles(opt.Articles, res)
	if err != nil {
		return nil, err
	}
	if opt.Reader.DTD != "" {
		s, err := stampDTD(opt.Reader.DTD)
		if err != nil {
			return nil, err
		}
		dtds = append(dtds, s)
	}
	if len(files) == 0 {
		return nil, &store.InputError{Msg: fmt.Sprintf("articles folder %s: no .xml article in it", opt.Articles)}
	}
	return &Listing{opt: opt, files: files, dtds: dtds, Result: res}, nil
}

// Fingerprint is a digest of everything a build's output depends on but
// the files' contents: each file's path, id, size and modification time,
// the DTDs', the candidate elements and the forced language. Equal
// fingerprints mean an index built from the listing would be the same
// (as Build decides that an article is unchanged).
func (l *Listing) Fingerprint() string {
	h := sha256.New()
	put := func(s string) {
		h.Write(binary.AppendUvarint(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	num := func(n int64) { h.Write(binary.AppendVarint(nil, n)) }
	put(fmt.Sprint(store.Version))
	put(strings.Join(l.opt.Elements, ","))
	put(l.opt.Reader.Lang)
	for _, f := range l.files {
		put(f.rel)
		put(f.id)
		num(f.size)
		num(f.mt)
	}
	for _, d := range l.dtds {
		put(d.Path)
		num(d.Size)
		num(d.MTime)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Files is the number of article files listed.
func (l *Listing) Files() int { return len(l.files) }

// Parse parses the listed articles on opt.Workers goroutines and calls
// each with every article in path order, from one goroutine (an error of
// each stops it and is returned). Broken articles and header ids that are
// not their file name go into l.Result, as Build records them, with
// Indexed, Bytes and, at the end, Elapsed; opt.Progress is called after
// every article.
func (l *Listing) Parse(each func(*Parsed) error) error {
	start := time.Now()
	res := l.Result
	out := parseAll(l.files, l.opt)
	defer out.stop()
	prog := newProgress(l.files, 1)
	for i := range l.files {
		pr := out.next(i)
		prog.add(pr.f, 0)
		res.Bytes += pr.f.size
		if l.opt.Progress != nil {
			l.opt.Progress(prog.Progress)
		}
		if pr.err != nil {
			res.Broken = append(res.Broken, Skipped{pr.f.path, pr.err.Error()})
			continue
		}
		if pr.headerID != "" {
			res.IDMismatches = append(res.IDMismatches, IDMismatch{Path: pr.f.path, ID: pr.f.id, HeaderID: pr.headerID})
		}
		if err := each(pr.export()); err != nil {
			return err
		}
		res.Indexed++
	}
	res.Elapsed = time.Since(start)
	return nil
}

// export is the article p as Parsed.
func (p *parsed) export() *Parsed {
	e := p.entry
	out := &Parsed{ID: e.ID, Lang: e.Lang, Path: p.f.rel, Size: p.f.size, Record: p.rec,
		Elems: e.Elems, ElemLen: e.ElemLen, ElemTerms: p.elemDF.terms, ElemDF: p.elemDF.df}
	for _, f := range p.doc.Fields {
		af, ok := f.(*analyzedField)
		if !ok {
			continue
		}
		switch af.name {
		case "title":
			out.Title = flatTerms(af)
		case "text":
			out.Text = flatTerms(af)
		case store.AuxField:
			out.Aux = flatTerms(af)
		case store.TitleKeyField:
			for k := range af.freqs {
				out.TitleKeys = append(out.TitleKeys, k)
			}
			sort.Strings(out.TitleKeys)
		}
	}
	return out
}

// flatTerms returns a field's terms, each as many times as it occurs,
// sorted.
func flatTerms(f *analyzedField) []string {
	terms := make([]string, 0, len(f.freqs))
	for t := range f.freqs {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	out := make([]string, 0, f.length)
	for _, t := range terms {
		for range f.freqs[t].Frequency() {
			out = append(out, t)
		}
	}
	return out
}
