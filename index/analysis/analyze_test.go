package analysis

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	banalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/readsim/readsim/index/article"
)

// realWikipedia is the shared folder of real Wikipedia articles (INEX
// 2009 format), relative to this package's folder:
// ../shared/data/wikipedia from the repository's root.
const realWikipedia = "../../../shared/data/wikipedia"

// analysisTexts are texts meant to trip the analyzers: possessives, case
// mappings that change a word's length, scripts without spaces, Hangul with
// particles and inside Latin words, half-width kana, full-width Latin,
// numbers, stop words in capitals.
var analysisTexts = []string{
	"Fresnel's lenses' LENS Lens lens THE The the And AND",
	"İstanbul's ΣΊΣΥΦΟΣ Straße STRASSE ǅemal Ⅻ ﬁne café CAFÉ naïve",
	"東京タワーは高い。 서울 3.14 1,000 2026-11-22 x86_64 C++ e-mail",
	"running runs ran runner's relational RELATIONAL generalizations",
	"emoji 🙂 and\u00a0no-break\tspace\n\nnew lines",
	"송혜교는 배우이다. X264는 Windows는 ㄱㄴ ᄀ 김대중(金大中) Kim Dae-jung",
	"ｶﾀｶﾅ ﾊﾟﾝ ＡＢＣ１２３ Ｔｈｅ 大 and 利 大利 意大利面的做法",
	"",
}

// corpusTexts returns the titles and texts of the sample articles and, when
// the shared data is there, of the real ones.
func corpusTexts(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "corpus-sample", "articles", "*", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample articles: %v", err)
	}
	real, _ := filepath.Glob(filepath.Join(realWikipedia, "*", "*.xml"))
	rd := &article.Reader{Root: realWikipedia}
	var out []string
	for _, f := range append(files, real...) {
		a, err := rd.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a.Title, a.Text)
	}
	return out
}

type flatTok struct {
	Term       string
	Start, End int
	Type       banalysis.TokenType
}

func flatten(ts banalysis.TokenStream) []flatTok {
	out := []flatTok{}
	for _, t := range ts {
		out = append(out, flatTok{string(t.Term), t.Start, t.End, t.Type})
	}
	return out
}

// TestMemoAnalyzer checks the memoized analyzers against the analyses they
// memoize: the same terms, offsets and types, on every sample and real
// article and on analysisTexts, analyzed twice so that the second pass
// comes from the memo.
func TestMemoAnalyzer(t *testing.T) {
	texts := append(append([]string{}, analysisTexts...), corpusTexts(t)...)
	for _, kind := range []string{kindEN, kindCJK} {
		ref := langAnalyzer{chainOf(kind)}
		m := memoPools[kind].Get().(*memoAnalyzer)
		for pass := 0; pass < 2; pass++ {
			for i, text := range texts {
				want := flatten(ref.Analyze([]byte(text)))
				got := flatten(m.Analyze([]byte(text)))
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, pass %d, text %d (%.40q): memo analyzer %v, analyzer %v", kind, pass, i, text, got, want)
				}
			}
		}
		if len(m.memo) == 0 {
			t.Errorf("%s: the memo is empty", kind)
		}
		memoPools[kind].Put(m)
	}
}

// TestAnalysisAnchors ties the analyses to Bleve's own analyzers: on text
// without CJK characters the English analysis is Bleve's English analyzer;
// on Han and kana text without Hangul, stop words or Latin letters that
// fold to stop words, the CJK analysis is Bleve's CJK analyzer, but for the
// traditional Han characters folded to simplified ones (written out here:
// 東 东, 編 编, 碼 码; cjkfold.go).
func TestAnalysisAnchors(t *testing.T) {
	im := mapping.NewIndexMapping()
	bleveEN, bleveCJK := im.AnalyzerNamed(en.AnalyzerName), im.AnalyzerNamed(cjk.AnalyzerName)
	hasCJK := func(s string) bool {
		for _, r := range s {
			if r >= 0x1100 && (isHangul(r) || r >= 0x2E80 && r <= 0x9FFF || r >= 0xF900 && r <= 0xFAFF || r >= 0xFF00) {
				return true
			}
		}
		return false
	}
	n := 0
	for i, text := range append(append([]string{}, analysisTexts...), corpusTexts(t)...) {
		if hasCJK(text) {
			continue
		}
		n++
		want := flatten(bleveEN.Analyze([]byte(text)))
		if got := flatten(AnalyzerOf("en").Analyze([]byte(text))); !reflect.DeepEqual(got, want) {
			t.Errorf("text %d (%.40q): English analysis %v, Bleve's English analyzer %v", i, text, got, want)
		}
	}
	if n < 20 {
		t.Errorf("only %d texts without CJK characters", n)
	}
	for _, text := range []string{"意大利面的做法", "東京タワーは高い。", "ｶﾀｶﾅ ﾊﾟﾝ", "大 利 大利", "x264編碼器 2009年"} {
		want := flatten(bleveCJK.Analyze([]byte(text)))
		simplified := strings.NewReplacer("東", "东", "編", "编", "碼", "码")
		for i := range want {
			want[i].Term = simplified.Replace(want[i].Term)
		}
		if got := flatten(AnalyzerOf("zh").Analyze([]byte(text))); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: CJK analysis %v, Bleve's CJK analyzer %v", text, got, want)
		}
	}
}

// TestAnalysis checks terms derived by hand.
func TestAnalysis(t *testing.T) {
	for _, tc := range []struct {
		lang, text string
		want       string // terms, space-separated
	}{
		// Hangul is bigrammed: a name and its particle share the name's bigrams
		{"ko", "송혜교는 배우이다", "송혜 혜교 교는 배우 우이 이다"},
		// a Latin word and its particle are split; the lone 는 stays a unigram
		{"ko", "X264는 코덱", "x264 는 코덱"},
		// English stop words, no stemming, in a CJK article
		{"zh", "The Movies 意大利", "movies 意大 大利"},
		{"en", "The Movies 意大利", "movi 意大 大利"},
		// CJK in an English article: bigrams, and unigrams where alone
		{"en", "Kim Dae-jung (김대중) 大 and 利", "kim dae jung 김대 대중 大 利"},
		// width folding: half-width katakana (ﾊﾟ is one character, パ) and
		// full-width Latin in a CJK article; full-width Latin stays as it
		// is in an English article
		{"ja", "ｶﾀｶﾅ ﾊﾟﾝ ＡＢＣ", "カタ タカ カナ パン abc"},
		{"en", "ｶﾀｶﾅ ＡＢＣ", "カタ タカ カナ ａｂｃ"},
		// a bigram never crosses a Latin word
		{"zh", "大x利", "大 x 利"},
	} {
		var got []string
		for _, tok := range AnalyzerOf(tc.lang).Analyze([]byte(tc.text)) {
			got = append(got, string(tok.Term))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s %q: terms %q, want %q", tc.lang, tc.text, strings.Join(got, " "), tc.want)
		}
	}
}

// TestQueryTerms checks the union of the analyses of a query.
func TestQueryTerms(t *testing.T) {
	for _, tc := range []struct {
		q     string
		langs []string
		want  []Term
	}{
		{"movies", nil, []Term{{Text: "movi", N: 1}}},
		{"movies", []string{"en", "fr"}, []Term{{Text: "movi", N: 1}}},
		// English terms first, then the CJK analysis's other terms
		{"movies 意大利", []string{"zh", "en"}, []Term{{Text: "movi", N: 1}, {Text: "意大", N: 1}, {Text: "大利", N: 1}, {Text: "movies", N: 1}}},
		{"movies 意大利", []string{"ko"}, []Term{{Text: "movies", N: 1}, {Text: "意大", N: 1}, {Text: "大利", N: 1}}},
		// counts: pasta is pasta in both analyses
		{"pasta 意大利 pasta", []string{"en", "ja"}, []Term{{Text: "pasta", N: 2}, {Text: "意大", N: 1}, {Text: "大利", N: 1}}},
		{"the AND of", []string{"en", "zh", "ko"}, nil},
		// a CJK character with no CJK neighbour is a character term: 塔
		// alone, 東 beside Latin letters, ｶ width-folded to カ, 물 (Hangul);
		// 塔 inside 東京塔 is in bigrams only
		{"塔", []string{"ja"}, []Term{{Text: "塔", N: 1, Char: true}}},
		// traditional Han characters are folded to simplified ones
		{"東 tower 東京塔", []string{"en", "ja"}, []Term{{Text: "东", N: 1, Char: true}, {Text: "tower", N: 1}, {Text: "东京", N: 1}, {Text: "京塔", N: 1}}},
		{"烏龍茶", []string{"zh"}, []Term{{Text: "乌龙", N: 1}, {Text: "龙茶", N: 1}}},
		{"乌龙茶", []string{"zh", "en"}, []Term{{Text: "乌龙", N: 1}, {Text: "龙茶", N: 1}}},
		// 々 and 〆 stay in their run, and ・ between two CJK characters
		// (Lucene's CJK bigrams)
		{"松嶋菜々子", []string{"ja"}, []Term{{Text: "松嶋", N: 1}, {Text: "嶋菜", N: 1}, {Text: "菜々", N: 1}, {Text: "々子", N: 1}}},
		{"イ・ヨンエ", []string{"ko", "en"}, []Term{{Text: "イ・", N: 1}, {Text: "・ヨ", N: 1}, {Text: "ヨン", N: 1}, {Text: "ンエ", N: 1}}},
		{"〆切 3ヶ月", []string{"ja"}, []Term{{Text: "〆切", N: 1}, {Text: "3", N: 1}, {Text: "ヶ月", N: 1}}},
		// a middle dot between Latin words is punctuation
		{"X・Y", []string{"ja"}, []Term{{Text: "x", N: 1}, {Text: "y", N: 1}}},
		{"ｶ", []string{"ja"}, []Term{{Text: "カ", N: 1, Char: true}}},
		{"물 x", []string{"ko"}, []Term{{Text: "물", N: 1, Char: true}, {Text: "x", N: 1}}},
	} {
		got := QueryTerms(tc.q, tc.langs...)
		for i := range got {
			got[i].Word = 0 // TestQueryWords has them
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q %v: %v, want %v", tc.q, tc.langs, got, tc.want)
		}
	}
}

// TestQueryWords checks the variants of one query word (Term.Word): the
// terms two analysis kinds make of one word share the index of the
// first; every other term has its own index. Worked by hand: English
// stems history to histori, the CJK kind keeps it.
func TestQueryWords(t *testing.T) {
	for _, tc := range []struct {
		q     string
		langs []string
		want  []string // text:word
	}{
		{"kimchi history", []string{"en", "ko"}, []string{"kimchi:0", "histori:1", "history:1"}},
		{"kimchi history", []string{"en"}, []string{"kimchi:0", "histori:1"}},
		{"kimchi history", []string{"zh"}, []string{"kimchi:0", "history:1"}},
		{"movies 意大利", []string{"zh", "en"}, []string{"movi:0", "意大:1", "大利:2", "movies:0"}},
		{"running dogs", []string{"en", "ja"}, []string{"run:0", "dog:1", "running:0", "dogs:1"}},
		{"the history", []string{"en", "ko"}, []string{"histori:0", "history:0"}},
	} {
		var got []string
		for _, term := range QueryTerms(tc.q, tc.langs...) {
			got = append(got, fmt.Sprintf("%s:%d", term.Text, term.Word))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q %v: %v, want %v", tc.q, tc.langs, got, tc.want)
		}
	}
}

// TestTokenizeOffsets checks the character offsets of overlapping bigrams
// and that tokenize stays linear on a long CJK text (converting each
// bigram's offsets from the text's start, as a conversion that expects
// increasing offsets would, takes minutes).
func TestTokenizeOffsets(t *testing.T) {
	toks := Tokenize("aé 意大利", nil, nil, "zh")
	want := []Token{{"aé", 0, 2}, {"意大", 3, 5}, {"大利", 4, 6}}
	if !reflect.DeepEqual(toks, want) {
		t.Errorf("tokens %v, want %v", toks, want)
	}
	long := strings.Repeat("意大利面的做法", 30000) // 210,000 characters
	toks = Tokenize(long, nil, nil, "zh")
	if n := len(toks); n != 210000-1 {
		t.Fatalf("%d bigrams, want %d", n, 210000-1)
	}
	if last := toks[len(toks)-1]; last.Start != 209998 || last.End != 210000 {
		t.Errorf("last bigram %+v, want [209998, 210000)", last)
	}
}
