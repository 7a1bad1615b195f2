//go:build cgo

package treesitter

import (
	"bytes"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// walkRust finds items: fn, struct, enum, union, trait, type, const,
// static, mod (m.f), macro_rules; methods and associated items of
// impl T and impl Tr for T as T.m (generic and reference types by their
// base name: impl<T> Tr for &mut Vec<T> → Vec.m); trait items as Tr.m.
// The #[…] attributes directly above an item are part of it.
func walkRust(w *walker, root *ts.Node) {
	rustItems(w, root, "", false)
}

// rustItems walks a file, a mod's or a trait's or impl's declaration list.
// inType says the items are a type's (methods, associated items).
func rustItems(w *walker, list *ts.Node, prefix string, inType bool) {
	if !w.enter() {
		return
	}
	defer w.leave()
	items := w.named(list)
	for i := range items {
		n := &items[i]
		start := rustAttributesStart(items, i)
		add := func(name, kind string) {
			w.addSpan(qualify(prefix, name), kind, start, int(n.EndByte()))
		}
		switch n.Kind() {
		case "function_item", "function_signature_item":
			if inType {
				add(w.field(n, "name"), "method")
			} else {
				add(w.field(n, "name"), "func")
			}
		case "struct_item", "enum_item", "union_item", "trait_item", "type_item",
			"associated_type", "const_item", "static_item", "mod_item", "macro_definition":
			name := w.field(n, "name")
			add(name, rustKind[n.Kind()])
			switch n.Kind() {
			case "mod_item":
				if body := n.ChildByFieldName("body"); body != nil {
					rustItems(w, body, qualify(prefix, name), false)
				}
			case "trait_item":
				if body := n.ChildByFieldName("body"); body != nil {
					rustItems(w, body, qualify(prefix, name), true)
				}
			}
		case "impl_item":
			// The impl block itself is not a name: impl T would collide
			// with struct T.
			// An impl for a type with no name (a tuple, a fn pointer)
			// has no names to quote.
			typ := rustTypeName(w, n.ChildByFieldName("type"))
			if body := n.ChildByFieldName("body"); body != nil && typ != "" {
				rustItems(w, body, qualify(prefix, typ), true)
			}
		}
	}
}

var rustKind = map[string]string{
	"struct_item":      "struct",
	"enum_item":        "enum",
	"union_item":       "union",
	"trait_item":       "trait",
	"type_item":        "type",
	"associated_type":  "type", // type Item; in a trait
	"const_item":       "const",
	"static_item":      "static",
	"mod_item":         "mod",
	"macro_definition": "macro",
}

// rustAttributesStart is where item i starts with the attribute items
// (#[…]) directly before it; comments between them are allowed.
func rustAttributesStart(items []ts.Node, i int) int {
	start := int(items[i].StartByte())
	for j := i - 1; j >= 0; j-- {
		switch items[j].Kind() {
		case "attribute_item":
			start = int(items[j].StartByte())
		case "line_comment", "block_comment":
		default:
			return start
		}
	}
	return start
}

// rustTypeName is the base name of an impl's type: Vec for Vec<T>,
// &mut Vec<T>, std::vec::Vec<T>; "" for types with no name (tuples, …).
func rustTypeName(w *walker, t *ts.Node) string {
	for t != nil {
		switch t.Kind() {
		case "type_identifier", "primitive_type":
			return w.text(t)
		case "generic_type":
			t = t.ChildByFieldName("type")
		case "reference_type", "pointer_type":
			t = t.ChildByFieldName("type")
		case "scoped_type_identifier":
			t = t.ChildByFieldName("name")
		default:
			return ""
		}
	}
	return ""
}

// isRustDoc: outer doc comments, /// and /** */ (not //!, /*!, //// or
// plain comments).
func isRustDoc(c []byte) bool {
	switch {
	case bytes.HasPrefix(c, []byte("////")):
		return false
	case bytes.HasPrefix(c, []byte("///")):
		return true
	case bytes.HasPrefix(c, []byte("/***")), bytes.HasPrefix(c, []byte("/**/")):
		return false
	}
	return bytes.HasPrefix(c, []byte("/**"))
}
