package refs

import (
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

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

func TestQuotesName(t *testing.T) {
	handle := symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"}
	span := &symbol.Span{Start: 11, End: 30} // human lines 12–30
	for _, tc := range []struct {
		link  *Link
		span  *symbol.Span
		sel   symbol.Selector
		want  bool
		about string
	}{
		{&Link{FirstLine: 1, LastLine: 2, Selector: &symbol.Selector{Kind: symbol.Symbol, Name: "Server::Handle", Doc: true}}, span, handle, true, "named with :: and doc"},
		{&Link{FirstLine: 1, LastLine: 2, Selector: &symbol.Selector{Kind: symbol.Region, Name: "Server.Handle"}}, span, handle, false, "a region of that name"},
		{&Link{FirstLine: 1, LastLine: 2, Selector: &symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handler"}}, span, handle, false, "another name, other lines"},
		{&Link{FirstLine: 30, LastLine: 31}, span, handle, true, "by lines, overlapping the last"},
		{&Link{FirstLine: 31, LastLine: 40}, span, handle, false, "by lines, after"},
		{&Link{FirstLine: 12, LastLine: 12, Selector: &handle}, nil, handle, true, "named, the name not found"},
		{&Link{FirstLine: 12, LastLine: 12}, nil, handle, false, "by lines, the name not found"},
		{&Link{FirstLine: 12, LastLine: 12}, &symbol.Span{Start: 12, End: 12}, symbol.Selector{Kind: symbol.Region, Name: "r"}, false, "an empty region has no lines"},
	} {
		if got := tc.link.QuotesName(tc.sel, tc.span); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.about, got, tc.want)
		}
	}
}
