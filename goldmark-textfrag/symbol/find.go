package symbol

import (
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// Default returns a Set that knows Go (through go/parser).
func Default() Set { return Set{"go": goParser{}} }

// Merge returns a new Set with s's parsers, and over's in their place where
// both name a language; a nil Parser in over removes the language.
func (s Set) Merge(over Set) Set {
	m := maps.Clone(s)
	if m == nil {
		m = Set{}
	}
	for lang, p := range over {
		if p == nil {
			delete(m, lang)
			continue
		}
		m[lang] = p
	}
	return m
}

// Languages returns the names of the languages s has parsers for
// (Parser.Language), sorted, for messages. A parser that cannot run in this
// program (Unavailable, as tree-sitter's without cgo) is left out.
func (s Set) Languages() []string {
	var names []string
	for _, p := range s {
		if u, ok := p.(Unavailable); ok && u.Unavailable() {
			continue
		}
		if p != nil {
			names = append(names, p.Language())
		}
	}
	sort.Strings(names)
	return slices.Compact(names)
}

// Find resolves sel in src, the decoded text (UTF-8, no BOM) of the file
// whose project path is path; lang is the link's lang= option or "".
// Regions need no parser and work in any language.
func (s Set) Find(path, lang string, src []byte, sel Selector) (Span, error) {
	return s.Index(path, lang, src).Find(sel)
}

// Symbols returns the span of every declaration in src, in source order,
// with doc comments when doc is set (for completion and reverse lookups).
func (s Set) Symbols(path, lang string, src []byte, doc bool) ([]Span, error) {
	return s.Index(path, lang, src).Symbols(doc)
}

// Index is one file's names, found once for many lookups: the file is
// parsed at the first sym= lookup and its marker lines found at the first
// region= lookup, whatever the number of lookups after. It is safe for
// concurrent use. target.Resolver keeps one per file and language until
// Forget.
type Index struct {
	path     string
	language string   // LanguageOf's
	parser   Parser   // nil: no parser for the language
	known    []string // the Set's languages, for ErrUnsupported
	src      []byte

	linesOnce sync.Once
	lines     *lineIndex

	declsOnce sync.Once
	decls     []Decl
	byName    map[string][]int // indexes into decls, by name
	declsErr  error
	// damage is set when the file has syntax errors the parser confined
	// (ParseError.Partial): decls are then the partial parse's, and a
	// lookup damage touches fails with declsErr's kind. damaged maps each
	// of the damage's words to its first Damage.
	partial bool
	damage  []Damage
	damaged map[string]int
	// byStart are damage's indexes sorted by Start, and reach[i] the index
	// of the damage that reaches furthest among byStart[:i+1]: a
	// candidate's overlap is a binary search.
	byStart, reach []int

	markersOnce sync.Once
	markers     []marker            // every marker line, in source order
	byRegion    map[string][]marker // the same, by name
}

// Index returns the names of src, the decoded text (UTF-8, no BOM) of the
// file at project path path, with lang the link's lang= option or "".
// Nothing is parsed until the first lookup.
func (s Set) Index(path, lang string, src []byte) *Index {
	language := LanguageOf(path, lang)
	x := &Index{path: path, language: language, src: src}
	if language != "" {
		x.parser = s[language]
	}
	x.known = s.Languages()
	return x
}

func (x *Index) lineIndex() *lineIndex {
	x.linesOnce.Do(func() { x.lines = newLineIndex(x.src) })
	return x.lines
}

// Language returns the language names are looked up in, for messages
// ("Go", "Python"), or "" when the file's language is unknown.
func (x *Index) Language() string {
	if x.parser != nil {
		return x.parser.Language()
	}
	return DisplayName(x.language)
}

// Find resolves sel in the file.
func (x *Index) Find(sel Selector) (Span, error) {
	switch sel.Kind {
	case Region:
		return x.findRegion(sel)
	case Symbol:
		return x.findSymbol(sel)
	}
	return Span{}, &Error{Selector: sel, Path: x.path, Err: ErrOptions, Detail: "no sym= or region="}
}

// findMarkers finds the marker lines once.
func (x *Index) findMarkers() {
	x.markersOnce.Do(func() {
		x.markers = findMarkers(x.lineIndex())
		x.byRegion = markersByName(x.markers)
	})
}

func (x *Index) findRegion(sel Selector) (Span, error) {
	x.findMarkers()
	ms := x.byRegion[sel.Name]
	if len(ms) == 0 {
		e := &Error{Selector: sel, Path: x.path, Err: ErrNotFound}
		names := slices.Collect(maps.Keys(x.byRegion))
		for _, n := range closeNames(sel.Name, names) {
			e.Candidates = append(e.Candidates, Span{Name: n, Kind: "region"})
		}
		return Span{}, e
	}
	return resolveRegion(x.path, sel.Name, ms)
}

// parse finds the declarations once; an error is kept as the *Error to
// return for every symbol looked up.
func (x *Index) parse() error {
	x.declsOnce.Do(func() {
		fail := func(err error) *Error {
			return &Error{Path: x.path, Language: x.Language(), Err: err}
		}
		if x.parser == nil {
			e := fail(ErrUnsupported)
			e.Known = x.known
			x.declsErr = e
			return
		}
		decls, err := x.parser.Decls(x.src)
		var damage []Damage
		if err != nil {
			x.declsErr = x.parseError(err)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Partial == nil {
				return
			}
			decls, damage = pe.Partial.Decls, pe.Partial.Damage
			x.partial = true
		}
		bug := func(what string) {
			e := fail(ErrParse)
			e.Detail = "the " + x.Language() + " parser returned " + what + "; this is a bug in the parser"
			x.declsErr = e
		}
		for _, d := range damage {
			if !(0 <= d.Start && d.Start <= d.End && d.End <= len(x.src)) {
				bug("damage outside the file")
				x.partial = false
				return
			}
		}
		byName := make(map[string][]int, len(decls))
		for i := range decls {
			d := &decls[i]
			if d.Name == "" || !(0 <= d.DocStart && d.DocStart <= d.Start && d.Start <= d.End && d.End <= len(x.src)) {
				bug("a declaration outside the file (" + d.Name + ")")
				x.partial = false
				return
			}
			d.Name = normalizeName(d.Name)
			byName[d.Name] = append(byName[d.Name], i)
		}
		x.decls, x.byName = decls, byName
		if len(damage) > 0 {
			x.damage = damage
			x.damaged = make(map[string]int)
			for i := len(damage) - 1; i >= 0; i-- {
				for _, w := range damage[i].Words {
					x.damaged[w] = i
				}
			}
			x.byStart = make([]int, len(damage))
			for i := range x.byStart {
				x.byStart[i] = i
			}
			sort.SliceStable(x.byStart, func(a, b int) bool { return damage[x.byStart[a]].Start < damage[x.byStart[b]].Start })
			x.reach = make([]int, len(damage))
			for k, i := range x.byStart {
				x.reach[k] = i
				if k > 0 && damageEnd(damage[x.reach[k-1]]) > damageEnd(damage[i]) {
					x.reach[k] = x.reach[k-1]
				}
			}
		}
	})
	return x.declsErr
}

// damageFor returns the error that keeps name from being looked up in a
// partial parse, and why, or nil: an error whose damage mentions name's
// last component (it may hide or make up a declaration of that name), or
// one that overlaps a candidate (its lines may be misread).
func (x *Index) damageFor(name string, found []int) (*Damage, string) {
	last := name[strings.LastIndexByte(name, '.')+1:]
	first := -1
	why := ""
	// Each identifier of the last component: C++'s ~Buf is Buf in the
	// source, operator== is operator.
	for _, word := range strings.FieldsFunc(last, notIdentifier) {
		if i, ok := x.damaged[word]; ok && (first < 0 || i < first) {
			first, why = i, "the parser could not read "+x.bytesLines(x.damage[i].Start, x.damage[i].End)+" as written, and "+word+" is named there"
		}
	}
	for _, c := range found {
		d := x.decls[c]
		// The damage that starts before the candidate ends and reaches
		// furthest: it overlaps the candidate if any does.
		end := max(d.End, d.DocStart+1)
		k := sort.Search(len(x.byStart), func(k int) bool { return x.damage[x.byStart[k]].Start >= end })
		if k == 0 {
			continue
		}
		if i := x.reach[k-1]; damageEnd(x.damage[i]) > d.DocStart && (first < 0 || i < first) {
			first, why = i, "the error is in or next to "+d.Kind+" "+name+" ("+x.bytesLines(d.DocStart, d.End)+")"
		}
	}
	if first < 0 {
		return nil, ""
	}
	return &x.damage[first], why
}

// notIdentifier reports whether r cannot be part of an identifier, as
// Damage.Words splits them: letters, digits, _ and $ are.
func notIdentifier(r rune) bool {
	return !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) || r >= 0x80)
}

// damageEnd is where g ends; an empty damage covers the byte at its start.
func damageEnd(g Damage) int { return max(g.End, g.Start+1) }

// bytesLines names the lines that hold bytes [start, end): "lines 6–9".
func (x *Index) bytesLines(start, end int) string {
	s, e := x.lineIndex().span(start, end)
	return Span{Start: s, End: max(e, s+1)}.Lines()
}

// parseError is the *Error for a parser's error err.
func (x *Index) parseError(err error) *Error {
	e := &Error{Path: x.path, Language: x.Language(), Err: ErrParse, Detail: err.Error()}
	var pe *ParseError
	switch {
	case errors.Is(err, ErrUnsupported):
		// The parser is there but cannot run (tree-sitter without cgo):
		// its language is not one sym= works in (nor are the others that
		// say so: Languages leaves them out).
		e.Err = ErrUnsupported
		for _, k := range x.known {
			if k != x.parser.Language() {
				e.Known = append(e.Known, k)
			}
		}
	case errors.As(err, &pe):
		e.Detail = pe.Msg
		if pe.Offset >= 0 {
			e.Line = x.lineIndex().at(pe.Offset) + 1
		}
	}
	return e
}

// withSelector returns a copy of the parse's error e naming sel.
func withSelector(err error, sel Selector) error {
	e := *err.(*Error)
	e.Selector = sel
	return &e
}

func (x *Index) findSymbol(sel Selector) (Span, error) {
	if err := x.parse(); err != nil && !x.partial {
		return Span{}, withSelector(err, sel)
	}
	name := normalizeName(sel.Name)
	found := x.byName[name]
	if g, why := x.damageFor(name, found); g != nil {
		e := &Error{Selector: sel, Path: x.path, Language: x.Language(), Err: ErrParse, Detail: g.Msg + "; " + why}
		if g.Offset >= 0 {
			e.Line = x.lineIndex().at(g.Offset) + 1
		}
		return Span{}, e
	}
	switch len(found) {
	case 0:
		e := &Error{Selector: sel, Path: x.path, Language: x.Language(), Err: ErrNotFound}
		names := make([]string, 0, len(x.byName))
		for n := range x.byName {
			names = append(names, n)
		}
		for _, n := range closeNames(name, names) {
			d := x.decls[x.byName[n][0]]
			e.Candidates = append(e.Candidates, x.span(d, false))
		}
		return Span{}, e
	case 1:
		return x.span(x.decls[found[0]], sel.Doc), nil
	}
	e := &Error{Selector: sel, Path: x.path, Language: x.Language(), Err: ErrAmbiguous}
	for _, i := range found {
		e.Candidates = append(e.Candidates, x.span(x.decls[i], sel.Doc))
	}
	return Span{}, e
}

// span maps a declaration's bytes to line positions.
func (x *Index) span(d Decl, doc bool) Span {
	start := d.Start
	if doc {
		start = d.DocStart
	}
	s, e := x.lineIndex().span(start, d.End)
	return Span{Start: s, End: e, Name: d.Name, Kind: d.Kind}
}

// Symbols returns the span of every declaration, in source order, with
// doc comments when doc is set.
func (x *Index) Symbols(doc bool) ([]Span, error) {
	if err := x.parse(); err != nil {
		return nil, err
	}
	spans := make([]Span, len(x.decls))
	for i, d := range x.decls {
		spans[i] = x.span(d, doc)
	}
	return spans, nil
}

// Regions returns every region of the file, as the package's Regions does.
func (x *Index) Regions() ([]Span, error) {
	x.findMarkers()
	return regions(x.path, x.markers)
}

// normalizeName writes "::" as ".".
func normalizeName(name string) string {
	if strings.Contains(name, "::") {
		return strings.ReplaceAll(name, "::", ".")
	}
	return name
}
