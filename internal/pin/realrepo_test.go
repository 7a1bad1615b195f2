package pin

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/symbols"
)

// TestRealRepository is the experiment of issue 22 on a real history, run
// by hand (it needs a clone): TEXTFRAG_REAL_REPO names a local clone,
// TEXTFRAG_REAL_OLD and TEXTFRAG_REAL_NEW two of its commits, and
// TEXTFRAG_REAL_LANG the files quoted: "go" (the default, judged by
// go/parser's top-level declaration) or "python" (judged by Python's own
// ast module, run as python3: the innermost def or class, qualified).
// Random 2–10 line quotes (TEXTFRAG_REAL_PER_FILE, default 40) of every
// such file that changed between OLD and NEW are relocated to NEW with
// every symbol parser the command has; every quote moved, refreshed or
// re-pinned at a new place must land only in declarations its old lines
// lay in. For Python, every def and class of those files is also quoted
// by sym= at OLD, and a quote re-pinned must be the declaration of that
// name at NEW by ast. Counts are logged. Without the variables (or, for
// Python, without python3) it is skipped: it is not part of the suite's
// claims, and CI has no clone.
func TestRealRepository(t *testing.T) {
	repo, oldC, newC := os.Getenv("TEXTFRAG_REAL_REPO"), os.Getenv("TEXTFRAG_REAL_OLD"), os.Getenv("TEXTFRAG_REAL_NEW")
	if repo == "" || oldC == "" || newC == "" {
		t.Skip("set TEXTFRAG_REAL_REPO (a git clone or bare repository), TEXTFRAG_REAL_OLD and TEXTFRAG_REAL_NEW (two of its commits), and TEXTFRAG_REAL_LANG=go|python, to run")
	}
	lang := os.Getenv("TEXTFRAG_REAL_LANG")
	var ext string
	var judge func(t *testing.T, src string) []string
	switch lang {
	case "", "go":
		ext, judge = ".go", oracleTopLevel
	case "python":
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("TEXTFRAG_REAL_LANG=python needs python3 on PATH (its ast module is the judge)")
		}
		ext, judge = ".py", newPythonOracle(t).lines
	case "text":
		// Files no symbol parser reads; the judge is git's own diff
		// (histogram), which shares no code with pin's.
		ext = os.Getenv("TEXTFRAG_REAL_EXT")
		if ext == "" {
			ext = ".md,.rst,.txt,.yml,.yaml,.toml,.cfg,.ini"
		}
	default:
		t.Fatalf("TEXTFRAG_REAL_LANG=%q: want go, python or text", lang)
	}
	hasExt := func(f string) bool {
		for _, x := range strings.Split(ext, ",") {
			if x != "" && strings.HasSuffix(f, x) {
				return true
			}
		}
		return false
	}
	per, _ := strconv.Atoi(os.Getenv("TEXTFRAG_REAL_PER_FILE"))
	if per == 0 {
		per = 40
	}
	dir := t.TempDir()
	run := func(dir string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	run(".", "clone", "-q", repo, dir)
	run(dir, "checkout", "-q", newC)
	files := strings.Fields(run(dir, "ls-tree", "-r", "--name-only", oldC))
	rng := rand.New(rand.NewSource(22))
	type quote struct {
		file, old string
		s, e      int
		sym       string // the name a sym= quote names
	}
	var quotes []quote
	var page strings.Builder
	set := symbols.Set()
	for _, f := range files {
		if !hasExt(f) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			continue // deleted since: gone, not relocated
		}
		if run(dir, "diff", "--name-only", oldC, newC, "--", f) == "" {
			continue // unchanged: every quote is ok
		}
		old := run(dir, "show", oldC+":"+f)
		n := strings.Count(old, "\n")
		if n < 12 {
			continue
		}
		for k := 0; k < per; k++ {
			size := 2 + rng.Intn(9)
			s := rng.Intn(n - size)
			quotes = append(quotes, quote{file: f, old: old, s: s, e: s + size})
			page.WriteString(lineLink(f, s, s+size, old))
		}
		if ext != ".py" {
			continue
		}
		// Every name textfrag finds once at OLD, quoted by sym= as
		// `textfrag link --sym` would have written it then.
		spans, err := set.Symbols(f, "", []byte(old), false)
		if err != nil {
			t.Logf("%s at %s: no names (%v)", f, oldC, err)
			continue
		}
		seen := map[string]int{}
		for _, sp := range spans {
			seen[sp.Name]++
		}
		for _, sp := range spans {
			if seen[sp.Name] != 1 || sp.Kind == "region" {
				continue // ambiguous at OLD: not quotable by name
			}
			quotes = append(quotes, quote{file: f, old: old, s: sp.Start, e: sp.End, sym: sp.Name})
			page.WriteString(symLink(f, sp.Start, sp.End, old, sp.Name))
		}
	}
	opts := target.Options{Root: dir, Symbols: set}
	if os.Getenv("TEXTFRAG_REAL_NO_SYMBOLS") != "" {
		opts.Symbols = nil // Go only: what a build without cgo does
	}
	r, err := target.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir), AcceptChanged: true}
	changes := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page.String()))
	if len(changes) != len(quotes) {
		t.Fatalf("%d changes for %d quotes", len(changes), len(quotes))
	}
	posRE := regexp.MustCompile(`#line=(\d+),(\d+);`)
	counts := map[string]map[Class]int{"lines": {}, "sym": {}}
	wrong := map[string]int{}
	unconfirmed := 0 // text: moved where git's diff shows the lines deleted and others added
	gitMaps := map[string][]int{}
	grew := map[string]int{} // changed quotes with lines of another declaration inserted inside
	show := os.Getenv("TEXTFRAG_REAL_SHOW")
	nowLines := map[string][]string{}
	for i, c := range changes {
		q := quotes[i]
		kind := "lines"
		if q.sym != "" {
			kind = "sym"
		}
		counts[kind][c.Class]++
		if show == string(c.Class) || show == kind+":"+string(c.Class) {
			t.Logf("%s %d–%d %s: %s: %s\n%s", q.file, q.s+1, q.e, q.sym, c.Class, c.Message, strings.Join(c.Detail, "\n"))
		}
		if q.sym != "" && c.Class == Gone {
			// Gone must mean ast finds no such declaration at NEW.
			nd := judge(t, readNow(t, dir, q.file))
			for l, name := range nd {
				if name == q.sym {
					wrong[kind]++
					t.Errorf("%s %s: gone, but ast has it at line %d: %s", q.file, q.sym, l+1, c.Message)
					break
				}
			}
		}
		if c.NewDest == "" || !(c.Class == Moved || c.Class == Refreshed || c.Class == Changed || c.Class == OK) {
			continue
		}
		m := posRE.FindStringSubmatch(c.NewDest)
		if m == nil {
			t.Errorf("%s %d–%d: %s to %q: no #line= range", q.file, q.s+1, q.e, c.Class, c.NewDest)
			continue
		}
		ns, _ := strconv.Atoi(m[1])
		ne, _ := strconv.Atoi(m[2])
		if judge == nil {
			gm, ok := gitMaps[q.file]
			if !ok {
				gm = gitLineMap(t, run(dir, "diff", "-U0", "--histogram", "--no-color", "--no-ext-diff", oldC, newC, "--", q.file), strings.Count(q.old, "\n")+1)
				gitMaps[q.file] = gm
				// The map is held to the text: a line git keeps is the
				// same line on both sides.
				ol, nl := strings.Split(q.old, "\n"), strings.Split(readNow(t, dir, q.file), "\n")
				for i, to := range gm {
					if to >= 0 && (to >= len(nl) || strings.TrimSuffix(nl[to], "\r") != strings.TrimSuffix(ol[i], "\r")) {
						t.Fatalf("%s: git's diff read wrong: old line %d → %d", q.file, i+1, to+1)
					}
				}
				t.Logf("%s: %d quotes", q.file, per)
			}
			var bad []string
			gone := 0
			for l := q.s; l < q.e; l++ {
				to := gm[l]
				switch {
				case to < 0:
					gone++
				case c.Class != Changed && to != ns+(l-q.s):
					bad = append(bad, fmt.Sprintf("old %d → git %d", l+1, to+1))
				case c.Class == Changed && (to < ns || to >= ne):
					bad = append(bad, fmt.Sprintf("old %d → git %d, outside", l+1, to+1))
				}
			}
			if len(bad) > 0 {
				wrong[kind]++
				t.Errorf("%s %d–%d → %d–%d %s: git's diff disagrees: %s\n%s\n%s", q.file, q.s+1, q.e, ns+1, ne, c.Class, strings.Join(bad, ", "), c.Message, strings.Join(c.Detail, "\n"))
			} else if gone == q.e-q.s && c.Class == Moved {
				unconfirmed++
				if show == "unconfirmed" {
					t.Logf("%s %d–%d → %d–%d moved, git: deleted and added\n%s", q.file, q.s+1, q.e, ns+1, ne, c.Message)
				}
			}
			continue
		}
		nd, ok := nowLines[q.file]
		if !ok {
			nd = judge(t, readNow(t, dir, q.file))
			nowLines[q.file] = nd
		}
		od := judge(t, q.old)
		if od == nil || nd == nil {
			continue // the judge cannot read one of the versions: logged
		}
		if ne > len(nd) {
			t.Errorf("%s %d–%d → %d–%d %s: past the end (%d lines)", q.file, q.s+1, q.e, ns+1, ne, c.Class, len(nd))
			wrong[kind]++
			continue
		}
		var into []string
		switch {
		case q.sym != "":
			// The lines of the name at NEW by ast: the declaration of
			// that name whole (a def or class, or the module-level
			// statement that assigns it, as the name's old first line
			// was labelled), nothing of another.
			label := od[q.s]
			in := func(l int) bool { return nd[l] == label || strings.HasPrefix(nd[l], label+".") }
			for l := ns; l < ne; l++ {
				if !in(l) {
					into = append(into, fmt.Sprintf("%d:%q", l+1, nd[l]))
				}
			}
			if len(into) == 0 && label == q.sym && (nd[ns] != q.sym || (ns > 0 && nd[ns-1] == q.sym) || (ne < len(nd) && nd[ne] == q.sym)) {
				into = append(into, fmt.Sprintf("not all of %s (lines %d–%d)", q.sym, ns+1, ne))
			}
		case c.Class == Changed && lang == "python":
			// Lines inserted inside a changed quote are shown in its
			// diff; its first and last lines, unless blank, must be in
			// declarations the old quote's lines were in. (Python's
			// module-level statements are declarations to this judge,
			// so new imports inside a quote would count; Go's judge
			// stays strict, as the chi figures were taken.)
			was := map[string]bool{"": true}
			for l := q.s; l < q.e; l++ {
				was[od[l]] = true
			}
			var ends []int
			for l := ns; l < ne; l++ {
				if nd[l] != "" {
					ends = append(ends, l)
					break
				}
			}
			for l := ne - 1; l >= ns; l-- {
				if nd[l] != "" {
					ends = append(ends, l)
					break
				}
			}
			nowText := strings.Split(readNow(t, dir, q.file), "\n")
			for _, l := range ends {
				if l != ns && l != ne-1 {
					continue // blank lines end the quote: ast cannot place them
				}
				if !was[nd[l]] && strings.TrimSpace(nowText[l]) != "" {
					into = append(into, fmt.Sprintf("%d:%q", l+1, nd[l]))
				}
			}
			for l := ns; l < ne && len(into) == 0; l++ {
				if !was[nd[l]] {
					grew[kind]++
					if show == "grew" {
						t.Logf("%s %d–%d → %d–%d grew over %d:%q\n%s", q.file, q.s+1, q.e, ns+1, ne, l+1, nd[l], strings.Join(c.Detail, "\n"))
					}
					break
				}
			}
		default:
			was := map[string]bool{}
			for l := q.s; l < q.e; l++ {
				was[od[l]] = true
			}
			for l := ns; l < ne; l++ {
				if !was[nd[l]] {
					into = append(into, fmt.Sprintf("%d:%q", l+1, nd[l]))
				}
			}
		}
		if len(into) > 0 {
			wrong[kind]++
			t.Errorf("%s %d–%d %s → %d–%d %s: into %s\n%s\n%s", q.file, q.s+1, q.e, q.sym, ns+1, ne, c.Class, strings.Join(into, " "), c.Message, strings.Join(c.Detail, "\n"))
		}
	}
	for _, kind := range []string{"lines", "sym"} {
		total := 0
		for _, n := range counts[kind] {
			total += n
		}
		if total == 0 {
			continue
		}
		if judge == nil {
			t.Logf("%d %s quotes (%s) of %s relocated %s → %s: %s; %d where git's diff puts the lines elsewhere; %d moved where git's diff shows them deleted and added (a move git does not track)", total, kind, ext, repo, oldC, newC, countLine(counts[kind]), wrong[kind], unconfirmed)
			continue
		}
		t.Logf("%d %s quotes of %s relocated %s → %s: %s; %d re-pointed into another declaration; %d changed with lines of another declaration inserted inside (shown in their diff)", total, kind, repo, oldC, newC, countLine(counts[kind]), wrong[kind], grew[kind])
	}
}

// gitLineMap reads git diff -U0 output for one file of n old lines: for
// each old line (0-based) its new line, or -1 when the diff deletes or
// rewrites it.
func gitLineMap(t *testing.T, diff string, n int) []int {
	t.Helper()
	hunk := regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
	out := make([]int, n)
	oldAt, shift := 0, 0
	mark := func(upTo int) {
		for ; oldAt < upTo && oldAt < n; oldAt++ {
			out[oldAt] = oldAt + shift
		}
	}
	num := func(s string, def int) int {
		if s == "" {
			return def
		}
		v, _ := strconv.Atoi(s)
		return v
	}
	for _, m := range hunk.FindAllStringSubmatch(diff, -1) {
		os, oc, ns, nc := num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)
		start := os - 1 // first old line of the hunk, 0-based
		if oc == 0 {
			start = os // an insertion after old line os
		}
		mark(start)
		for i := 0; i < oc && oldAt < n; i++ {
			out[oldAt] = -1
			oldAt++
		}
		shift += nc - oc
		_ = ns
	}
	mark(n)
	return out
}

func readNow(t *testing.T, dir, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// countLine writes counts by class in a fixed order.
func countLine(m map[Class]int) string {
	var parts []string
	for _, c := range []Class{OK, Refreshed, Moved, Changed, Gone, Review, Error, Pinned} {
		if m[c] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, m[c]))
		}
	}
	return strings.Join(parts, ", ")
}

// symLink is a link quoting lines [s, e) of content by the name sym.
func symLink(file string, s, e int, content, sym string) string {
	return fmt.Sprintf("[q](../%s#line=%d,%d;md5=%s \"sym=%s\")\n", file, s, e, md5hex(content), sym)
}

// oracleTopLevel names, for each line of src, the top-level declaration
// (func, method with its receiver, or the first name of a general
// declaration) that holds it, by go/parser; "" between declarations.
func oracleTopLevel(t *testing.T, src string) []string {
	return oracleDeclsAll(t, src)
}

// pythonOracle asks Python's own ast module (python3, sharing no code
// with textfrag) which declaration holds each line of a Python source.
type pythonOracle struct {
	script string
	memo   map[string][]string
}

// pythonDecls prints, as JSON, for each line (0-based) of the file named
// by argv[1], the qualified name of the innermost def or class holding it
// (decorators included; "Session.request", "f.inner"; typing's @overload
// signatures "NAME@overload", apart from the implementation); a line of another
// module-level statement is named by the statement ("import", "assign X",
// "docstring", "If", …), and a line outside every statement is "". A
// source ast cannot parse prints null.
const pythonDecls = `import ast, json, sys
src = open(sys.argv[1], encoding="utf-8").read()
out = [""] * (src.count("\n") + 1)
try:
    tree = ast.parse(src)
except SyntaxError:
    print("null"); sys.exit(0)
def mark(node, name):
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    for l in range(start - 1, node.end_lineno):
        out[l] = name
def visit(node, prefix, top):
    for ch in ast.iter_child_nodes(node):
        if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            overload = any((isinstance(d, ast.Name) and d.id == "overload") or (isinstance(d, ast.Attribute) and d.attr == "overload") for d in ch.decorator_list)
            if overload and not isinstance(ch, ast.ClassDef):
                mark(ch, prefix + ch.name + "@overload")
                continue
            mark(ch, prefix + ch.name)
            visit(ch, prefix + ch.name + ".", False)
            continue
        if top and isinstance(ch, ast.stmt):
            if isinstance(ch, (ast.Import, ast.ImportFrom)):
                label = "import"
            elif isinstance(ch, ast.Assign):
                label = "assign " + ast.unparse(ch.targets[0])
            elif isinstance(ch, ast.AnnAssign):
                label = "assign " + ast.unparse(ch.target)
            elif isinstance(ch, ast.Expr) and isinstance(ch.value, ast.Constant) and isinstance(ch.value.value, str):
                label = "docstring"
            else:
                label = type(ch).__name__
            mark(ch, label)
        visit(ch, prefix, False)
visit(tree, "", True)
print(json.dumps(out))
`

func newPythonOracle(t *testing.T) *pythonOracle {
	script := filepath.Join(t.TempDir(), "decls.py")
	if err := os.WriteFile(script, []byte(pythonDecls), 0o600); err != nil {
		t.Fatal(err)
	}
	return &pythonOracle{script: script, memo: map[string][]string{}}
}

func (o *pythonOracle) lines(t *testing.T, src string) []string {
	t.Helper()
	if out, ok := o.memo[src]; ok {
		return out
	}
	f := filepath.Join(t.TempDir(), "src.py")
	if err := os.WriteFile(f, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command("python3", o.script, f).Output()
	if err != nil {
		t.Fatalf("python3 oracle: %v", err)
	}
	var out []string
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("python3 oracle output: %v", err)
	}
	if out == nil {
		t.Logf("python3's ast cannot parse a version (%d bytes): its quotes are not judged", len(src))
	}
	o.memo[src] = out
	return out
}

// TestPythonOracle holds the judge to what Python says of a small file
// written here: a decorated method, a nested function, a module-level
// assignment and the blank lines between.
func TestPythonOracle(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the judge of TestRealRepository's Python run cannot be checked")
	}
	src := "import os\n\nX = 1\n\nclass A:\n    y = 2\n\n    @property\n    def f(self):\n        def g():\n            pass\n        return g\n    @t.overload\n    def h(self) -> int: ...\n    def h(self): pass\n"
	got := newPythonOracle(t).lines(t, src)
	want := []string{"import", "", "assign X", "", "A", "A", "A", "A.f", "A.f", "A.f.g", "A.f.g", "A.f", "A.h@overload", "A.h@overload", "A.h", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("oracle = %q, want %q", got, want)
	}
}
