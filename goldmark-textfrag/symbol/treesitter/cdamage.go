//go:build cgo

package treesitter

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// C and C++ files rarely parse without errors: tree-sitter does not expand
// macros, so an export macro before a declaration (API void f(void);), a
// namespace-opening macro (NS_BEGIN) or a condition it cannot read
// (#if __has_include(<x>)) is an ERROR. cDamage confines each error to the
// part of the file it may have misread, so that a name away from every
// error can still be looked up (testdata/SYMBOLS.md §6). The rule:
//
//   - An error whose { and } do not pair up (or a missing brace) may have
//     moved every declaration after it into or out of a scope: no name is
//     looked up (structural).
//   - Otherwise the braces outside the error pair as the tree says, so
//     every scope is where the tree puts it. The error is confined to its
//     item: the declaration, directive or ERROR directly in the innermost
//     declaration list holding it (file, namespace or extern "C" body,
//     class body, #if branch). An item that does not end cleanly (with ;
//     or }, or a directive's line end) spreads the damage to the items
//     after it until one does, and an item before it that does not end
//     cleanly is damaged too: tree-sitter may have cut one declaration in
//     two.
//   - A declaration overlapping the damage is not trusted, and every
//     identifier in the damaged bytes may name a declaration the error hid
//     or made up: the engine fails a lookup in either case.
//   - An error inside the body of a function whose head parsed cleanly
//     damages that function only: C and C++ declare no names inside
//     function bodies (for sym=).
//   - An uppercase macro before a declaration, on the line where the
//     declaration's type starts (IMGUI_API bool Begin(…);), is no error:
//     the grammar reads the macro as the type and the real type words as
//     an ERROR, but the declarator, and so the name, parsed cleanly, and
//     the declaration's lines are the same whether the macro belongs to it
//     or not.
type cDamage struct {
	src    []byte
	cursor *ts.TreeCursor
	damage []symbol.Damage
	// seen are the items damaged already, by their byte range: several
	// errors in one item damage it once.
	seen map[[2]uint]bool
}

// confineC returns what each syntax error of a C or C++ tree may have
// misread, or the error that keeps any name from being looked up and why
// (to add to its description).
func confineC(tree *ts.Tree, root *ts.Node, src []byte) (damage []symbol.Damage, fatal *ts.Node, why string) {
	cursor := tree.Walk()
	defer cursor.Close()
	c := &cDamage{src: src, cursor: cursor, seen: map[[2]uint]bool{}}
	zones, fatal := braceZones(tree, src)
	if fatal != nil {
		return nil, fatal, "; this brace has no partner in the file (are the braces of an #if branch unbalanced?), so no declaration's scope can be trusted"
	}
	for _, e := range errorNodes(tree, root) {
		if macroBeforeDecl(&e, src) {
			continue
		}
		if !c.confine(&e) {
			return nil, firstError(tree, root), "; the parser could not read the file's structure at all"
		}
	}
	damage = append(c.damage, zones...)
	slices.SortStableFunc(damage, func(a, b symbol.Damage) int { return cmp.Compare(a.Offset, b.Offset) })
	return damage, nil, ""
}

// errorNodes returns the outermost ERROR nodes of the tree and the MISSING
// nodes outside them, in source order.
func errorNodes(tree *ts.Tree, root *ts.Node) []ts.Node {
	var errs []ts.Node
	c := tree.Walk()
	defer c.Close()
	for {
		n := c.Node()
		if n.IsError() || n.IsMissing() {
			errs = append(errs, *n)
		} else if n.HasError() && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return errs
			}
		}
	}
}

// braceZones pairs the file's braces as a compiler would (each } closes
// the nearest open {; braces in strings, comments and directives are not
// tokens) and returns, for each pair the tree did not read as one node's
// { and }, the bytes whose scope may be misread: from the { to the } and
// over the nodes that hold either. A brace without a partner is fatal: no
// scope can be trusted.
func braceZones(tree *ts.Tree, src []byte) ([]symbol.Damage, *ts.Node) {
	directives := directiveLines(src)
	type brace struct {
		n, parent ts.Node
		inError   bool
	}
	var open []brace
	var zones []symbol.Damage
	var parents []ts.Node // the nodes on the cursor's way down, by depth
	errDepth := -1        // the depth of the ERROR the cursor is in, -1 none
	c := tree.Walk()
	defer c.Close()
	for {
		n := c.Node()
		d := int(c.Depth())
		if errDepth >= d {
			errDepth = -1
		}
		if n.IsError() && errDepth < 0 {
			errDepth = d
		}
		parents = append(parents[:d], *n)
		if k := n.Kind(); (k == "{" || k == "}") && n.ChildCount() == 0 && !n.IsMissing() && d > 0 && !directives.holds(int(n.StartByte())) {
			b := brace{*n, parents[d-1], errDepth >= 0}
			if k == "{" {
				open = append(open, b)
			} else {
				if len(open) == 0 {
					return nil, n
				}
				o := open[len(open)-1]
				open = open[:len(open)-1]
				if o.inError || b.inError || o.parent.Id() != b.parent.Id() {
					start := min(o.n.StartByte(), o.parent.StartByte(), b.parent.StartByte())
					end := max(b.n.EndByte(), o.parent.EndByte(), b.parent.EndByte())
					zones = append(zones, symbol.Damage{Offset: int(o.n.StartByte()),
						Msg:   "the parser did not pair this { with the } that closes it",
						Start: int(start), End: int(end), Words: words(src[start:end])})
				}
			}
		}
		if c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				if len(open) > 0 {
					o := open[len(open)-1].n
					return nil, &o
				}
				return zones, nil
			}
		}
	}
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

// isDeclList reports whether n is a list of declarations: the names in it
// are found by walkC.
func isDeclList(n *ts.Node) bool {
	switch n.Kind() {
	case "translation_unit", "declaration_list", "field_declaration_list",
		"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		return true
	}
	return false
}

// confine records the damage of error e; false when e is in no
// declaration list (it is the root: the parser gave up on the file).
func (c *cDamage) confine(e *ts.Node) bool {
	item := *e
	for {
		p := item.Parent()
		if p == nil {
			return false
		}
		if isDeclList(p) {
			break
		}
		item = *p
	}
	key := [2]uint{item.StartByte(), item.EndByte()}
	if c.seen[key] {
		return true
	}
	c.seen[key] = true
	at := innermostError(e)
	d := symbol.Damage{Offset: int(at.StartByte()), Msg: describeError(at, c.src), Start: int(item.StartByte()), End: int(item.EndByte())}
	if inFunctionBody(&item, e) {
		// No name hides in a function body; the function itself is
		// damaged (its span overlaps).
		c.damage = append(c.damage, d)
		return true
	}
	if !endsCleanly(&item) {
		for n := item.NextNamedSibling(); n != nil; n = n.NextNamedSibling() {
			d.End = int(headEnd(n))
			if endsCleanly(n) || d.End < int(n.EndByte()) {
				break
			}
		}
	}
	for n := item.PrevNamedSibling(); n != nil && !endsCleanly(n); n = n.PrevNamedSibling() {
		d.Start = int(n.StartByte())
	}
	d.Words = words(c.src[d.Start:d.End])
	c.damage = append(c.damage, d)
	return true
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
	d := f.ChildByFieldName("declarator")
	for d != nil && d.Kind() != "function_declarator" {
		switch d.Kind() {
		case "pointer_declarator", "reference_declarator", "attributed_declarator":
			d = innerDeclarator(d)
		default:
			d = nil
		}
	}
	if d == nil {
		return false
	}
	return cleanBefore(f, body) && (f.Id() == item.Id() || cleanBefore(item, f))
}

// cleanBefore reports whether the children of n before child have no error.
func cleanBefore(n, child *ts.Node) bool {
	for i := range n.ChildCount() {
		k := n.Child(i)
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
// comes next: a directive or comment (at its line end), or a last token ;
// or } that the parser read (not one it made up), with no error on the
// way down to it.
func endsCleanly(n *ts.Node) bool {
	switch k := n.Kind(); {
	case n.IsError() || n.IsMissing():
		return false
	case k == "comment":
		return true
	case strings.HasPrefix(k, "preproc_"):
		return !lastHasError(n)
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

// macroBeforeDecl reports whether e is the type of a declaration that an
// uppercase macro before it displaced (IMGUI_API bool Begin(…);): e is an
// ERROR of words only, the declaration's only error, directly followed by
// its declarator, and on the line the declaration starts on, so that its
// lines are the same whether or not the macro belongs to it.
func macroBeforeDecl(e *ts.Node, src []byte) bool {
	d := e.Parent()
	if !e.IsError() || d == nil {
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
		if n.Kind() != "identifier" && n.Kind() != "type_identifier" {
			onlyWords = false
		}
	})
	if !onlyWords {
		return false
	}
	next := e.NextSibling()
	decl := d.ChildByFieldName("declarator")
	if next == nil || decl == nil || next.Id() != decl.Id() {
		return false
	}
	// The macro: the declaration's type, or a word of it (API unsigned
	// int f(); reads API unsigned as a sized type).
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
	// The only error in the declaration.
	errs := 0
	c := d.Walk()
	defer c.Close()
	for {
		n := c.Node()
		if n.IsError() || n.IsMissing() {
			errs++
		} else if n.HasError() && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() || c.Node().Id() == d.Id() {
				return errs == 1
			}
		}
	}
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
