//go:build cgo

package treesitter

import (
	"bytes"
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// walkPython finds def and class statements at any depth (methods C.m,
// nested C.Inner.m, functions in functions outer.inner, and in the blocks
// of if, try, with, for, while and match: pythonBlocks) and the names a
// module-level assignment binds (NAME = …, NAME: T = …, A = B = …).
// A def decorated with @overload (typing's, whatever module it is named
// through) declares its name only when no def of that name without it
// does: the signatures are for type checkers, the implementation after
// them is what runs (in a .pyi stub, where there is none, they stay).
func walkPython(w *walker, root *ts.Node) {
	var overloads []symbol.Decl
	w.pyOverloads = &overloads
	defer func() {
		w.pyOverloads = nil
		named := map[string]bool{}
		for _, d := range w.decls {
			named[d.Name] = true
		}
		for _, d := range overloads {
			if !named[d.Name] {
				w.decls = append(w.decls, d)
			}
		}
		if len(overloads) > 0 {
			sort.SliceStable(w.decls, func(i, j int) bool { return w.decls[i].Start < w.decls[j].Start })
		}
	}()
	for _, n := range w.named(root) {
		if n.Kind() == "expression_statement" {
			for _, a := range w.named(&n) {
				for a.Kind() == "assignment" {
					if left := a.ChildByFieldName("left"); left != nil && left.Kind() == "identifier" {
						w.addSpan(w.text(left), "var", int(n.StartByte()), pythonEnd(&n))
					}
					right := a.ChildByFieldName("right")
					if right == nil {
						break
					}
					a = *right
				}
			}
			continue
		}
		pythonDef(w, &n, "", false)
	}
}

// pythonDef records n when it is a definition (with its decorators), and
// the definitions in its body.
func pythonDef(w *walker, n *ts.Node, prefix string, inClass bool) {
	if !w.enter() {
		return
	}
	defer w.leave()
	outer := n
	if n.Kind() == "decorated_definition" {
		n = n.ChildByFieldName("definition")
		if n == nil {
			return
		}
	}
	var kind string
	switch n.Kind() {
	case "function_definition":
		kind = "func"
		if inClass {
			kind = "method"
		}
	case "class_definition":
		kind = "class"
	default:
		pythonBlocks(w, n, prefix, inClass) // python_blocks.go
		return
	}
	name := qualify(prefix, w.field(n, "name"))
	if kind != "class" && w.pyOverloads != nil && pythonOverload(w, outer) {
		// Set aside: a declaration only when no implementation is
		// (walkPython). Its body is a stub: nothing is declared in it.
		before := len(w.decls)
		w.addSpan(name, kind, int(outer.StartByte()), pythonEnd(outer))
		*w.pyOverloads = append(*w.pyOverloads, w.decls[before:]...)
		w.decls = w.decls[:before]
		return
	}
	w.addSpan(name, kind, int(outer.StartByte()), pythonEnd(outer))
	for _, c := range w.named(n.ChildByFieldName("body")) {
		pythonDef(w, &c, name, kind == "class")
	}
}

// pythonOverload reports whether the decorated definition outer carries
// @overload, @typing.overload or any @MODULE.overload (typing_extensions,
// an alias such as t): a signature for type checkers, not what runs.
func pythonOverload(w *walker, outer *ts.Node) bool {
	if outer.Kind() != "decorated_definition" {
		return false
	}
	for _, c := range w.named(outer) {
		if c.Kind() != "decorator" {
			continue
		}
		d := strings.TrimSpace(strings.TrimPrefix(w.text(&c), "@"))
		if d == "overload" || strings.HasSuffix(d, ".overload") {
			return true
		}
	}
	return false
}

// pythonEnd is where n's code ends: the grammar puts comments that follow
// the last statement of a block inside the block, but they are not part of
// the definition (they are more often about what follows).
func pythonEnd(n *ts.Node) int {
	for n.ChildCount() > 0 {
		var last *ts.Node
		for i := n.ChildCount(); i > 0; i-- {
			if c := n.Child(i - 1); c.Kind() != "comment" {
				last = c
				break
			}
		}
		if last == nil {
			break
		}
		n = last
	}
	return int(n.EndByte())
}

// isPythonDoc: the # comments directly above (not a #! line at the top).
func isPythonDoc(c []byte) bool {
	return bytes.HasPrefix(c, []byte("#")) && !bytes.HasPrefix(c, []byte("#!"))
}
