//go:build cgo

package treesitter

import (
	"bytes"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// walkJava finds classes, interfaces, enums, records and annotation types
// (nested ones qualified: Outer.Inner), their methods (C.m), constructors
// (C.C), fields (C.f), constants and enum constants. Annotations are part
// of the declaration (the grammar puts them in its modifiers).
func walkJava(w *walker, root *ts.Node) {
	javaMembers(w, root, "")
}

func javaMembers(w *walker, body *ts.Node, prefix string) {
	for _, n := range w.named(body) {
		switch n.Kind() {
		case "class_declaration", "interface_declaration", "enum_declaration",
			"record_declaration", "annotation_type_declaration":
			name := qualify(prefix, w.field(&n, "name"))
			w.add(name, javaTypeKind[n.Kind()], &n)
			javaMembers(w, n.ChildByFieldName("body"), name)
		case "enum_body_declarations":
			javaMembers(w, &n, prefix)
		case "enum_constant":
			w.add(qualify(prefix, w.field(&n, "name")), "const", &n)
		case "method_declaration", "annotation_type_element_declaration":
			if prefix != "" {
				w.add(qualify(prefix, w.field(&n, "name")), "method", &n)
			}
		case "constructor_declaration", "compact_constructor_declaration":
			if prefix != "" {
				w.add(qualify(prefix, w.field(&n, "name")), "constructor", &n)
			}
		case "field_declaration", "constant_declaration":
			if prefix == "" {
				continue
			}
			var vars []ts.Node
			for _, d := range w.named(&n) {
				if d.Kind() == "variable_declarator" {
					vars = append(vars, d)
				}
			}
			for _, d := range vars {
				// One field spans its declaration; one of several
				// (int x, y;) spans the declaration too, since the type
				// and annotations it needs are there.
				w.add(qualify(prefix, w.field(&d, "name")), "field", &n)
			}
		}
	}
}

var javaTypeKind = map[string]string{
	"class_declaration":           "class",
	"interface_declaration":       "interface",
	"enum_declaration":            "enum",
	"record_declaration":          "record",
	"annotation_type_declaration": "annotation",
}

// isJavaDoc: Javadoc, /** */.
func isJavaDoc(c []byte) bool {
	return bytes.HasPrefix(c, []byte("/**")) && !bytes.Equal(c, []byte("/**/"))
}
