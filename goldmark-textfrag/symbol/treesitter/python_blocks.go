//go:build cgo

package treesitter

import ts "github.com/tree-sitter/go-tree-sitter"

// pythonCompound are the statements (and their clauses) whose blocks
// pythonBlocks looks into: a def or class in an if, elif, else, try,
// except, else, finally, with, for, while or match case is declared in the
// scope around the statement, as Python runs it. Two branches that define
// one name (try: def cache … except ImportError: def cache …) make it
// ambiguous: which one runs is decided when the program runs.
var pythonCompound = map[string]bool{
	"if_statement": true, "elif_clause": true, "else_clause": true,
	"try_statement": true, "except_clause": true, "except_group_clause": true, "finally_clause": true,
	"with_statement": true, "for_statement": true, "while_statement": true,
	"match_statement": true, "case_clause": true,
}

// pythonBlocks records the definitions in the blocks of the compound
// statement n, with the prefix and class-ness of the scope n is in.
func pythonBlocks(w *walker, n *ts.Node, prefix string, inClass bool) {
	if !pythonCompound[n.Kind()] || !w.enter() {
		return
	}
	defer w.leave()
	for _, c := range w.named(n) {
		switch {
		case c.Kind() == "block":
			for _, s := range w.named(&c) {
				pythonDef(w, &s, prefix, inClass)
			}
		case pythonCompound[c.Kind()]:
			pythonBlocks(w, &c, prefix, inClass)
		}
	}
}
