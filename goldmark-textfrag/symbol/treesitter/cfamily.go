//go:build cgo

package treesitter

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// walkC finds the declarations of C and C++: function definitions, and
// prototypes of functions the file does not define; struct, union, enum
// and class with a name and a body; typedefs and using aliases; #define
// macros; C++ namespaces (ns.f), members of classes (C.m, constructors C.C)
// and out-of-line definitions (void C::m() → C.m). A template<…> line is
// part of what it declares. Items in #if/#ifdef branches count: a function
// defined in two branches is two candidates.
func walkC(w *walker, root *ts.Node) {
	c := &cWalk{w: w, defined: map[string]bool{}}
	c.items(root, "", false)
	classes := map[string]bool{}
	for _, d := range c.found {
		if d.Kind == "class" || d.Kind == "struct" || d.Kind == "union" {
			classes[d.Name] = true
		}
	}
	for _, d := range c.found {
		if d.proto && c.defined[d.Name] {
			continue
		}
		// An out-of-line definition (void C::m() {}) is a method when
		// the file declares the class.
		if i := strings.LastIndexByte(d.Name, '.'); d.Kind == "func" && i > 0 && classes[d.Name[:i]] {
			d.Kind = "method"
		}
		w.decls = append(w.decls, d.Decl)
	}
}

// cWalk collects declarations first: a prototype is kept only when the
// file has no definition of its name, which may come after it.
type cWalk struct {
	w       *walker
	found   []cDecl
	defined map[string]bool
}

type cDecl struct {
	symbol.Decl
	proto bool
}

func (c *cWalk) add(name, kind string, outer *ts.Node, proto bool) {
	if name == "" || len(name) > maxName {
		return
	}
	start := int(outer.StartByte())
	c.found = append(c.found, cDecl{symbol.Decl{Name: name, Kind: kind, Start: start, End: int(outer.EndByte()), DocStart: c.w.docStart(start)}, proto})
	if !proto {
		c.defined[name] = true
	}
}

// items walks a file, a namespace's or linkage block's declaration list,
// or (inClass) a class body.
func (c *cWalk) items(list *ts.Node, prefix string, inClass bool) {
	for _, n := range c.w.named(list) {
		c.item(&n, &n, prefix, inClass)
	}
}

func (c *cWalk) item(n, outer *ts.Node, prefix string, inClass bool) {
	w := c.w
	if !w.enter() {
		return
	}
	defer w.leave()
	funcKind := "func"
	if inClass {
		funcKind = "method"
	}
	switch n.Kind() {
	case "template_declaration":
		// The templated item is its last named child.
		if k := n.NamedChildCount(); k > 0 {
			c.item(n.NamedChild(k-1), outer, prefix, inClass)
		}
	case "function_definition":
		if name, ok := c.declName(n.ChildByFieldName("declarator")); ok {
			c.add(qualify(prefix, name), funcKind, outer, false)
		}
	case "declaration", "field_declaration":
		protos := 0
		for _, d := range n.ChildrenByFieldName("declarator", w.cursor) {
			if name, ok := c.declName(&d); ok {
				c.add(qualify(prefix, name), funcKind, outer, true)
				protos++
			}
		}
		if protos == 0 {
			c.specifier(n.ChildByFieldName("type"), outer, prefix, "")
		}
	case "type_definition":
		var names []string
		for _, d := range n.ChildrenByFieldName("declarator", w.cursor) {
			if name := c.typedefName(&d); name != "" {
				names = append(names, name)
				c.add(qualify(prefix, name), "typedef", outer, false)
			}
		}
		// typedef struct S {…} S; is one declaration named S.
		same := ""
		if len(names) == 1 {
			same = names[0]
		}
		c.specifier(n.ChildByFieldName("type"), n.ChildByFieldName("type"), prefix, same)
	case "alias_declaration":
		c.add(qualify(prefix, w.field(n, "name")), "type", outer, false)
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		c.specifier(n, outer, prefix, "")
	case "namespace_definition":
		name := qualify(prefix, c.cppName(n.ChildByFieldName("name")))
		if name != prefix {
			c.add(name, "namespace", outer, false)
		}
		if body := n.ChildByFieldName("body"); body != nil {
			c.items(body, name, false)
		}
	case "linkage_specification":
		if body := n.ChildByFieldName("body"); body != nil {
			if body.Kind() == "declaration_list" {
				c.items(body, prefix, false)
			} else {
				c.item(body, outer, prefix, false)
			}
		}
	case "preproc_def", "preproc_function_def":
		c.add(w.field(n, "name"), "macro", outer, false)
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		for _, k := range w.named(n) {
			c.item(&k, &k, prefix, inClass)
		}
	}
}

// specifier records a struct, union, enum or class with a name and a body,
// spanning outer, and walks a class's or struct's members. skip is a
// typedef name the specifier's name stands for already.
func (c *cWalk) specifier(s, outer *ts.Node, prefix, skip string) {
	if s == nil {
		return
	}
	kind := strings.TrimSuffix(s.Kind(), "_specifier")
	switch kind {
	case "struct", "union", "enum", "class":
	default:
		return
	}
	body := s.ChildByFieldName("body")
	name := c.cppName(s.ChildByFieldName("name"))
	if body == nil || name == "" {
		return
	}
	if name != skip {
		c.add(qualify(prefix, name), kind, outer, false)
	}
	if kind != "enum" {
		c.items(body, qualify(prefix, name), true)
	}
}

// declName follows a declarator to the name of the function it declares;
// ok is false when it declares no function (a variable, or a pointer to a
// function: int (*fp)(int)).
func (c *cWalk) declName(d *ts.Node) (name string, ok bool) {
	for d != nil {
		switch d.Kind() {
		case "function_declarator":
			if ok {
				return "", false // a function returning a function pointer is rare; a pointer to one is a variable
			}
			ok = true
			d = d.ChildByFieldName("declarator")
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator",
			"attributed_declarator", "array_declarator", "init_declarator":
			if ok && d.Kind() != "attributed_declarator" && d.Kind() != "parenthesized_declarator" {
				return "", false // (*fp)(…): a pointer to a function
			}
			d = innerDeclarator(d)
		default:
			if !ok {
				return "", false
			}
			return c.cppName(d), true
		}
	}
	return "", false
}

// typedefName is the name a typedef declarator introduces.
func (c *cWalk) typedefName(d *ts.Node) string {
	for d != nil {
		switch d.Kind() {
		case "type_identifier", "identifier", "primitive_type":
			return c.w.text(d)
		case "function_declarator", "pointer_declarator", "reference_declarator",
			"parenthesized_declarator", "attributed_declarator", "array_declarator":
			d = innerDeclarator(d)
		default:
			return ""
		}
	}
	return ""
}

// innerDeclarator is the declarator a declarator wraps: its declarator
// field, or (reference and parenthesized declarators have no field) its
// last named child.
func innerDeclarator(d *ts.Node) *ts.Node {
	if in := d.ChildByFieldName("declarator"); in != nil {
		return in
	}
	if k := d.NamedChildCount(); k > 0 {
		return d.NamedChild(k - 1)
	}
	return nil
}

// cppName is a name as a qualified sym= name writes it: a::b::f → a.b.f,
// V<T>::p → V.p, ~C, operator==. The tree nests one node per :: (a::b::f
// is a qualified a:: around b::f), so it is read with a stack of its own,
// not by recursion, which a name of a million a:: would take past the
// goroutine's stack limit; and a name is read only up to maxName bytes: a
// longer one is returned cut at maxName+1 bytes, still too long to record
// (add and qualify keep it too long), so that a namespace with such a name
// does not lend its members a short one.
func (c *cWalk) cppName(n *ts.Node) string {
	type part struct {
		n *ts.Node
		// last: the name's last component, which must not be empty
		// (qualify(scope, "") is "").
		last bool
	}
	var b strings.Builder
	stack := []part{{n, true}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		word := ""
		if p.n != nil {
			switch p.n.Kind() {
			case "qualified_identifier":
				// The scope first, then the name (a stack: pushed in reverse).
				stack = append(stack, part{p.n.ChildByFieldName("name"), p.last}, part{p.n.ChildByFieldName("scope"), false})
				continue
			case "nested_namespace_specifier":
				kids := c.w.named(p.n)
				for i := len(kids) - 1; i >= 0; i-- {
					stack = append(stack, part{&kids[i], false})
				}
				continue
			case "template_type", "template_function", "template_method":
				stack = append(stack, part{p.n.ChildByFieldName("name"), p.last})
				continue
			case "identifier", "field_identifier", "type_identifier", "namespace_identifier",
				"destructor_name", "operator_name", "primitive_type", "operator_cast":
				word = strings.Join(strings.Fields(c.w.text(p.n)), "")
			}
		}
		if word == "" {
			if p.last {
				return ""
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(word)
		if b.Len() > maxName {
			return b.String()[:maxName+1]
		}
	}
	return b.String()
}
