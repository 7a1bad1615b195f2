package pin

import (
	"strings"
	"testing"
)

// TestRelocateLostTwinWithoutParser (stress seed 20030, white space): in
// a text file, a quote starting on a line the file has twice ("Item 16"
// above OPTIONS, and in a copied section further down). The copied
// section moves up next to OPTIONS while the quoted "Item 16" stays
// below its own line, whose text was rewritten; the line diff keeps the
// copy's lines next to OPTIONS as the quoted ones. Which copy is there
// cannot be told: review, never moved.
func TestRelocateLostTwinWithoutParser(t *testing.T) {
	dir, write, git := testRepo(t)
	v1 := strings.Join([]string{"README", "", "Item 12: See the section above.", "", "    $ ./scripts/build", "", "Item 16: Run the command.", "",
		"OPTIONS", "", "Item 29: It prints nothing.", "", "Item 24: needs network.", "",
		"PART 5-r7", "", "Item 5: nothing.", "", "    $ ./scripts/build", "", "Item 16: Run the command.", "",
		"PART 9", "end", ""}, "\n")
	write("NOTES.txt", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	s, e := linesOf(t, v1, "Item 16: Run the command.\n\nOPTIONS\n\nItem 29: It prints nothing.\n")
	page := lineLink("NOTES.txt", s, e, v1)
	v2 := strings.Join([]string{"README", "", "Item 12: See the section above." + strings.Repeat(" long", 400), "", "Item 16: Run the command.", "",
		"PART 5-r7", "", "Item 5: nothing.", "", "    $ ./scripts/build", "", "Item 16: Run the command.", "",
		"OPTIONS", "", "Item 29: It prints nothing.", "", "Item 24: needs network.", "", "    $ ./scripts/build", "",
		"PART 9", "end", ""}, "\n")
	write("NOTES.txt", v2)
	git("commit", "-qam", "v2")
	for _, accept := range []bool{false, true} {
		c := planPage(t, dir, page, accept)[0]
		if c.Class != Review {
			t.Errorf("accept %v: %s %s, want review: %s", accept, c.Class, c.NewDest, c.Message)
		}
		mustNotApply(t, "a twin moved next to the quote's anchor", c)
	}
}
