package refs

import (
	"strings"
	"testing"
)

// TestUnpinnedFirst: pin writes every link of a page, so on a page with an
// affected link without md5 (which pin would pin at the lines it shows
// now, shifted: other text, unread), the other quotes whose remedy runs
// pin say to fix that link first; a page without one, the unpinned quote
// itself and a message with no pin command are left as they are.
func TestUnpinnedFirst(t *testing.T) {
	moved := &Finding{Class: Moved, Page: "docs/a.md", PageLine: 1, Message: "intact at lines 4–5: `textfrag pin --write docs/a.md` updates the link"}
	accept := &Finding{Class: Changed, Page: "docs/a.md", PageLine: 2, Message: "accept the new text with `textfrag pin --write --accept docs/a.md:2`"}
	loose := &Finding{Class: Changed, Page: "docs/a.md", PageLine: 3, Unpinned: true, Message: "change the link to x, then pin it with `textfrag pin --write docs/a.md`"}
	link := &Finding{Class: Changed, Page: "docs/a.md", PageLine: 4, Message: "run `textfrag link src/a.go:FIRST-LAST --from docs/a.md`"}
	other := &Finding{Class: Moved, Page: "docs/b.md", PageLine: 1, Message: "`textfrag pin --write docs/b.md` updates the link"}
	msgs := map[*Finding]string{}
	for _, f := range []*Finding{moved, accept, loose, link, other} {
		msgs[f] = f.Message
	}
	unpinnedFirst([]*Finding{moved, accept, loose, link, other})
	const note = "; but first fix the link without md5 on line 3 of the page"
	for _, f := range []*Finding{moved, accept} {
		if !strings.HasPrefix(f.Message, msgs[f]+note) {
			t.Errorf("%s:%d: %q lacks %q", f.Page, f.PageLine, f.Message, note)
		}
	}
	for _, f := range []*Finding{loose, link, other} {
		if f.Message != msgs[f] {
			t.Errorf("%s:%d: changed to %q", f.Page, f.PageLine, f.Message)
		}
	}
}
