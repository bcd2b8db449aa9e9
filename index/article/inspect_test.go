package article

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteElements(t *testing.T) {
	for _, tc := range []struct{ xml, want string }{
		// "Fresnel" 0-7 in title; p: "A " 7-9, b "lens" 9-13, "." 13-14
		{`<article><header><title>Fresnel</title></header><bdy><p>A <b>lens</b>.</p></bdy></article>`,
			"14\n/article[1]\t0\t14\n/article[1]/header[1]\t0\t7\n/article[1]/header[1]/title[1]\t0\t7\n" +
				"/article[1]/bdy[1]\t7\t14\n/article[1]/bdy[1]/p[1]\t7\t14\n/article[1]/bdy[1]/p[1]/b[1]\t9\t13\n"},
		// two p: positions count per name
		{`<article><p>ab</p><p>c</p></article>`, "3\n/article[1]\t0\t3\n/article[1]/p[1]\t0\t2\n/article[1]/p[2]\t2\t3\n"},
	} {
		a, err := Parse(strings.NewReader(tc.xml), "a.xml")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := a.WriteElements(&b); err != nil || b.String() != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.xml, b.String(), tc.want)
		}
	}
}
