package pin

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// genFile is a generated Go file: functions made of statements (units of
// one or more lines), many of them alike, as real code is.
type genFile struct{ fns []genFn }

type genFn struct {
	name  string
	units [][]string
}

func (g *genFile) render() string {
	var b strings.Builder
	b.WriteString("package p\n\n")
	for _, f := range g.fns {
		fmt.Fprintf(&b, "func %s(t *T) error {\n", f.name)
		for _, u := range f.units {
			for _, l := range u {
				b.WriteString("\t" + l + "\n")
			}
		}
		b.WriteString("\treturn nil\n}\n\n")
	}
	return b.String()
}

func (g *genFile) clone() *genFile {
	c := &genFile{fns: make([]genFn, len(g.fns))}
	for i, f := range g.fns {
		c.fns[i] = genFn{name: f.name, units: make([][]string, len(f.units))}
		for j, u := range f.units {
			c.fns[i].units[j] = append([]string(nil), u...)
		}
	}
	return c
}

// randomUnit is a statement; a few are blocks that recur everywhere.
func randomUnit(rng *rand.Rand) []string {
	n := rng.Intn(40)
	switch rng.Intn(8) {
	case 0:
		return []string{"if err != nil {", "\treturn err", "}"}
	case 1:
		return []string{"go func() {", "\tdefer wg.Done()", "\tresp, err := client.Get(url)", "\tcheck(t, resp, err)", "}()"}
	case 2:
		return []string{fmt.Sprintf("for i := 0; i < %d; i++ {", n), "\ttotal += i", "}"}
	case 3:
		return []string{"mu.Lock()", "count++", "mu.Unlock()"}
	case 4:
		return []string{fmt.Sprintf("log.Println(\"step %d\")", n)}
	case 5:
		return []string{fmt.Sprintf("x%d := compute(%d, y)", n, rng.Intn(5))}
	case 6:
		return []string{"err := run(ctx)"}
	}
	return []string{fmt.Sprintf("t.Logf(\"value %%d\", %d)", n)}
}

// mutate applies one random edit, recording renames (old name → new).
func (g *genFile) mutate(rng *rand.Rand, renames map[string]string, fresh *int) string {
	pickFn := func() *genFn { return &g.fns[rng.Intn(len(g.fns))] }
	switch op := rng.Intn(9); op {
	case 0: // edit a line
		f := pickFn()
		if len(f.units) == 0 {
			return "noop"
		}
		u := f.units[rng.Intn(len(f.units))]
		i := rng.Intn(len(u))
		u[i] = strings.Replace(u[i], "err", "e2", 1)
		if rng.Intn(2) == 0 {
			u[i] += " // changed"
		}
		return "edit"
	case 1, 2: // insert statements
		f := pickFn()
		at := rng.Intn(len(f.units) + 1)
		f.units = append(f.units[:at], append([][]string{randomUnit(rng)}, f.units[at:]...)...)
		return "insert"
	case 3: // a new function
		*fresh++
		f := genFn{name: fmt.Sprintf("New%d", *fresh)}
		for k := 0; k < 2+rng.Intn(4); k++ {
			f.units = append(f.units, randomUnit(rng))
		}
		at := rng.Intn(len(g.fns) + 1)
		g.fns = append(g.fns[:at], append([]genFn{f}, g.fns[at:]...)...)
		return "new function"
	case 4: // duplicate statements into another function
		a, b := pickFn(), pickFn()
		if len(a.units) == 0 {
			return "noop"
		}
		i := rng.Intn(len(a.units))
		j := min(len(a.units), i+1+rng.Intn(3))
		var cp [][]string
		for _, u := range a.units[i:j] {
			cp = append(cp, append([]string(nil), u...))
		}
		at := rng.Intn(len(b.units) + 1)
		b.units = append(b.units[:at], append(cp, b.units[at:]...)...)
		return "duplicate"
	case 5: // delete a function
		if len(g.fns) < 4 {
			return "noop"
		}
		i := rng.Intn(len(g.fns))
		g.fns = append(g.fns[:i], g.fns[i+1:]...)
		return "delete function"
	case 6: // delete statements
		f := pickFn()
		if len(f.units) == 0 {
			return "noop"
		}
		i := rng.Intn(len(f.units))
		j := min(len(f.units), i+1+rng.Intn(2))
		f.units = append(f.units[:i], f.units[j:]...)
		return "delete"
	case 7: // rename a function
		f := pickFn()
		*fresh++
		nn := fmt.Sprintf("%sR%d", f.name, *fresh)
		renames[f.name] = nn
		f.name = nn
		return "rename"
	default: // move a function
		i := rng.Intn(len(g.fns))
		f := g.fns[i]
		g.fns = append(g.fns[:i], g.fns[i+1:]...)
		at := rng.Intn(len(g.fns) + 1)
		g.fns = append(g.fns[:at], append([]genFn{f}, g.fns[at:]...)...)
		return "move function"
	}
}

// oracleDeclsAll is oracleDecls over every top-level declaration: funcs
// and methods (named Recv.Name) and general declarations (named by their
// first spec), comments included in none.
func oracleDeclsAll(t *testing.T, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	out := make([]string, strings.Count(src, "\n")+1)
	for _, d := range f.Decls {
		name := ""
		switch d := d.(type) {
		case *ast.FuncDecl:
			name = d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name = types(d.Recv.List[0].Type) + "." + name
			}
		case *ast.GenDecl:
			name = d.Tok.String()
			if len(d.Specs) > 0 {
				switch s := d.Specs[0].(type) {
				case *ast.TypeSpec:
					name += " " + s.Name.Name
				case *ast.ValueSpec:
					name += " " + s.Names[0].Name
				case *ast.ImportSpec:
					// A file's imports are one declaration, whatever
					// its first path.
				}
			}
		}
		s, e := fset.Position(d.Pos()).Line-1, fset.Position(d.End()).Line-1
		for l := s; l <= e && l < len(out); l++ {
			out[l] = name
		}
	}
	return out
}

// types writes a receiver type: T for T, *T, T[K].
func types(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return types(x.X)
	case *ast.IndexExpr:
		return types(x.X)
	case *ast.IndexListExpr:
		return types(x.X)
	case *ast.ParenExpr:
		return types(x.X)
	}
	return "?"
}

// oracleDecls returns, for each line (0-based) of Go source src, the name
// of the top-level declaration that holds it ("" between declarations),
// found by go/parser alone (nothing of textfrag).
func oracleDecls(t *testing.T, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatalf("oracle: %v\n%s", err, src)
	}
	out := make([]string, strings.Count(src, "\n")+1)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		s, e := fset.Position(fd.Pos()).Line-1, fset.Position(fd.End()).Line-1
		for l := s; l <= e && l < len(out); l++ {
			out[l] = fd.Name.Name
		}
	}
	return out
}

// TestRelocationOracle relocates many random quotes of a generated Go file
// through a history of edits, insertions, duplicated blocks, deletions,
// renames and moves, and checks with go/parser alone that no quote pin
// moves, refreshes or re-pins at a new place lands in another declaration
// than the one it quoted (renames followed), and that moved text is the
// quoted text.
func TestRelocationOracle(t *testing.T) {
	relocationOracle(t, "src/gen.go")
}

func relocationOracle(t *testing.T, file string) {
	seed := int64(2222)
	if s, err := strconv.ParseInt(os.Getenv("ORACLE_SEED"), 10, 64); err == nil {
		seed = s
	}
	rng := rand.New(rand.NewSource(seed))
	dir, write, git := testRepo(t)
	g := &genFile{}
	for i := 0; i < 30; i++ {
		f := genFn{name: fmt.Sprintf("Fn%d", i)}
		for k := 0; k < 3+rng.Intn(6); k++ {
			f.units = append(f.units, randomUnit(rng))
		}
		g.fns = append(g.fns, f)
	}
	git("init", "-q")
	renames := map[string]string{}
	fresh := 0
	var versions []string
	const commits = 8
	for c := 0; c < commits; c++ {
		if c > 0 {
			for k := 0; k < 6; k++ {
				g.mutate(rng, renames, &fresh)
			}
		}
		src := g.render()
		versions = append(versions, src)
		write(file, src)
		git("add", ".")
		git("commit", "-qm", fmt.Sprint("v", c))
	}
	final := versions[len(versions)-1]
	// Quotes pinned to one of the first versions.
	type quote struct {
		ver, s, e int
	}
	var quotes []quote
	var page strings.Builder
	for len(quotes) < 200 {
		v := rng.Intn(4)
		n := strings.Count(versions[v], "\n")
		size := 2 + rng.Intn(9)
		s := rng.Intn(n - size)
		quotes = append(quotes, quote{v, s, s + size})
		page.WriteString(lineLink(file, s, s+size, versions[v]))
	}
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir), AcceptChanged: true}
	changes := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page.String()))
	if len(changes) != len(quotes) {
		t.Fatalf("%d changes for %d quotes", len(changes), len(quotes))
	}
	finalDecls := oracleDecls(t, final)
	finalLines := strings.SplitAfter(final, "\n")
	rename := func(name string) string {
		for i := 0; i < 100; i++ {
			n, ok := renames[name]
			if !ok {
				break
			}
			name = n
		}
		return name
	}
	posRE := regexp.MustCompile(`#line=(\d+),(\d+);`)
	counts := map[Class]int{}
	wrong := 0
	for i, c := range changes {
		q := quotes[i]
		counts[c.Class]++
		if c.Class != Moved && c.Class != Refreshed && !(c.Class == Changed && c.NewDest != "") {
			if c.Apply {
				t.Errorf("quote %d: %s applied: %s", i, c.Class, c.Message)
			}
			continue
		}
		m := posRE.FindStringSubmatch(c.NewDest)
		if m == nil {
			t.Errorf("quote %d: %s with destination %q", i, c.Class, c.NewDest)
			continue
		}
		ns, _ := strconv.Atoi(m[1])
		ne, _ := strconv.Atoi(m[2])
		oldDecls := oracleDecls(t, versions[q.ver])
		was := map[string]bool{}
		for l := q.s; l < q.e; l++ {
			was[rename(oldDecls[l])] = true
		}
		var into []string
		for l := ns; l < ne; l++ {
			if !was[finalDecls[l]] {
				into = append(into, fmt.Sprintf("line %d in %q", l+1, finalDecls[l]))
			}
		}
		if len(into) > 0 {
			wrong++
			keys := make([]string, 0, len(was))
			for k := range was {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			t.Errorf("quote %d (v%d lines %d–%d, in %q): %s to lines %d–%d: %s\n%s", i, q.ver, q.s+1, q.e, keys, c.Class, ns+1, ne, strings.Join(into, ", "), c.Message)
		}
		if c.Class == Moved || c.Class == Refreshed {
			oldText := strings.Join(strings.SplitAfter(versions[q.ver], "\n")[q.s:q.e], "")
			if newText := strings.Join(finalLines[ns:ne], ""); newText != oldText {
				t.Errorf("quote %d: %s but the text differs:\n%s---\n%s", i, c.Class, oldText, newText)
			}
		}
	}
	renamedN := 0
	for _, c := range changes {
		if strings.Contains(c.Message, "(renamed)") {
			renamedN++
		}
	}
	t.Logf("%d quotes: %v; %d followed through a rename; %d re-pointed into another declaration", len(quotes), counts, renamedN, wrong)
	// Not vacuous: many quotes are followed, not refused.
	if followed := counts[Moved] + counts[Refreshed] + counts[Changed]; 5*followed < 2*len(quotes) {
		t.Errorf("only %d of %d quotes followed: %v", followed, len(quotes), counts)
	}
}
