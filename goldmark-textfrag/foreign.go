package textfrag

import (
	"reflect"
	"sync"

	"github.com/yuin/goldmark/ast"
)

// Links other extensions make. An extension may parse links of its own
// syntax into nodes of its own kind, which its renderer writes as <a href>:
// go.abhg.dev/goldmark/wikilink makes [[../src/a.go#line=1,2;md5=…]] a
// link to ../src/a.go#line=1,2;md5=…. textfrag cannot import every such
// extension, so it reads their nodes by shape: a node of a kind it does
// not know whose type has a Destination []byte field, or Target and
// Fragment []byte fields (the target before '#', the fragment after it),
// links there. Such a link with an RFC 5147 fragment is verified as
// written and left to its extension to render, like an autolink.

// linkFields are the indexes of a node type's link fields: dest for
// Destination, or target and fragment; nil when the type has none.
type linkFields struct {
	dest, target, fragment []int
}

var linkFieldsOf sync.Map // reflect.Type → *linkFields

// foreignDestination returns the destination of n when n is a link of
// another extension (see above), as written.
func foreignDestination(n ast.Node) ([]byte, bool) {
	switch n.Kind() { // goldmark's own, often many: no reflection for them
	case ast.KindText, ast.KindString, ast.KindEmphasis, ast.KindCodeSpan, ast.KindRawHTML,
		ast.KindLink, ast.KindImage, ast.KindAutoLink, ast.KindLinkReferenceDefinition,
		ast.KindDocument, ast.KindParagraph, ast.KindTextBlock, ast.KindHeading, ast.KindList,
		ast.KindListItem, ast.KindBlockquote, ast.KindFencedCodeBlock, ast.KindCodeBlock,
		ast.KindHTMLBlock, ast.KindThematicBreak:
		return nil, false
	}
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	t := v.Type()
	f, ok := linkFieldsOf.Load(t)
	if !ok {
		f, _ = linkFieldsOf.LoadOrStore(t, findLinkFields(t.Elem()))
	}
	lf := f.(*linkFields)
	if lf == nil {
		return nil, false
	}
	s := v.Elem()
	if lf.dest != nil {
		return s.FieldByIndex(lf.dest).Bytes(), true
	}
	target, fragment := s.FieldByIndex(lf.target).Bytes(), s.FieldByIndex(lf.fragment).Bytes()
	if len(fragment) == 0 {
		return target, true
	}
	dest := make([]byte, 0, len(target)+1+len(fragment))
	return append(append(append(dest, target...), '#'), fragment...), true
}

// findLinkFields returns the link fields of struct type t, or nil: its own
// fields, not those of a struct it embeds (through a pointer that may be nil).
func findLinkFields(t reflect.Type) *linkFields {
	field := func(name string) []int {
		f, ok := t.FieldByName(name)
		if !ok || len(f.Index) != 1 || !f.IsExported() || f.Type != reflect.TypeFor[[]byte]() {
			return nil
		}
		return f.Index
	}
	if d := field("Destination"); d != nil {
		return &linkFields{dest: d}
	}
	if tg, fr := field("Target"), field("Fragment"); tg != nil && fr != nil {
		return &linkFields{target: tg, fragment: fr}
	}
	return nil
}
