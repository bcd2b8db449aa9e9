package article

import "testing"

// TestCheckLang: the tags --lang takes and refuses (index/article/lang.go,
// CheckLang): Wikipedia editions, English-word codes, malformed tags.
func TestCheckLang(t *testing.T) {
	for _, c := range []struct {
		lang string
		ok   bool
	}{
		{"en", true}, {"zh-hant", true}, {"pt-BR", true}, {"ko", true}, {"no", true}, {"is", true},
		{"xx", false}, {"e", false}, {"1en", false}, {"en_US!", false}, {"", false},
	} {
		if err := CheckLang(c.lang); (err == nil) != c.ok {
			t.Errorf("CheckLang(%q) = %v, want ok %v", c.lang, err, c.ok)
		}
	}
}
