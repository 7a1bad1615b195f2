package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// TestRootAdvice: errors about files outside the root say where the root
// is, how it was found and how to widen it, once per problem; a missing
// file named from the root (/…) names the root; a secret outside the root
// is not advised to be let in; other problems are left alone.
func TestRootAdvice(t *testing.T) {
	p := &Project{Root: "/w/repo", Origin: FromGit}
	const advice = `the project root is /w/repo (the top of the git work tree); to quote files outside it, give a wider --root DIR, or set root = "DIR" in textfrag.toml`
	if got := p.RootAdvice(); got != advice {
		t.Errorf("RootAdvice:\n%s\nwant\n%s", got, advice)
	}

	outside := &textfrag.Problem{Kind: "outside", Link: "../../x.go#line=1,2", Message: "../../x.go is outside the project root"}
	secret := &textfrag.Problem{Kind: "outside", Link: "../.ssh/id#line=1,2", Message: "a secret", Err: fmt.Errorf("no: %w", target.ErrSecret)}
	rooted := &textfrag.Problem{Kind: "missing", Link: "/src/gone.go#line=1,2", Message: "no such file"}
	relative := &textfrag.Problem{Kind: "missing", Link: "src/gone.go#line=1,2", Message: "no such file"}
	problems := []*textfrag.Problem{outside, secret, rooted, relative}
	p.AdviseRoot(problems)
	p.AdviseRoot(problems) // shared by two calls: advised once
	(*Project)(nil).AdviseRoot(problems)
	for _, c := range []struct {
		q    *textfrag.Problem
		want string
	}{
		{outside, "../../x.go is outside the project root; " + advice},
		{secret, "a secret"},
		{rooted, `no such file; the project root is /w/repo (the top of the git work tree), where links starting with / resolve; if they mean another directory, give it with --root DIR, or set root = "DIR" in textfrag.toml`},
		{relative, "no such file"},
	} {
		if c.q.Message != c.want {
			t.Errorf("%s %s:\n%s\nwant\n%s", c.q.Kind, c.q.Link, c.q.Message, c.want)
		}
	}
}

// TestExplainTarget: a link outside the root is told the root and how to
// widen it; a secret, and any other error, only what target.Explain says.
func TestExplainTarget(t *testing.T) {
	r, err := target.New(target.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	_, outside := r.Resolve("docs/a.md", "../../x.go#line=1,2")
	if target.Kind(outside) != "outside" {
		t.Fatalf("not outside: %v", outside)
	}
	got := ExplainTarget(outside, "/w/repo")
	if want := target.Explain(outside, "") + `; the project root is /w/repo; to quote files outside it, give a wider --root DIR, or set root = "DIR" in textfrag.toml`; got != want {
		t.Errorf("outside:\n%s\nwant\n%s", got, want)
	}
	_, missing := r.Resolve("docs/a.md", "gone.go#line=1,2")
	if missing == nil || ExplainTarget(missing, "/w/repo") != target.Explain(missing, "") {
		t.Errorf("missing: %v: %q", missing, ExplainTarget(missing, "/w/repo"))
	}
	if errors.Is(outside, target.ErrSecret) || strings.Contains(ExplainTarget(missing, "/w/repo"), "/w/repo") {
		t.Error("the cases are not what they seem")
	}
}

// TestSlashAdvice: a link starting with / whose file is missing under a
// root found at the top of a git work tree is told the directory, between
// the page (or the working directory) and the root, that holds the file,
// as the --root to give; the root itself, a directory outside it, a
// directory only beside the page's path, and a path climbing out are
// never named.
func TestSlashAdvice(t *testing.T) {
	top := t.TempDir()
	for _, f := range []string{"site/src/a.txt", "site/docs/deep/x", "beside/src/a.txt", "src/b.txt"} {
		if err := os.MkdirAll(filepath.Join(top, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(top, "site", "src", "dir.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A directory inside the root that is a link out of it: what lies
	// there is not the project's, not even whether it exists.
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "src", "secret.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(top, "out")); err != nil {
		t.Fatal(err)
	}
	p := &Project{Root: top, Origin: FromGit}
	site := filepath.Join(top, "site")
	deep := filepath.Join(top, "site", "docs", "deep")
	where := fmt.Sprintf("the project root is %s (the top of the git work tree), where links starting with / resolve; ", top)
	none := where + `if they mean another directory, give it with --root DIR, or set root = "DIR" in textfrag.toml`
	for _, c := range []struct {
		file string
		name func(string) string
		dirs []string
		want string
	}{
		{"src/a.txt", nil, []string{deep}, where + site + ` holds src/a.txt: if links starting with / mean that directory, give ` + "`--root " + site + "`" + `, or set root = "DIR" in textfrag.toml`},
		{"src/a.txt", func(string) string { return "site" }, []string{top, deep}, where + `site holds src/a.txt: if links starting with / mean that directory, give ` + "`--root site`" + `, or set root = "DIR" in textfrag.toml`},
		{"src/b.txt", nil, []string{deep}, none},                               // only the root holds it: no other root to name
		{"src/a.txt", nil, []string{filepath.Dir(top)}, none},                  // outside the root
		{"src/dir.txt", nil, []string{deep}, none},                             // a directory is no file
		{"../" + filepath.Base(top) + "/src/b.txt", nil, []string{deep}, none}, // climbs out
		{"src/nowhere.txt", nil, []string{deep}, none},
		{"src/secret.txt", nil, []string{filepath.Join(top, "out")}, none}, // through a link out of the root
	} {
		if got := p.SlashAdvice(c.file, c.name, c.dirs...); got != c.want {
			t.Errorf("%s from %v:\n%s\nwant\n%s", c.file, c.dirs, got, c.want)
		}
	}
}

// TestAdviseRootQuotesDir: the --root that check advises for a link
// starting with / names a directory whose path holds a space (a site in
// "My Documents"): quoted, so that it is one argument when pasted. It was
// `--root /…/my site`, two arguments.
func TestAdviseRootQuotesDir(t *testing.T) {
	top := t.TempDir()
	site := filepath.Join(top, "my site")
	if err := os.MkdirAll(filepath.Join(site, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "src", "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Project{Root: top, Origin: FromGit}
	q := &textfrag.Problem{Kind: "missing", Link: "/src/a.txt#line=0,1", Document: filepath.Join(site, "docs", "p.md"), Message: "no such file"}
	p.AdviseRoot([]*textfrag.Problem{q})
	if want := "give `--root '" + site + "'`"; !strings.Contains(q.Message, want) {
		t.Errorf("%s\nlacks %s", q.Message, want)
	}
}
