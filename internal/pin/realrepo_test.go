package pin

import (
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
)

// TestRealRepository is the experiment of issue 22 on a real history, run
// by hand (it needs a clone): TEXTFRAG_REAL_REPO names a local clone,
// TEXTFRAG_REAL_OLD and TEXTFRAG_REAL_NEW two of its commits. Random 2–10
// line quotes of every Go file at OLD are relocated to NEW; every quote
// moved, refreshed or re-pinned at a new place is checked with go/parser
// (the top-level declarations its new lines lie in must be ones its old
// lines lay in) and the counts are logged. Without the variables it does
// nothing (it is not part of the suite's claims).
func TestRealRepository(t *testing.T) {
	repo, oldC, newC := os.Getenv("TEXTFRAG_REAL_REPO"), os.Getenv("TEXTFRAG_REAL_OLD"), os.Getenv("TEXTFRAG_REAL_NEW")
	if repo == "" || oldC == "" || newC == "" {
		t.Skip("set TEXTFRAG_REAL_REPO, TEXTFRAG_REAL_OLD and TEXTFRAG_REAL_NEW to run")
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
	}
	var quotes []quote
	var page strings.Builder
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") {
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
			quotes = append(quotes, quote{f, old, s, s + size})
			page.WriteString(lineLink(f, s, s+size, old))
		}
	}
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir), AcceptChanged: true}
	changes := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page.String()))
	posRE := regexp.MustCompile(`#line=(\d+),(\d+);`)
	counts := map[Class]int{}
	wrong := 0
	for i, c := range changes {
		q := quotes[i]
		counts[c.Class]++
		if c.Class != Moved && c.Class != Refreshed && !(c.Class == Changed && c.NewDest != "") {
			if os.Getenv("TEXTFRAG_REAL_SHOW") == string(c.Class) {
				t.Logf("%s %d–%d: %s: %s\n%s", q.file, q.s+1, q.e, c.Class, c.Message, strings.Join(c.Detail, "\n"))
			}
			continue
		}
		m := posRE.FindStringSubmatch(c.NewDest)
		ns, _ := strconv.Atoi(m[1])
		ne, _ := strconv.Atoi(m[2])
		now, err := os.ReadFile(filepath.Join(dir, q.file))
		if err != nil {
			t.Fatal(err)
		}
		od, nd := oracleTopLevel(t, q.old), oracleTopLevel(t, string(now))
		was := map[string]bool{}
		for l := q.s; l < q.e; l++ {
			was[od[l]] = true
		}
		var into []string
		for l := ns; l < ne; l++ {
			if !was[nd[l]] {
				into = append(into, fmt.Sprintf("%d:%q", l+1, nd[l]))
			}
		}
		if len(into) > 0 {
			wrong++
			t.Errorf("%s %d–%d → %d–%d %s: into %s\n%s", q.file, q.s+1, q.e, ns+1, ne, c.Class, strings.Join(into, " "), c.Message)
		}
		if os.Getenv("TEXTFRAG_REAL_SHOW") == string(c.Class) {
			t.Logf("%s %d–%d: %s: %s\n%s", q.file, q.s+1, q.e, c.Class, c.Message, strings.Join(c.Detail, "\n"))
		}
	}
	t.Logf("%d quotes of %s relocated %s → %s: %v; %d relocations into another top-level declaration", len(quotes), repo, oldC, newC, counts, wrong)
}

// oracleTopLevel names, for each line of src, the top-level declaration
// (func, method with its receiver, or the first name of a general
// declaration) that holds it, by go/parser; "" between declarations.
func oracleTopLevel(t *testing.T, src string) []string {
	return oracleDeclsAll(t, src)
}
