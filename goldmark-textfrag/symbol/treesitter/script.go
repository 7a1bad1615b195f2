//go:build cgo

package treesitter

import (
	"bytes"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// walkScript finds the declarations of JavaScript, TypeScript and TSX:
// functions (and overload signatures), classes and their methods and
// fields, const/let/var declarators at the top level and in namespaces,
// interfaces and their members, type aliases, enums and namespaces. An
// export or declare statement is part of the declaration it wraps.
func walkScript(w *walker, root *ts.Node) {
	scriptStatements(w, root, "")
}

func scriptStatements(w *walker, block *ts.Node, prefix string) {
	if !w.enter() {
		return
	}
	defer w.leave()
	for _, n := range w.named(block) {
		outer := n
		switch n.Kind() {
		case "export_statement":
			if d := n.ChildByFieldName("declaration"); d != nil {
				scriptDecl(w, d, &outer, prefix)
			} else if v := n.ChildByFieldName("value"); v != nil {
				scriptDecl(w, v, &outer, prefix)
			}
		case "ambient_declaration", "expression_statement":
			// declare …; a namespace is an expression statement in the
			// grammar.
			for _, d := range w.named(&n) {
				scriptDecl(w, &d, &outer, prefix)
			}
		default:
			scriptDecl(w, &n, &outer, prefix)
		}
	}
}

func scriptDecl(w *walker, n, outer *ts.Node, prefix string) {
	switch n.Kind() {
	case "function_declaration", "generator_function_declaration", "function_signature",
		"function_expression", "function", "generator_function":
		w.add(qualify(prefix, w.field(n, "name")), "func", outer)
	case "class_declaration", "abstract_class_declaration", "class":
		name := w.field(n, "name")
		if name == "" {
			return
		}
		name = qualify(prefix, name)
		w.add(name, "class", outer)
		scriptClassBody(w, n.ChildByFieldName("body"), name)
	case "interface_declaration":
		name := qualify(prefix, w.field(n, "name"))
		w.add(name, "interface", outer)
		for _, m := range w.named(n.ChildByFieldName("body")) {
			switch m.Kind() {
			case "method_signature":
				w.add(qualify(name, scriptMemberName(w, &m)), "method", &m)
			case "property_signature":
				w.add(qualify(name, scriptMemberName(w, &m)), "field", &m)
			}
		}
	case "type_alias_declaration":
		w.add(qualify(prefix, w.field(n, "name")), "type", outer)
	case "enum_declaration":
		w.add(qualify(prefix, w.field(n, "name")), "enum", outer)
	case "internal_module", "module":
		nameNode := n.ChildByFieldName("name")
		if nameNode == nil || nameNode.Kind() == "string" {
			return // declare module "x": no name to quote it by
		}
		name := qualify(prefix, w.text(nameNode))
		w.add(name, "namespace", outer)
		if body := n.ChildByFieldName("body"); body != nil {
			scriptStatements(w, body, name)
		}
	case "lexical_declaration", "variable_declaration":
		kind := "var"
		if bytes.HasPrefix(w.src[n.StartByte():], []byte("const")) {
			kind = "const"
		}
		declarators := w.named(n)
		var vars []ts.Node
		for _, d := range declarators {
			if d.Kind() == "variable_declarator" {
				vars = append(vars, d)
			}
		}
		for _, d := range vars {
			name := d.ChildByFieldName("name")
			if name == nil || name.Kind() != "identifier" {
				continue // a destructuring pattern
			}
			span := outer
			if len(vars) > 1 {
				span = &d // one of several: its own declarator
			}
			w.add(qualify(prefix, w.text(name)), kind, span)
		}
	}
}

// scriptClassBody records a class's methods and fields. TypeScript's
// grammar puts a member's decorators before it in the class body, not in
// the member (JavaScript's puts them in it): a member's span starts at its
// first decorator, as a class's does.
func scriptClassBody(w *walker, body *ts.Node, class string) {
	decorated := -1 // start of the decorators waiting for their member
	for _, m := range w.named(body) {
		kind := ""
		switch m.Kind() {
		case "decorator":
			if decorated < 0 {
				decorated = int(m.StartByte())
			}
			continue
		case "comment":
			continue
		case "method_definition", "method_signature", "abstract_method_signature":
			kind = "method"
		case "public_field_definition", "field_definition":
			kind = "field"
		}
		start := int(m.StartByte())
		if decorated >= 0 {
			start = decorated
		}
		decorated = -1
		if kind != "" {
			w.addSpan(qualify(class, scriptMemberName(w, &m)), kind, start, int(m.EndByte()))
		}
	}
}

// scriptMemberName is a member's name as written: m, #m, [Symbol.iterator],
// or the text of a string name.
func scriptMemberName(w *walker, m *ts.Node) string {
	n := m.ChildByFieldName("name")
	if n == nil {
		n = m.ChildByFieldName("property") // JavaScript's field_definition
	}
	if n == nil {
		return ""
	}
	if n.Kind() == "string" {
		return strings.Trim(w.text(n), `'"`)
	}
	return strings.Join(strings.Fields(w.text(n)), "")
}

// isScriptDoc: /** */ and // comments directly above.
func isScriptDoc(c []byte) bool {
	return bytes.HasPrefix(c, []byte("//")) || bytes.HasPrefix(c, []byte("/**"))
}
