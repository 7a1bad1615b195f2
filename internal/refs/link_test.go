package refs

import "testing"

func TestQuotesLines(t *testing.T) {
	for _, tc := range []struct {
		first, last int64 // the link's lines; last = first-1 for a position
		from, to    int64 // asked for
		want        bool
	}{
		{11, 20, 14, 14, true},
		{11, 20, 20, 25, true},
		{11, 20, 21, 25, false},
		{11, 20, 1, 10, false},
		{11, 20, 1, 11, true},
		{0, 0, 100, 200, true}, // lines unknown: may quote them
		{6, 5, 6, 9, true},     // before line 6: at the edge of 6–9
		{6, 5, 1, 5, true},     // after line 5
		{6, 5, 7, 9, false},
		{6, 5, 1, 4, false},
	} {
		l := &Link{FirstLine: tc.first, LastLine: tc.last}
		if got := l.QuotesLines(tc.from, tc.to); got != tc.want {
			t.Errorf("lines %d–%d asked %d–%d: %v, want %v", tc.first, tc.last, tc.from, tc.to, got, tc.want)
		}
	}
}
