package index

import (
	"reflect"
	"testing"
)

// --elements keeps an empty name between commas for the build to refuse by
// its place; a list of nothing is nil.
func TestElementNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"p,sec", []string{"p", "sec"}},
		{" p , sec ,", []string{"p", "sec"}},
		{"p,,sec", []string{"p", "", "sec"}},
		{"", nil},
		{" , ,", nil},
	} {
		if got := ElementNames(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ElementNames(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
