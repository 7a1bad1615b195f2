//go:build cgo

package treesitter

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// Parsers returns a parser for each language of this package, keyed by the
// names symbol.LanguageOf returns: "python", "javascript", "typescript",
// "tsx", "rust", "java", "c" and "cpp". Merge it over symbol.Default to
// look names up in these languages and in Go.
func Parsers() symbol.Set {
	set := make(symbol.Set, len(languages))
	for _, l := range languages {
		g := grammars[l.key]
		set[l.key] = &parser{name: l.name, grammar: g}
	}
	return set
}

// grammar is what a language needs: its tree-sitter grammar, the walk that
// turns its tree into declarations, and which comments are doc comments.
type grammar struct {
	grammar func() unsafe.Pointer
	walk    func(w *walker, root *ts.Node)
	isDoc   func(comment []byte) bool
	// sameIndent: a doc comment is indented like its declaration (Python,
	// where indentation is syntax: a comment indented deeper belongs to
	// the block above).
	sameIndent bool
	// confine, when not nil, confines each syntax error to what it may
	// have misread (C and C++: cdamage.go), so that names away from the
	// errors can still be looked up; fatal is an error it cannot confine.
	confine func(tree *ts.Tree, root *ts.Node, src []byte) (damage []symbol.Damage, fatal *symbol.ParseError)
}

var grammars = map[string]grammar{
	"python":     {tspython.Language, walkPython, isPythonDoc, true, nil},
	"javascript": {tsjs.Language, walkScript, isScriptDoc, false, nil},
	"typescript": {tsts.LanguageTypescript, walkScript, isScriptDoc, false, nil},
	"tsx":        {tsts.LanguageTSX, walkScript, isScriptDoc, false, nil},
	"rust":       {tsrust.Language, walkRust, isRustDoc, false, nil},
	"java":       {tsjava.Language, walkJava, isJavaDoc, false, nil},
	"c":          {tsc.Language, walkC, isAnyComment, false, confineC},
	"cpp":        {tscpp.Language, walkC, isAnyComment, false, confineC},
}

// parser is a symbol.Parser for one language. It holds no tree-sitter
// object: each Decls call makes and frees its own, so it is safe for
// concurrent use and leaks nothing.
type parser struct {
	name    string
	grammar grammar
}

func (p *parser) Language() string { return p.name }

// Decls parses src and returns its declarations in source order. Source
// with any syntax error (an ERROR or MISSING node) is a *symbol.ParseError
// at the first one: a name is never looked up in a tree the parser had to
// repair.
func (p *parser) Decls(src []byte) ([]symbol.Decl, error) {
	if i := bareCR(src); i >= 0 {
		return nil, parseError(i, "a bare CR (carriage return without line feed) ends this line, and the grammars read only LF and CR+LF as line ends (a CR ends a # or // comment in Python, Rust and C only there); convert the file to LF or CR+LF line ends")
	}
	if i := tooDeep(src); i >= 0 {
		return nil, parseError(i, fmt.Sprintf("brackets are nested more than %d deep here; the parser is not run on such a file (its time and memory grow with the depth)", maxNesting))
	}
	tp := ts.NewParser()
	defer tp.Close()
	if err := tp.SetLanguage(ts.NewLanguage(p.grammar.grammar())); err != nil {
		return nil, fmt.Errorf("treesitter: %s grammar: %w", p.name, err)
	}
	tree := tp.Parse(src, nil)
	if tree == nil {
		return nil, parseError(-1, "the parser gave up")
	}
	defer tree.Close()
	root := tree.RootNode()
	bad := firstError(root)
	var damage []symbol.Damage
	if bad != nil {
		if p.grammar.confine == nil {
			return nil, parseError(int(bad.StartByte()), describeError(bad, src))
		}
		var fatal *symbol.ParseError
		if damage, fatal = p.grammar.confine(tree, root, src); fatal != nil {
			return nil, fatal
		}
	}
	cursor := tree.Walk()
	defer cursor.Close()
	w := &walker{src: src, root: root, cursor: cursor, isDoc: p.grammar.isDoc, sameIndent: p.grammar.sameIndent}
	p.grammar.walk(w, root)
	if bad != nil {
		return nil, &symbol.ParseError{Offset: int(bad.StartByte()), Msg: describeError(bad, src),
			Partial: &symbol.Partial{Decls: w.decls, Damage: damage}}
	}
	return w.decls, nil
}

// bareCR returns the offset of the first CR not followed by LF, or -1.
// The project counts it as a line end (SEMANTICS.md §2), the languages
// mostly do too, but the tree-sitter grammars do not: a comment would run
// on over the code after it, hiding its names or moving its spans.
func bareCR(src []byte) int {
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 == len(src) || src[i+1] != '\n' {
			return i
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return -1
}

// maxNesting is the deepest the brackets of a file may nest before it is
// parsed. Compilers stop far sooner (C guarantees 63 levels of
// parentheses, CPython reads 200); tree-sitter does not stop, and a file
// of a million nested brackets costs it seconds and hundreds of megabytes.
const maxNesting = 10000

// tooDeep returns the offset of the first bracket, ( [ or {, that opens a
// level deeper than maxNesting, or -1. It counts every bracket, in strings
// and comments too, without a lexer: no real file opens ten thousand more
// brackets than it closes, in code or out of it.
func tooDeep(src []byte) int {
	depth := 0
	for i, b := range src {
		switch b {
		case '(', '[', '{':
			depth++
			if depth > maxNesting {
				return i
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return -1
}

// firstError returns the first ERROR or MISSING node of the tree in
// source order, or nil. It descends only into nodes that contain an error,
// and into an ERROR node that holds another: when a construct the grammar
// cannot read (a macro with unbalanced braces) makes the parser give up on
// a whole #ifndef guard or file, the outer ERROR starts at its first line,
// which is not where the problem is.
func firstError(root *ts.Node) *ts.Node {
	if !root.HasError() {
		return nil
	}
	// HasError said there is one; a tree that hides it is still not
	// trusted (innermostError then returns root).
	return innermostError(root)
}

// holdsError reports whether one of n's children is or holds an error. It
// steps through them with a cursor: Node.Child(i) starts from the first
// child, which made an ERROR of thousands of children cost seconds.
func holdsError(n *ts.Node) bool {
	c := n.Walk()
	defer c.Close()
	for ok := c.GotoFirstChild(); ok; ok = c.GotoNextSibling() {
		if k := c.Node(); k.IsError() || k.IsMissing() || k.HasError() {
			return true
		}
	}
	return false
}

// describeError says what the parser found at the error node, quoting at
// most a few characters of the source (escaped: a message never carries raw
// control characters).
func describeError(n *ts.Node, src []byte) string {
	if n.IsMissing() {
		return fmt.Sprintf("missing %s", quoteKind(n.Kind()))
	}
	text := src[n.StartByte():n.EndByte()]
	if i := strings.IndexAny(string(text), "\r\n"); i >= 0 {
		text = text[:i]
	}
	const most = 24
	if utf8.RuneCount(text) > most {
		r := []rune(string(text))
		text = []byte(string(r[:most]) + "…")
	}
	if len(strings.TrimSpace(string(text))) == 0 {
		return "unexpected syntax"
	}
	return fmt.Sprintf("unexpected %s", quote(string(text)))
}

// quoteKind names a missing token: `;` for punctuation, identifier for a
// named kind.
func quoteKind(kind string) string {
	for _, r := range kind {
		if r != '_' && !('a' <= r && r <= 'z') {
			return quote(kind)
		}
	}
	return strings.ReplaceAll(kind, "_", " ")
}

// quote wraps s in backquotes, escaping control characters and bytes
// that are not UTF-8.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('`')
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r < 0x20 || r == 0x7f || (0x80 <= r && r < 0xa0) || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		s = s[size:]
	}
	b.WriteByte('`')
	return b.String()
}

// maxDepth is how deep containers (classes, namespaces, modules, functions
// in functions) are walked, and maxName the longest qualified name
// recorded: a hostile file of nested blocks must not make the names grow
// with the square of its size. Deeper or longer names are not found, and a
// link naming them fails as not found.
const (
	maxDepth = 32
	maxName  = 512
)

// walker collects declarations while a language's walk visits the tree.
type walker struct {
	src    []byte
	root   *ts.Node
	cursor *ts.TreeCursor
	isDoc  func(comment []byte) bool
	// sameIndent: see grammar.sameIndent.
	sameIndent bool
	decls      []symbol.Decl
	// pyOverloads collects Python's @overload signatures while
	// walkPython runs (python.go).
	pyOverloads *[]symbol.Decl
	// depth is the number of containers the walk is inside.
	depth int
}

// enter steps into a container; it returns false when the walk is as deep
// as it goes (maxDepth). A true return must be paired with leave.
func (w *walker) enter() bool {
	if w.depth >= maxDepth {
		return false
	}
	w.depth++
	return true
}

func (w *walker) leave() { w.depth-- }

// add records a declaration named name (qualified by its containers) that
// spans the node outer (decorators, attributes and wrappers included).
func (w *walker) add(name, kind string, outer *ts.Node) {
	w.addSpan(name, kind, int(outer.StartByte()), int(outer.EndByte()))
}

func (w *walker) addSpan(name, kind string, start, end int) {
	if name == "" || len(name) > maxName {
		return
	}
	w.decls = append(w.decls, symbol.Decl{Name: name, Kind: kind, Start: start, End: end, DocStart: w.docStart(start)})
}

// named returns n's named children.
func (w *walker) named(n *ts.Node) []ts.Node {
	if n == nil {
		return nil
	}
	return n.NamedChildren(w.cursor)
}

// text returns the source of n.
func (w *walker) text(n *ts.Node) string {
	if n == nil {
		return ""
	}
	return string(w.src[n.StartByte():n.EndByte()])
}

// field returns the source of n's child named field, "" when it has none.
func (w *walker) field(n *ts.Node, field string) string {
	return w.text(n.ChildByFieldName(field))
}

// qualify joins a container's name and a member's.
func qualify(prefix, name string) string {
	if prefix == "" || name == "" {
		return name
	}
	return prefix + "." + name
}

// docStart returns where the doc comment directly above the declaration
// that starts at start begins: the comments the language counts as doc,
// each on lines of its own, with no blank line between them and the
// declaration. It returns start when there is none, and when the
// declaration does not begin its line. It reads only the blanks and
// comments it steps over, so a long line costs nothing.
func (w *walker) docStart(start int) int {
	ls := blankLineStart(w.src, start)
	if ls < 0 {
		return start
	}
	indent := w.src[ls:start]
	doc := start
	for ls > 0 {
		pe := lineBreakBefore(w.src, ls)
		q := pe - 1
		for q >= 0 && isSpace(w.src[q]) {
			q--
		}
		if q < 0 || isLineBreakByte(w.src, q) {
			return doc // a blank line
		}
		c := w.commentAt(q)
		if c == nil {
			return doc
		}
		cs, ce := int(c.StartByte()), int(c.EndByte())
		cls := blankLineStart(w.src, cs)
		if cls < 0 || !w.isDoc(w.src[cs:ce]) || w.sameIndent && !bytes.Equal(w.src[cls:cs], indent) {
			return doc
		}
		doc, ls = cs, cls
	}
	return doc
}

// blankLineStart returns the start of the line that holds offset when only
// blanks precede offset on it, else -1.
func blankLineStart(src []byte, offset int) int {
	for i := offset; i > 0; i-- {
		if isLineBreakByte(src, i-1) {
			return i
		}
		if !isSpace(src[i-1]) {
			return -1
		}
	}
	return 0
}

// isLineBreakByte says whether src[i] ends a line: LF, CR, or the second
// byte of NEL (C2 85). (CR+LF and CR+NEL are one line end; either byte
// ends the line before the next.)
func isLineBreakByte(src []byte, i int) bool {
	switch src[i] {
	case '\n', '\r':
		return true
	case 0x85:
		return i > 0 && src[i-1] == 0xc2
	}
	return false
}

// commentAt returns the comment that holds the byte at offset, or nil.
func (w *walker) commentAt(offset int) *ts.Node {
	n := w.root.DescendantForByteRange(uint(offset), uint(offset+1))
	for depth := 0; n != nil && depth < 4; depth++ {
		switch n.Kind() {
		case "comment", "line_comment", "block_comment":
			return n
		}
		n = n.Parent()
	}
	return nil
}

// lineBreakBefore returns where the line end that ends just before ls (a
// line start after the first line) begins.
func lineBreakBefore(src []byte, ls int) int {
	switch {
	case src[ls-1] == '\n' && ls >= 2 && src[ls-2] == '\r':
		return ls - 2
	case src[ls-1] == 0x85:
		if ls >= 3 && src[ls-3] == '\r' {
			return ls - 3
		}
		return ls - 2
	}
	return ls - 1
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\f' || b == '\v' }

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// isAnyComment: in C and C++ every comment directly above is the doc.
func isAnyComment([]byte) bool { return true }
