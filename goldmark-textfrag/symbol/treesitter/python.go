//go:build cgo

package treesitter

import (
	"bytes"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// walkPython finds def and class statements at any depth (methods C.m,
// nested C.Inner.m, functions in functions outer.inner, and in the blocks
// of if, try, with, for, while and match: pythonBlocks) and the names a
// module-level assignment binds (NAME = …, NAME: T = …, A = B = …).
func walkPython(w *walker, root *ts.Node) {
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
	w.addSpan(name, kind, int(outer.StartByte()), pythonEnd(outer))
	for _, c := range w.named(n.ChildByFieldName("body")) {
		pythonDef(w, &c, name, kind == "class")
	}
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
