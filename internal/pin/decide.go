package pin

import (
	"fmt"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// This file is step 4 of relocation: decide a quote's class from where the
// mapping carries it (quotemap.go) and whether it stays in its
// declaration. Pure: no file is read here.

// declVerdict says whether the lines a quote spans now lie in the
// declaration they lay in when it was pinned.
type declVerdict uint8

const (
	// declUnknown: no parser for the file's language, or a version does
	// not parse: only the line mapping speaks.
	declUnknown declVerdict = iota
	// declSame: the same declaration (the same name, unique on both
	// sides, or one the diff shows renamed: renamed), or
	// outside any declaration in both, among the same ones.
	declSame
	// declOther: another declaration.
	declOther
)

// declarations are the declarations of one version of a file, with doc
// comments, in source order; err says why there are none.
type declarations struct {
	spans []symbol.Span
	err   error

	// Made on first use, so that each question costs less than a look
	// at every declaration (one per quote would be quotes × declarations).
	index  *spanIndex
	counts map[[2]string]int // declarations by kind and name
	names  map[string]bool
	// renames remembers renamed's answers: it looks at every line of the
	// declaration, and every quote in it asks.
	renames map[renameKey]bool
}

// renameKey is one renamed question: declaration d of these declarations
// (the pinned version's) renamed to n of cur, through the line map m.
type renameKey struct {
	cur  *declarations
	m    *lineMap
	d, n int
}

func (d *declarations) prepare() {
	if d.index != nil {
		return
	}
	d.index = newSpanIndex(d.spans)
	d.counts, d.names = map[[2]string]int{}, map[string]bool{}
	for _, s := range d.spans {
		d.counts[[2]string{s.Kind, s.Name}]++
		d.names[s.Name] = true
	}
}

// enclosing is enclosing(d.spans, s, e), answered through the index.
func (d *declarations) enclosing(s, e int) int {
	d.prepare()
	return d.index.enclosing(s, e)
}

// has reports whether a declaration is named name.
func (d *declarations) has(name string) bool {
	d.prepare()
	return d.names[name]
}

// unique reports whether no other declaration has s's kind and name.
func (d *declarations) unique(s symbol.Span) bool {
	d.prepare()
	return d.counts[[2]string{s.Kind, s.Name}] == 1
}

// enclosing returns the innermost declaration that holds lines [s, e)
// (an empty range: the line s), or -1.
func enclosing(spans []symbol.Span, s, e int) int {
	e = max(e, s+1)
	best := -1
	for i, d := range spans {
		if d.Start <= s && e <= d.End && (best < 0 || d.End-d.Start < spans[best].End-spans[best].Start) {
			best = i
		}
	}
	return best
}

// overlapped names the declarations lines [s, e) touch, in order. Asked
// for every quote outside any declaration, it is answered through the
// index (spanIndex.overlapping), not by a look at every declaration: a
// page of such quotes into one file would cost quotes × declarations.
func (d *declarations) overlapped(s, e int) string {
	d.prepare()
	var names []string
	for _, i := range d.index.overlapping(s, e) {
		names = append(names, d.spans[i].Kind+" "+d.spans[i].Name)
	}
	return strings.Join(names, ", ")
}

// sameDeclaration compares the declaration around old lines oldR in the
// pinned version with the one around new lines newR now; what names the
// two for messages ("func A", "func A → func B").
func sameDeclaration(old, cur *declarations, oldR, newR [2]int, m *lineMap, distinctive func(oldLine int) bool) (v declVerdict, what string) {
	if old.err != nil || cur.err != nil {
		return declUnknown, ""
	}
	io, in := old.enclosing(oldR[0], oldR[1]), cur.enclosing(newR[0], newR[1])
	switch {
	case io < 0 && in < 0:
		a, b := old.overlapped(oldR[0], oldR[1]), cur.overlapped(newR[0], newR[1])
		if a == b {
			return declSame, a
		}
		return declOther, fmt.Sprintf("outside any declaration (%s) → (%s)", orNone(a), orNone(b))
	case io < 0:
		return declOther, fmt.Sprintf("outside any declaration → %s %s", cur.spans[in].Kind, cur.spans[in].Name)
	case in < 0:
		return declOther, fmt.Sprintf("%s %s → outside any declaration", old.spans[io].Kind, old.spans[io].Name)
	}
	d, n := old.spans[io], cur.spans[in]
	name := func(s symbol.Span) string { return s.Kind + " " + s.Name }
	switch {
	case d.Name == n.Name && d.Kind == n.Kind && old.unique(d) && cur.unique(n):
		return declSame, name(n)
	case d.Kind == n.Kind && old.renamedTo(cur, io, in, m, distinctive):
		return declSame, name(d) + " → " + name(n) + " (renamed)"
	}
	return declOther, name(d) + " → " + name(n)
}

// renamed reports whether the diff shows declaration d of the pinned
// version renamed to n: d's name is gone and n's is new, d's first line
// was edited into n's, and most of d's distinctive lines (lines that say
// something no other line of the file says) were kept, verbatim, in n.
// (First lines alike are not enough: "func A(t *T) error {" pairs with any
// other test's; nor are lines such as "if err != nil {", found anywhere.)
func renamed(old, cur *declarations, d, n symbol.Span, m *lineMap, distinctive func(int) bool) bool {
	if cur.has(d.Name) || old.has(n.Name) || d.Start >= len(m.fate) || m.fate[d.Start] != lineEdited || m.toNew[d.Start] != n.Start {
		return false
	}
	carried, all := 0, 0
	for i := d.Start + 1; i < d.End && i < len(m.fate); i++ {
		if !distinctive(i) {
			continue
		}
		all++
		if m.fate[i] == lineKept && m.toNew[i] >= n.Start && m.toNew[i] < n.End {
			carried++
		}
	}
	return 2*carried > all
}

// renamedTo is renamed(old, cur, old.spans[io], cur.spans[in], m,
// distinctive), asked once per pair of declarations and line map.
// distinctive is the pinned version's, as m is.
func (old *declarations) renamedTo(cur *declarations, io, in int, m *lineMap, distinctive func(int) bool) bool {
	k := renameKey{cur, m, io, in}
	v, ok := old.renames[k]
	if !ok {
		v = renamed(old, cur, old.spans[io], cur.spans[in], m, distinctive)
		if old.renames == nil {
			old.renames = map[renameKey]bool{}
		}
		old.renames[k] = v
	}
	return v
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// decision is a quote's class, and why (for Review).
type decision struct {
	class Class
	why   string
}

// decide classes a quote whose pinned version was found: from where the
// mapping carries it (mp), whether that is in its declaration (v; what
// names it, or says why it cannot be told), and whether the new positions
// are the ones the link has (inPlace). For a file no symbol parser reads,
// v is the fallback's (sameSection).
//
//	mapping       declaration              class
//	unknown       -                        Review
//	deleted       -                        Gone (identical text elsewhere: a hint)
//	any other     another one              Review
//	any other     cannot be told           Review
//	intact        same                     Refreshed in place, else Moved
//	edited        same                     Changed at the new place
func decide(mp quoteMapping, v declVerdict, what string, inPlace bool) decision {
	switch mp.fate {
	case quoteUnknown:
		return decision{Review, mp.why}
	case quoteDeleted:
		return decision{class: Gone}
	}
	switch v {
	case declOther:
		return decision{Review, "the lines the diff leads to lie in another declaration (" + what + ")"}
	case declUnknown:
		if what == "" {
			what = "which declaration holds the lines the diff leads to cannot be told"
		}
		return decision{Review, what}
	}
	switch {
	case mp.fate == quoteEdited:
		return decision{class: Changed}
	case inPlace:
		return decision{class: Refreshed}
	}
	return decision{class: Moved}
}
