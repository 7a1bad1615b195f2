package pin

import (
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/mdlink"
)

// TestDecide: what each class becomes when nobody accepted it and when a
// person did. Gone, review and a changed quote with no known place are
// never written, whatever was accepted.
func TestDecideAcceptance(t *testing.T) {
	cases := []struct {
		class             Class
		newDest           string
		accepted          bool
		apply, refused    bool
		automatic, accept bool
	}{
		{Pinned, "a#line=1;md5=x", false, true, false, true, false},
		{Refreshed, "a#line=1;md5=x", false, true, false, true, false},
		{Moved, "a#line=2;md5=x", false, true, false, true, false},
		{Moved, "", false, false, false, false, false},
		{Changed, "a#line=2;md5=x", false, false, false, false, true},
		{Changed, "a#line=2;md5=x", true, true, false, false, true},
		{Changed, "", true, false, true, false, false},
		{Gone, "a#line=2;md5=x", true, false, true, false, false},
		{Review, "a#line=2;md5=x", true, false, true, false, false},
		{Review, "", false, false, false, false, false},
		{Error, "", true, false, true, false, false},
		{OK, "", true, false, false, false, false},
	}
	for _, c := range cases {
		ch := Change{Class: c.class, NewDest: c.newDest, Apply: true, Failed: c.class != OK}
		got, refused := Decide(ch, c.accepted)
		if got.Apply != c.apply || refused != c.refused || Automatic(ch) != c.automatic || Acceptable(ch) != c.accept {
			t.Errorf("%s %q accepted=%v: apply %v refused %v automatic %v acceptable %v; want %v %v %v %v",
				c.class, c.newDest, c.accepted, got.Apply, refused, Automatic(ch), Acceptable(ch), c.apply, c.refused, c.automatic, c.accept)
		}
		if got.Apply && c.class == Changed && got.Failed {
			t.Errorf("an accepted change still fails")
		}
	}
}

func TestQuoteRef(t *testing.T) {
	l := mdlink.Link{Line: 12, Column: 3, Dest: "../a.go#line=1,2;md5=00"}
	id := QuoteID("docs/guide.md", l)
	if len(id) != 8 || strings.Trim(id, "0123456789abcdef") != "" {
		t.Fatalf("id %q", id)
	}
	if QuoteID("./docs//guide.md", l) != id {
		t.Error("the id depends on how the page's path is spelled")
	}
	other := l
	other.Dest = "../a.go#line=1,3;md5=00"
	if QuoteID("docs/guide.md", other) == id {
		t.Error("two destinations, one id")
	}
	for _, c := range []struct {
		in    string
		match bool
		err   bool
	}{
		{id, true, false},
		{strings.ToUpper(id), true, false},
		{"docs/guide.md:12", true, false},
		{"./docs/guide.md:12", true, false},
		{"docs/guide.md:12:3", true, false},
		{"docs/guide.md:12:4", false, false},
		{"docs/guide.md:13", false, false},
		{"docs/other.md:12", false, false},
		{"docs/guide.md", false, true},
		{":12", false, true},
		{"docs/guide.md:0", false, true},
		{"12", false, true},
	} {
		r, err := ParseQuoteRef(c.in)
		if (err != nil) != c.err {
			t.Errorf("%q: error %v", c.in, err)
			continue
		}
		if err == nil && r.Matches("docs/guide.md", l) != c.match {
			t.Errorf("%q (%+v): match %v, want %v", c.in, r, !c.match, c.match)
		}
	}
}

func TestRefusal(t *testing.T) {
	for _, c := range []Change{{Class: Gone}, {Class: Review}, {Class: Changed}} {
		msg := Refusal(c, FixByHand("textfrag link src/a.go:FIRST-LAST --from docs/a.md"))
		if !strings.HasPrefix(msg, "not accepted: ") || !strings.Contains(msg, "`textfrag link src/a.go:FIRST-LAST --from docs/a.md`") {
			t.Errorf("%s: %s", c.Class, msg)
		}
		// A message with a remedy of its own gets no second one.
		if msg := Refusal(c, ""); !strings.HasPrefix(msg, "not accepted: ") || strings.Contains(msg, "`") || strings.Contains(msg, ";") {
			t.Errorf("%s, no fix: %s", c.Class, msg)
		}
	}
}
