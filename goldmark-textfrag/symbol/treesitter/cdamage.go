//go:build cgo

package treesitter

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// C and C++ files rarely parse without errors: tree-sitter does not expand
// macros, so an export macro before a declaration (API void f(void);), a
// namespace-opening macro (NS_BEGIN) or a condition it cannot read
// (#if __has_include(<x>)) is an ERROR. confineC confines each error to
// the bytes it may have misread, so that a name away from every error can
// still be looked up (testdata/SYMBOLS.md §7). The rule:
//
//   - Braces decide every scope. They are paired as a compiler pairs them
//     (each } closes the nearest open {; braces in strings, comments and
//     directive lines are not tokens). A brace without a partner fails
//     every lookup: no scope can be trusted. A pair the tree did not read
//     as one node's { and } (a brace in an ERROR, a missing }) damages
//     everything from the { to the }.
//   - Outside those zones every scope is where the tree puts it. An error
//     damages its item: the declaration, directive or ERROR directly in
//     the innermost declaration list holding it (the file, a namespace or
//     extern "C" body, a class body, an #if branch). An item that does not
//     end cleanly (with a ; or } the parser read, or a directive's line
//     end) spreads the damage over the items after it until one does (a
//     namespace only over its head: its braces pair), and an item before
//     it that does not end cleanly is damaged too: tree-sitter may have
//     cut one declaration in two.
//   - An error inside the body of a function whose head parsed cleanly
//     damages that function only: no name sym= looks up is declared in a
//     function body.
//   - An uppercase macro before a declaration, on the line where the
//     declaration's type starts (IMGUI_API bool Begin(…);), is no error:
//     the grammar reads the macro as the type and the real type words as
//     an ERROR, but the declarator, and so the name, parsed cleanly, and
//     the declaration's lines are the same whether the macro belongs to it
//     or not.
//
// The engine then fails a lookup whose name's last component is an
// identifier anywhere in a damaged zone (the error may hide or make up a
// declaration of that name), or whose candidate overlaps one (its lines
// may be misread).
//
// confineC returns the damage, or the error that keeps any name from
// being looked up and why (to add to its description). It walks the tree
// once and each declaration list with an error in it once more, without
// parent or sibling look-ups (tree-sitter finds a node's parent from the
// root, a cost that grows with the file).
func confineC(tree *ts.Tree, root *ts.Node, src []byte) (damage []symbol.Damage, fatal *symbol.ParseError) {
	pairs, unpaired := pairBraces(src)
	if unpaired >= 0 {
		return nil, &symbol.ParseError{Offset: unpaired, Msg: "this brace has no partner in the file (are the braces of an #if branch unbalanced?), so no declaration's scope can be trusted"}
	}
	sc := scanC(tree, src)
	if sc.rootError {
		bad := firstError(root)
		return nil, &symbol.ParseError{Offset: int(bad.StartByte()), Msg: describeError(bad, src) + "; the parser could not read the file's structure at all"}
	}
	zones := sc.braceZones(pairs)
	for _, l := range sc.lists {
		zones = append(zones, l.zones(src)...)
	}
	return merge(zones, src), nil
}

// zone is the bytes [start, end) one error may have misread; wordless
// when no declaration can hide in them (a function body).
type zone struct {
	start, end int
	offset     int
	msg        string
	wordless   bool
}

// cScan is what one walk of the tree finds.
type cScan struct {
	// braces are the tree's { and } tokens outside directive lines, by
	// offset.
	braces map[int]treeBrace
	// rootError: an error in no declaration list (the root is an ERROR).
	rootError bool
	// lists are the declaration lists holding errors, in source order,
	// each with the items that hold them.
	lists []*errList
}

// treeBrace is a { or } token of the tree: the node it is a child of, and
// whether it is inside an ERROR.
type treeBrace struct {
	parent  ts.Node
	inError bool
}

// errList is a declaration list and its items that hold errors, with the
// first error in each.
type errList struct {
	list  ts.Node
	items map[[2]uint]ts.Node // item's byte range → the error in it
	order [][2]uint
}

func scanC(tree *ts.Tree, src []byte) *cScan {
	sc := &cScan{braces: map[int]treeBrace{}}
	directives := directiveLines(src)
	kinds := cKinds(tree.Language())
	var path []ts.Node // the nodes on the cursor's way down, by depth
	var lists []int    // the depths of the declaration lists on path
	byList := map[uintptr]*errList{}
	errDepth := -1 // the depth of the ERROR the cursor is in, -1 none
	c := tree.Walk()
	defer c.Close()
	// d is the cursor's depth, kept here: the cursor's Depth counts its
	// stack each time it is asked, which made the scan cost the square of
	// the tree's depth.
	d := 0
	for {
		scanVisits.Add(1)
		n := c.Node()
		if errDepth >= d {
			errDepth = -1
		}
		path = append(path[:d], *n)
		for len(lists) > 0 && lists[len(lists)-1] >= d {
			lists = lists[:len(lists)-1]
		}
		id := n.KindId()
		isError, missing := n.IsError(), n.IsMissing()
		if (isError || missing) && errDepth < 0 {
			sc.record(n, path, lists, byList, src)
		}
		if isError && errDepth < 0 {
			errDepth = d
		}
		flags := kinds.of(id)
		if flags&kindList != 0 {
			lists = append(lists, d)
		}
		if flags&kindBrace != 0 && !missing && d > 0 && !directives.holds(int(n.StartByte())) {
			sc.braces[int(n.StartByte())] = treeBrace{path[d-1], errDepth >= 0}
		}
		if c.GotoFirstChild() {
			d++
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return sc
			}
			d--
		}
	}
}

// scanVisits counts the nodes scanC has visited, for the tests that hold
// it linear in the tree.
var scanVisits atomic.Int64

// braceZones returns a zone for each pair of braces (as pairBraces pairs
// them) that the tree did not read as one node's { and }: from the { to
// the }, over the nodes that hold either. A brace token of the tree that
// is no brace to the compiler (the parser read a string or comment
// otherwise) damages the node that holds it.
func (sc *cScan) braceZones(pairs [][2]int) []zone {
	var zs []zone
	paired := make(map[int]bool, 2*len(pairs))
	for _, p := range pairs {
		o, c := p[0], p[1]
		paired[o], paired[c] = true, true
		to, ok1 := sc.braces[o]
		tc, ok2 := sc.braces[c]
		if ok1 && ok2 && !to.inError && !tc.inError && to.parent.Id() == tc.parent.Id() {
			continue
		}
		// From the { to the }, and on to where the tree closes the {
		// (or back to where it opens the }) when it made a node of
		// either: in between, one of the two scopes is misread. (A brace
		// whose node it does not delimit, one in an ERROR or loose in a
		// list, is only itself.)
		z := zone{start: o, end: c + 1, offset: o, msg: "the parser did not pair this { with the } that closes it"}
		if ok1 && int(to.parent.StartByte()) == o {
			z.end = max(z.end, int(to.parent.EndByte()))
		}
		if ok2 && int(tc.parent.EndByte()) == c+1 {
			z.start = min(z.start, int(tc.parent.StartByte()))
		}
		zs = append(zs, z)
	}
	for off, tb := range sc.braces {
		if !paired[off] {
			// The node it delimits, or at least itself.
			z := zone{start: off, end: off + 1, offset: off, msg: "the parser read a brace here that is not one"}
			if int(tb.parent.StartByte()) == off || int(tb.parent.EndByte()) == off+1 {
				z.start, z.end = int(tb.parent.StartByte()), int(tb.parent.EndByte())
			}
			zs = append(zs, z)
		}
	}
	return zs
}

// pairBraces pairs the braces of C or C++ source as a compiler does: each
// } closes the nearest open {, and braces in comments, string and
// character literals (raw strings too) and preprocessor directive lines
// (a macro's text) do not count. It returns the pairs as offsets, or the
// offset of a brace without a partner (-1 when none).
func pairBraces(src []byte) (pairs [][2]int, unpaired int) {
	directives := directiveLines(src)
	var open []int
	di := 0
	for i := 0; i < len(src); {
		for di < len(directives) && directives[di][1] <= i {
			di++
		}
		if di < len(directives) && directives[di][0] <= i {
			i = directives[di][1]
			continue
		}
		b := src[i]
		switch {
		case b == '/' && i+1 < len(src) && src[i+1] == '/':
			// A line comment; a backslash at its end continues it.
			for {
				le := lineEnd(src, i)
				if le >= len(src) || !continued(src, i, le) {
					i = le
					break
				}
				i = next(src, le)
			}
		case b == '/' && i+1 < len(src) && src[i+1] == '*':
			if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
				i += j + 4
			} else {
				i = len(src)
			}
		case b == '"' || b == '\'':
			i = skipQuoted(src, i)
		case '0' <= b && b <= '9' || b == '.' && i+1 < len(src) && '0' <= src[i+1] && src[i+1] <= '9':
			// A number, with C++14 digit separators (1'000) and
			// exponents (1e+5, 0x1p-3).
			i = skipNumber(src, i)
		case isIdentStart(b):
			j := i
			for j < len(src) && (isIdentStart(src[j]) || '0' <= src[j] && src[j] <= '9') {
				j++
			}
			switch string(src[i:j]) {
			case "R", "LR", "uR", "UR", "u8R":
				if j < len(src) && src[j] == '"' {
					j = skipRaw(src, j)
				}
			}
			i = j
		case b == '{':
			open = append(open, i)
			i++
		case b == '}':
			if len(open) == 0 {
				return nil, i
			}
			pairs = append(pairs, [2]int{open[len(open)-1], i})
			open = open[:len(open)-1]
			i++
		default:
			i++
		}
	}
	if len(open) > 0 {
		return nil, open[len(open)-1]
	}
	return pairs, -1
}

// skipNumber returns the offset after the number that starts at src[i],
// with its C++14 digit separators (1'000) and signed exponents (1e+5,
// 0x1p-3).
func skipNumber(src []byte, i int) int {
	for i++; i < len(src); i++ {
		c := src[i]
		switch {
		case isIdentStart(c) || '0' <= c && c <= '9' || c == '.':
		case c == '\'' && i+1 < len(src) && (isIdentStart(src[i+1]) || '0' <= src[i+1] && src[i+1] <= '9'):
		case (c == '+' || c == '-') && strings.IndexByte("eEpP", src[i-1]) >= 0:
		default:
			return i
		}
	}
	return i
}

// skipQuoted returns the offset after the string or character literal
// that starts at src[i] (its quote), or after the line end when it is
// not closed on its line.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(src)
}

// skipRaw returns the offset after the raw string literal whose opening
// quote is src[i]: R"delim( … )delim".
func skipRaw(src []byte, i int) int {
	p := bytes.IndexByte(src[i+1:], '(')
	if p < 0 || p > 16 {
		return i + 1
	}
	end := append([]byte(")"), src[i+1:i+1+p]...)
	end = append(end, '"')
	if j := bytes.Index(src[i+2+p:], end); j >= 0 {
		return i + 2 + p + j + len(end)
	}
	return len(src)
}

// record notes error e, at the end of path: the item of its innermost
// declaration list that holds it, unless it is a macro before a
// declaration (macroBeforeDecl).
func (sc *cScan) record(e *ts.Node, path []ts.Node, lists []int, byList map[uintptr]*errList, src []byte) {
	d := len(path) - 1
	if d > 0 && macroBeforeDecl(e, &path[d-1], src) {
		return
	}
	if len(lists) == 0 {
		sc.rootError = true
		return
	}
	li := lists[len(lists)-1]
	list, item := path[li], path[li+1]
	l := byList[list.Id()]
	if l == nil {
		l = &errList{list: list, items: map[[2]uint]ts.Node{}}
		byList[list.Id()] = l
		sc.lists = append(sc.lists, l)
	}
	key := [2]uint{item.StartByte(), item.EndByte()}
	if _, ok := l.items[key]; !ok {
		l.items[key] = *e
		l.order = append(l.order, key)
	}
}

// zones returns the damage of each item of l that holds an error: the
// item, and its neighbours that may be pieces of one declaration with it.
func (l *errList) zones(src []byte) []zone {
	var kids []ts.Node
	c := l.list.Walk()
	defer c.Close()
	for ok := c.GotoFirstChild(); ok; ok = c.GotoNextSibling() {
		if n := c.Node(); n.IsNamed() || n.IsError() || n.IsMissing() {
			kids = append(kids, *n)
		}
	}
	var zs []zone
	seen := make(map[[2]uint]bool, len(l.items))
	for j := range kids {
		item := &kids[j]
		key := [2]uint{item.StartByte(), item.EndByte()}
		e, ok := l.items[key]
		if !ok {
			continue
		}
		seen[key] = true
		at := innermostError(&e)
		z := zone{start: int(item.StartByte()), end: int(item.EndByte()), offset: int(at.StartByte()), msg: describeError(at, src)}
		if inFunctionBody(item, &e) {
			// No name hides in a function body; the function itself is
			// damaged (its span overlaps).
			z.wordless = true
			zs = append(zs, z)
			continue
		}
		isErr := func(k int) bool {
			_, ok := l.items[[2]uint{kids[k].StartByte(), kids[k].EndByte()}]
			return ok
		}
		if !endsCleanly(item) {
			for k := j + 1; k < len(kids) && !isErr(k); k++ {
				z.end = int(headEnd(&kids[k]))
				if endsCleanly(&kids[k]) || z.end < int(kids[k].EndByte()) {
					break
				}
			}
		}
		for k := j - 1; k >= 0 && !isErr(k) && !endsCleanly(&kids[k]); k-- {
			z.start = int(kids[k].StartByte())
		}
		zs = append(zs, z)
	}
	// An item the list's children did not show (none should): its bytes
	// are damaged all the same.
	for _, key := range l.order {
		if !seen[key] {
			e := l.items[key]
			at := innermostError(&e)
			zs = append(zs, zone{start: int(key[0]), end: int(key[1]), offset: int(at.StartByte()), msg: describeError(at, src)})
		}
	}
	return zs
}

// merge turns zones into Damage: the zones where a name may hide are
// joined where they overlap and their identifiers listed once (so that
// nested or repeated zones cost no more than the bytes they cover);
// function bodies are kept as they are, without words. The result is in
// source order of the errors.
func merge(zones []zone, src []byte) []symbol.Damage {
	slices.SortFunc(zones, func(a, b zone) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.offset, b.offset)) })
	var out []symbol.Damage
	joined := -1 // the index in out of the zone being joined
	for _, z := range zones {
		d := symbol.Damage{Offset: z.offset, Msg: z.msg, Start: z.start, End: z.end}
		switch {
		case z.wordless:
			out = append(out, d)
		case joined >= 0 && z.start < out[joined].End:
			j := &out[joined]
			j.End = max(j.End, z.end)
			if z.offset < j.Offset {
				j.Offset, j.Msg = z.offset, z.msg
			}
		default:
			d.Words = []string{} // filled below
			out = append(out, d)
			joined = len(out) - 1
		}
	}
	for i := range out {
		if out[i].Words != nil {
			out[i].Words = words(src[out[i].Start:out[i].End])
		}
	}
	slices.SortStableFunc(out, func(a, b symbol.Damage) int { return cmp.Compare(a.Offset, b.Offset) })
	return out
}

// lineRanges are byte ranges [start, end) of lines, in source order.
type lineRanges [][2]int

// holds reports whether offset lies in one of the ranges.
func (r lineRanges) holds(offset int) bool {
	i, _ := slices.BinarySearchFunc(r, offset, func(l [2]int, off int) int {
		switch {
		case l[1] <= off:
			return -1
		case l[0] > off:
			return 1
		}
		return 0
	})
	return i < len(r) && r[i][0] <= offset && offset < r[i][1]
}

// directiveLines returns the preprocessor directives of src: each line
// whose first character other than a blank is #, with the lines a
// backslash at its end continues it onto. Their braces are a macro's text,
// not the program's.
func directiveLines(src []byte) lineRanges {
	var r lineRanges
	for ls := 0; ls < len(src); {
		le := lineEnd(src, ls)
		i := ls
		for i < le && isSpace(src[i]) {
			i++
		}
		if i < le && src[i] == '#' {
			start := ls
			for le < len(src) && continued(src, ls, le) {
				ls = next(src, le)
				le = lineEnd(src, ls)
			}
			r = append(r, [2]int{start, le})
		}
		ls = next(src, le)
	}
	return r
}

// lineEnd returns where the line starting at ls ends (its LF or CR+LF, or
// the end of src).
func lineEnd(src []byte, ls int) int {
	i := bytes.IndexByte(src[ls:], '\n')
	if i < 0 {
		return len(src)
	}
	if i > 0 && src[ls+i-1] == '\r' {
		return ls + i - 1
	}
	return ls + i
}

// next returns the start of the line after the line end at le.
func next(src []byte, le int) int {
	if le < len(src) && src[le] == '\r' {
		le++
	}
	return min(le+1, len(src))
}

// continued reports whether the line [ls, le) ends in a backslash.
func continued(src []byte, ls, le int) bool {
	return le > ls && src[le-1] == '\\'
}

// leaves calls f on every leaf under n, in source order. It walks a cursor
// of its own: ERROR nodes can be large.
func leaves(n *ts.Node, f func(*ts.Node)) {
	c := n.Walk()
	defer c.Close()
	for {
		if c.GotoFirstChild() {
			continue
		}
		f(c.Node())
		for !c.GotoNextSibling() {
			if !c.GotoParent() || c.Node().Id() == n.Id() {
				return
			}
		}
	}
}

// kindFlags says, by node kind id, what the scan needs to know of a
// node: whether it is a brace token or a declaration list (comparing ids
// spares a string per node).
type kindFlags []uint8

const (
	kindBrace uint8 = 1 << iota
	kindList
)

func (k kindFlags) of(id uint16) uint8 {
	if int(id) < len(k) {
		return k[id]
	}
	return 0
}

// cKinds returns the flags of lang's node kinds: every kind id named {,
// } or a declaration list (a grammar may have several ids per name).
func cKinds(lang *ts.Language) kindFlags {
	n := lang.NodeKindCount()
	k := make(kindFlags, n)
	for id := range n {
		switch name := lang.NodeKindForId(uint16(id)); {
		case name == "{" || name == "}":
			if !lang.NodeKindIsNamed(uint16(id)) {
				k[id] = kindBrace
			}
		case isDeclListKind(name) && lang.NodeKindIsNamed(uint16(id)):
			k[id] = kindList
		}
	}
	return k
}

// isDeclList reports whether n is a list of declarations: the names in it
// are found by walkC.
func isDeclList(n *ts.Node) bool { return isDeclListKind(n.Kind()) }

func isDeclListKind(kind string) bool {
	switch kind {
	case "translation_unit", "declaration_list", "field_declaration_list",
		"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		return true
	}
	return false
}

// innermostError is where in error e the parser went wrong: as
// firstError, the first ERROR or MISSING node inside e that holds no
// other (an ERROR around a whole #ifndef guard starts at its first line,
// which is not where the problem is).
func innermostError(e *ts.Node) *ts.Node {
	c := e.Walk()
	defer c.Close()
	for {
		n := c.Node()
		if n.IsMissing() || n.IsError() && !holdsError(n) {
			return n
		}
		if n.HasError() && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return e
			}
		}
	}
}

// inFunctionBody reports whether e lies in the body of the function that
// item defines, and the function's head (everything before the body) has
// no error: its name and lines are then read as written, and it declares
// nothing sym= can name inside.
func inFunctionBody(item, e *ts.Node) bool {
	f := item
	if f.Kind() == "template_declaration" {
		if k := f.NamedChildCount(); k > 0 {
			f = f.NamedChild(k - 1)
		}
	}
	if f.Kind() != "function_definition" {
		return false
	}
	body := f.ChildByFieldName("body")
	if body == nil || e.StartByte() < body.StartByte() || e.EndByte() > body.EndByte() ||
		e.StartByte() == body.StartByte() || e.EndByte() == body.EndByte() {
		return false
	}
	// The head is a function's: a declarator with parameters (class
	// LIB_API Foo { … } reads as a function named Foo whose body is the
	// class's).
	if !declaresFunction(f.ChildByFieldName("declarator")) {
		return false
	}
	return cleanBefore(f, body) && (f.Id() == item.Id() || cleanBefore(item, f))
}

// cleanBefore reports whether the children of n before child have no error.
// It steps through them with a cursor (Node.Child(i) counts from the first
// child each time).
func cleanBefore(n, child *ts.Node) bool {
	c := n.Walk()
	defer c.Close()
	for ok := c.GotoFirstChild(); ok; ok = c.GotoNextSibling() {
		k := c.Node()
		if k.StartByte() >= child.StartByte() {
			return true
		}
		if k.IsError() || k.IsMissing() || k.HasError() {
			return false
		}
	}
	return true
}

// endsCleanly reports whether n ends where a declaration ends whatever
// comes next: a comment, a directive without an error (at its line end),
// an #if block with its #endif, or a last token ; or } that the parser
// read (not one it made up), with no error on the way down to it.
func endsCleanly(n *ts.Node) bool {
	switch k := n.Kind(); {
	case n.IsError() || n.IsMissing():
		return false
	case k == "comment":
		return true
	case isDeclList(n):
		// An #if block ends at its #endif, whatever is inside.
		return !lastHasError(n)
	case strings.HasPrefix(k, "preproc_"):
		// A directive with an error in it may run past its line end
		// (a #define whose text the grammar cannot read swallows the
		// line after it).
		return !n.HasError()
	}
	for {
		if n.IsError() || n.IsMissing() {
			return false
		}
		k := n.ChildCount()
		if k == 0 {
			return n.Kind() == ";" || n.Kind() == "}"
		}
		n = n.Child(k - 1)
	}
}

// lastHasError reports whether an error is on n's way down to its last
// token.
func lastHasError(n *ts.Node) bool {
	for n != nil {
		if n.IsError() || n.IsMissing() {
			return true
		}
		k := n.ChildCount()
		if k == 0 {
			return false
		}
		n = n.Child(k - 1)
	}
	return false
}

// headEnd is where a damaged neighbour's damage ends: a namespace or extern
// block is damaged up to its body (its members keep their scope: the braces
// pair), anything else whole.
func headEnd(n *ts.Node) uint {
	switch n.Kind() {
	case "namespace_definition", "linkage_specification":
		if b := n.ChildByFieldName("body"); b != nil && b.Kind() == "declaration_list" {
			return b.StartByte()
		}
	}
	return n.EndByte()
}

// words returns the identifiers in b, each once: any could name a
// declaration the error hid. Identifiers in comments and strings count
// too (more lookups fail, none passes wrongly).
func words(b []byte) []string {
	seen := map[string]bool{}
	var out []string
	for i := 0; i < len(b); {
		if !isIdentStart(b[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(b) && (isIdentStart(b[j]) || '0' <= b[j] && b[j] <= '9') {
			j++
		}
		if i == 0 || !('0' <= b[i-1] && b[i-1] <= '9') {
			if w := string(b[i:j]); !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
		i = j
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// macroBeforeDecl reports whether error e, a child of d, is the type of a
// declaration that an uppercase macro before it displaced (IMGUI_API bool
// Begin(…);): e is an ERROR of words only, d's only error, directly
// followed by d's declarator, and on the line d starts on, so that d's
// lines are the same whether or not the macro belongs to it.
func macroBeforeDecl(e, d *ts.Node, src []byte) bool {
	if !e.IsError() {
		return false
	}
	switch d.Kind() {
	case "declaration", "field_declaration", "function_definition":
	default:
		return false
	}
	if e.StartPosition().Row != d.StartPosition().Row || e.EndPosition().Row != d.StartPosition().Row {
		return false
	}
	onlyWords := true
	leaves(e, func(n *ts.Node) {
		if n.Kind() != "identifier" && n.Kind() != "type_identifier" || cKeywords[string(src[n.StartByte():n.EndByte()])] {
			onlyWords = false
		}
	})
	if !onlyWords {
		return false
	}
	// The macro: d's type, or a word of it (API unsigned int f(); reads
	// API unsigned as a sized type).
	typ := d.ChildByFieldName("type")
	if typ == nil || typ.EndByte() > e.StartByte() {
		return false
	}
	macro := false
	switch typ.Kind() {
	case "type_identifier":
		macro = isMacroName(string(src[typ.StartByte():typ.EndByte()]))
	case "sized_type_specifier":
		for i := range typ.NamedChildCount() {
			if k := typ.NamedChild(i); k.Kind() == "type_identifier" {
				macro = isMacroName(string(src[k.StartByte():k.EndByte()]))
			}
		}
	}
	if !macro {
		return false
	}
	// e is d's only error, and the next child is d's declarator, which
	// declares a function (a name walkC finds).
	decl := d.ChildByFieldName("declarator")
	if decl == nil {
		return false
	}
	if !declaresFunction(decl) {
		return false
	}
	afterE := false
	c := d.Walk()
	defer c.Close()
	for ok := c.GotoFirstChild(); ok; ok = c.GotoNextSibling() {
		k := c.Node()
		switch {
		case k.Id() == e.Id():
			afterE = true
			continue
		case k.IsError() || k.IsMissing() || k.HasError():
			return false
		case afterE && k.Id() != decl.Id():
			return false
		}
		afterE = false
	}
	return true
}

// declaresFunction reports whether declarator d declares a function, as
// cWalk.declName reads it: a function declarator, through pointer and
// reference declarators, and not inside one (a pointer to a function).
func declaresFunction(d *ts.Node) bool {
	for d != nil {
		switch d.Kind() {
		case "function_declarator":
			return true
		case "pointer_declarator", "reference_declarator", "attributed_declarator":
			d = innerDeclarator(d)
		default:
			return false
		}
	}
	return false
}

// cKeywords are the C and C++ keywords that begin a declaration of
// another shape (using X = …, typedef, class X { … }) or change what it
// declares: read as a word in an ERROR, the declaration around it is not
// the one written.
var cKeywords = map[string]bool{
	"using": true, "typedef": true, "namespace": true, "template": true, "typename": true,
	"class": true, "struct": true, "union": true, "enum": true, "friend": true, "operator": true,
	"concept": true, "requires": true, "public": true, "private": true, "protected": true,
	"extern": true, "return": true, "case": true, "goto": true, "new": true, "delete": true,
}

// isMacroName: an uppercase identifier of two or more characters (API,
// IMGUI_API, JSON_HEDLEY_PUBLIC).
func isMacroName(s string) bool {
	if len(s) < 2 || !('A' <= s[0] && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
