package symbol

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
)

// goParser finds Go declarations with the standard library's go/parser.
//
//	func F            F          (kind func)
//	func (r *T[K]) M  T.M        (method; receiver T, *T, T[K], *T[K,V])
//	type T …          T          (type; a lone decl spans the whole decl,
//	                              one in type ( … ) its spec)
//	struct field F    T.F        (field; nested struct literals T.F.G)
//	interface method  T.M        (method)
//	const/var X       X          (const, var; lone decl: the whole decl,
//	                              grouped: its spec)
//
// "_" is not a name. A declaration's doc is the comment group go/parser
// attaches to it (the decl's, or in a group the spec's).
type goParser struct{}

func (goParser) Language() string { return "Go" }

func (goParser) Decls(src []byte) (decls []Decl, err error) {
	defer func() {
		// go/parser is not expected to panic, but a name lookup must never
		// take the build down with it.
		if r := recover(); r != nil {
			decls, err = nil, &ParseError{Offset: -1, Msg: fmt.Sprint("go/parser failed: ", r)}
		}
	}()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			return nil, &ParseError{Offset: list[0].Pos.Offset, Msg: list[0].Msg}
		}
		return nil, &ParseError{Offset: -1, Msg: err.Error()}
	}
	tf := fset.File(f.Pos())
	g := &goDecls{tf: tf}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name, kind := d.Name.Name, "func"
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv := receiverName(d.Recv.List[0].Type)
				if recv == "" {
					continue
				}
				name, kind = recv+"."+name, "method"
			}
			g.add(name, kind, d.Pos(), d.End(), d.Doc)
		case *ast.GenDecl:
			lone := !d.Lparen.IsValid()
			for _, s := range d.Specs {
				start, end, doc := s.Pos(), s.End(), specDoc(s)
				if lone {
					start, end, doc = d.Pos(), d.End(), d.Doc
				}
				switch s := s.(type) {
				case *ast.TypeSpec:
					g.add(s.Name.Name, "type", start, end, doc)
					g.members(s.Name.Name, s.Type)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						g.add(n.Name, d.Tok.String(), start, end, doc)
					}
				}
			}
		}
	}
	return g.decls, nil
}

type goDecls struct {
	tf    *token.File
	decls []Decl
}

func (g *goDecls) add(name, kind string, start, end token.Pos, doc *ast.CommentGroup) {
	if name == "_" || name == "" || len(name) >= 2 && name[len(name)-2:] == "._" {
		return
	}
	d := Decl{Name: name, Kind: kind, Start: g.tf.Offset(start), End: g.tf.Offset(end)}
	d.DocStart = d.Start
	if doc != nil {
		d.DocStart = g.tf.Offset(doc.Pos())
	}
	g.decls = append(g.decls, d)
}

// maxMemberDepth is how deep struct and interface literals nested in
// fields are walked, and maxMemberName the longest qualified name whose
// members are walked: a hostile file of nested struct literals must not
// make the names grow with the square of its size (20,000 levels made
// 400 MB of names). Deeper members are not found.
const (
	maxMemberDepth = 32
	maxMemberName  = 512
)

// members adds the fields of a struct type and the methods of an interface
// type named prefix, and those of struct and interface literals nested in
// fields, up to maxMemberDepth levels.
func (g *goDecls) members(prefix string, t ast.Expr) { g.membersAt(prefix, t, 0) }

func (g *goDecls) membersAt(prefix string, t ast.Expr, depth int) {
	if depth >= maxMemberDepth || len(prefix) > maxMemberName {
		return
	}
	for {
		s, ok := t.(*ast.StarExpr)
		if !ok {
			break
		}
		t = s.X
	}
	switch t := t.(type) {
	case *ast.StructType:
		for _, f := range t.Fields.List {
			names := make([]string, 0, len(f.Names))
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
			if len(f.Names) == 0 { // embedded: named by its type
				if n := embeddedName(f.Type); n != "" {
					names = append(names, n)
				}
			}
			for _, n := range names {
				if n == "_" {
					continue
				}
				g.add(prefix+"."+n, "field", f.Pos(), f.End(), f.Doc)
				g.membersAt(prefix+"."+n, f.Type, depth+1)
			}
		}
	case *ast.InterfaceType:
		for _, f := range t.Methods.List {
			for _, n := range f.Names { // embedded interfaces and type sets have none
				g.add(prefix+"."+n.Name, "method", f.Pos(), f.End(), f.Doc)
			}
		}
	}
}

// receiverName is the type name of a method's receiver: T for T, *T, T[K],
// *T[K, V] and parenthesized forms; "" for anything else.
func receiverName(t ast.Expr) string {
	for {
		switch x := t.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		default:
			return ""
		}
	}
}

// embeddedName is the field name of an embedded field: T for T, *T, p.T
// and their generic forms.
func embeddedName(t ast.Expr) string {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	switch x := t.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

func specDoc(s ast.Spec) *ast.CommentGroup {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Doc
	case *ast.ValueSpec:
		return s.Doc
	}
	return nil
}
