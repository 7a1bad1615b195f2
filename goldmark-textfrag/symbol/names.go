package symbol

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// maxClose is how many close names a not-found error lists.
const maxClose = 5

// maxCompare bounds the names compared by edit distance (in runes), so that
// the cost per lookup is bounded per name however long the names are.
const maxCompare = 64

// closeNames returns up to maxClose names close to name: by edit distance
// (a swap of neighbours is one edit), letter case aside, within a fifth of
// the name's length (at least 1) and shorter than the name (so "v" is not
// close to "f", but "F" is), or with the same last component ("Handle" for
// "Server.Handle"); closest first, then alphabetically.
func closeNames(name string, names []string) []string {
	q := strings.ToLower(name)
	qLast := lastComponent(q)
	limit := max(1, utf8.RuneCountInString(q)/5)
	limit = min(limit, utf8.RuneCountInString(q)-1)
	type scored struct {
		name string
		d    int
	}
	var found []scored
	for _, n := range names {
		if n == name {
			continue
		}
		l := strings.ToLower(n)
		d := limit + 1
		if utf8.RuneCountInString(q) <= maxCompare && utf8.RuneCountInString(l) <= maxCompare {
			d = editDistance(q, l, limit)
		}
		if lastComponent(l) == qLast {
			d = min(d, 1)
		}
		if d <= limit {
			found = append(found, scored{n, d})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].d != found[j].d {
			return found[i].d < found[j].d
		}
		return found[i].name < found[j].name
	})
	out := make([]string, 0, min(len(found), maxClose))
	for i := 0; i < len(found) && i < maxClose; i++ {
		out = append(out, found[i].name)
	}
	return out
}

func lastComponent(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// editDistance is the edit distance of a and b in runes, a transposition of
// two neighbours counting as one edit (optimal string alignment), or
// limit+1 when it exceeds limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	older := make([]int, len(rb)+1) // row i-2
	prev := make([]int, len(rb)+1)  // row i-1
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], older[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		older, prev, cur = prev, cur, older
	}
	return prev[len(rb)]
}

// ParseSelector reads the words sym=NAME, region=NAME and doc from a link
// title, ignoring every other word (a front end's own options) but quote.
// ok is false when the title names neither sym= nor region= (and has no
// doc). Errors wrap ErrOptions: both sym= and region=, either given twice,
// doc without sym=, quote with a name (quote is for characters inside
// running text), an empty or malformed name. A sym= name is any run of
// non-space characters whose components, split at "." (or "::"), are not
// empty; a region= name matches RegionNamePattern.
func ParseSelector(title string) (sel Selector, ok bool, err error) {
	fail := func(format string, args ...any) (Selector, bool, error) {
		return Selector{}, false, OptionsError("link title: " + fmt.Sprintf(format, args...))
	}
	doc, quote := false, false
	for _, word := range strings.Fields(title) {
		key, value, hasValue := strings.Cut(word, "=")
		var kind Kind
		switch {
		case word == "quote":
			quote = true
			continue
		case word == "doc":
			if doc {
				return fail("doc is given twice; write it once")
			}
			doc = true
			continue
		case key == "sym" && hasValue:
			kind = Symbol
		case key == "region" && hasValue:
			kind = Region
		default:
			continue
		}
		if sel.Kind != 0 {
			return fail("%q and %s name lines twice; a link carries one sym= or one region=", word, sel)
		}
		switch {
		case value == "":
			return fail("%q names nothing; write %s=NAME", word, key)
		case kind == Symbol && !validSymbolName(value):
			return fail("%q is not a name: components between \".\" (or \"::\") must not be empty, as in sym=Server.Handle", word)
		case kind == Region && !regionNameRE.MatchString(value):
			return fail("%q is not a region name: letters, digits and _ first, then also . and -, as in region=setup", word)
		}
		sel = Selector{Kind: kind, Name: value}
	}
	switch {
	case doc && sel.Kind != Symbol:
		return fail("doc only goes with sym=NAME (it starts the quote at the declaration's doc comment)")
	case sel.Kind == 0:
		return Selector{}, false, nil
	case quote:
		return fail("quote shows characters inside running text, and %s names whole lines; drop one of them", sel)
	}
	sel.Doc = doc
	return sel, true, nil
}

// TitleLang returns the value of a link title's last lang= word, or "":
// the lang argument LanguageOf and Find take for a link.
func TitleLang(title string) string {
	lang := ""
	for _, word := range strings.Fields(title) {
		if v, ok := strings.CutPrefix(word, "lang="); ok {
			lang = v
		}
	}
	return lang
}

func validSymbolName(name string) bool {
	if !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	for _, c := range strings.Split(normalizeName(name), ".") {
		if c == "" {
			return false
		}
	}
	return true
}
