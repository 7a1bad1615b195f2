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
}

var grammars = map[string]grammar{
	"python":     {tspython.Language, walkPython, isPythonDoc, true},
	"javascript": {tsjs.Language, walkScript, isScriptDoc, false},
	"typescript": {tsts.LanguageTypescript, walkScript, isScriptDoc, false},
	"tsx":        {tsts.LanguageTSX, walkScript, isScriptDoc, false},
	"rust":       {tsrust.Language, walkRust, isRustDoc, false},
	"java":       {tsjava.Language, walkJava, isJavaDoc, false},
	"c":          {tsc.Language, walkC, isAnyComment, false},
	"cpp":        {tscpp.Language, walkC, isAnyComment, false},
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
	if bad := firstError(tree, root); bad != nil {
		return nil, parseError(int(bad.StartByte()), describeError(bad, src))
	}
	cursor := tree.Walk()
	defer cursor.Close()
	w := &walker{src: src, root: root, cursor: cursor, isDoc: p.grammar.isDoc, sameIndent: p.grammar.sameIndent}
	p.grammar.walk(w, root)
	return w.decls, nil
}

// firstError returns the first ERROR or MISSING node of the tree in
// source order, or nil. It descends only into nodes that contain an error.
func firstError(tree *ts.Tree, root *ts.Node) *ts.Node {
	if !root.HasError() {
		return nil
	}
	c := tree.Walk()
	defer c.Close()
	for {
		n := c.Node()
		if n.IsError() || n.IsMissing() {
			return n
		}
		if n.HasError() && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				// HasError said there is one; a tree that hides it is
				// still not trusted.
				return root
			}
		}
	}
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

// quote wraps s in backquotes, escaping control and invalid characters.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('`')
	for i, r := range s {
		switch {
		case r == utf8.RuneError && len(s[i:]) > 0 && !utf8.ValidString(s[i:i+1]):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f || (0x80 <= r && r < 0xa0) || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('`')
	return b.String()
}

// walker collects declarations while a language's walk visits the tree.
type walker struct {
	src    []byte
	root   *ts.Node
	cursor *ts.TreeCursor
	isDoc  func(comment []byte) bool
	// sameIndent: see grammar.sameIndent.
	sameIndent bool
	decls      []symbol.Decl
}

// add records a declaration named name (qualified by its containers) that
// spans the node outer (decorators, attributes and wrappers included).
func (w *walker) add(name, kind string, outer *ts.Node) {
	w.addSpan(name, kind, int(outer.StartByte()), int(outer.EndByte()))
}

func (w *walker) addSpan(name, kind string, start, end int) {
	if name == "" {
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
// declaration does not begin its line.
func (w *walker) docStart(start int) int {
	doc := start
	indent := w.src[lineStart(w.src, start):start]
	for {
		ls := lineStart(w.src, doc)
		if !isBlank(w.src[ls:doc]) || ls == 0 {
			return doc
		}
		pe := lineBreakBefore(w.src, ls)
		ps := lineStart(w.src, pe)
		q := pe - 1
		for q >= ps && isSpace(w.src[q]) {
			q--
		}
		if q < ps {
			return doc // a blank line
		}
		c := w.commentAt(q)
		if c == nil {
			return doc
		}
		cs, ce := int(c.StartByte()), int(c.EndByte())
		lead := w.src[lineStart(w.src, cs):cs]
		if !isBlank(lead) || !w.isDoc(w.src[cs:ce]) || w.sameIndent && !bytes.Equal(lead, indent) {
			return doc
		}
		doc = cs
	}
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

// lineStart returns the offset of the start of the line that holds offset,
// by the project's line ends: LF, CR, NEL (and CR+LF, CR+NEL).
func lineStart(src []byte, offset int) int {
	for i := offset; i > 0; i-- {
		switch {
		case src[i-1] == '\n' || src[i-1] == '\r':
			return i
		case src[i-1] == 0x85 && i >= 2 && src[i-2] == 0xc2:
			return i
		}
	}
	return 0
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
