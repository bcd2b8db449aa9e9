package flaggroup

import (
	"fmt"
	"testing"

	"github.com/readsim/readsim/scenario"
)

// --digits takes 0 to 17 decimals (17 significant digits tell any two
// float64 apart); a bad value leaves the number as it was.
func TestDigits(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want Digits
		err  string
	}{
		{"0", 0, ""},
		{" 17 ", 17, ""},
		{"2", 2, ""},
		{"18", 4, `"18": want an integer from 0 to 17`},
		{"-1", 4, `"-1": want an integer from 0 to 17`},
		{"two", 4, `"two": want an integer from 0 to 17`},
	} {
		d := Digits(scenario.DefaultDigits)
		err := d.Set(tc.s)
		if d != tc.want || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("Set(%q): %d, %v; want %d, %q", tc.s, d, err, tc.want, tc.err)
		}
		if d.String() != fmt.Sprint(int(tc.want)) {
			t.Errorf("String() = %q after Set(%q)", d.String(), tc.s)
		}
	}
}
