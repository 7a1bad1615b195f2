package project

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// This file says where the root is in errors about files outside it, for
// every command and for the language server (its Advise and Explain).

// widenRoot says how to widen the root.
const widenRoot = "to quote files outside it, give a wider --root DIR, or set root = \"DIR\" in " + ConfigName

// RootAdvice says how to widen the root, for errors about files outside
// it: where the root is, how it was found, and how to widen it.
func (p *Project) RootAdvice() string {
	return fmt.Sprintf("the project root is %s (%s); %s", p.Root, p.Origin, widenRoot)
}

// ExplainTarget is target.Explain for a link that failed to resolve under
// root, with how to widen the root when the file is outside it (but not
// when it is a secret: that stays out whatever the root).
func ExplainTarget(err error, root string) string {
	msg := target.Explain(err, "")
	if target.Kind(err) == "outside" && !errors.Is(err, target.ErrSecret) {
		msg += fmt.Sprintf("; the project root is %s; %s", root, widenRoot)
	}
	return msg
}

// AdviseRoot adds RootAdvice to the problems about files outside the
// root, and names the root in those about missing files that a link
// starting with / names. Each problem gets it once, even when it is
// shared by two calls. A nil p does nothing.
func (p *Project) AdviseRoot(problems []*textfrag.Problem) {
	if p == nil {
		return
	}
	advice := p.RootAdvice()
	where := fmt.Sprintf("the project root is %s (%s)", p.Root, p.Origin)
	cwd, _ := os.Getwd()
	for _, q := range problems {
		switch {
		case q.Kind == "outside" && !errors.Is(q.Err, target.ErrSecret) && !strings.HasSuffix(q.Message, advice):
			q.Message += "; " + advice
		case q.Kind == "missing" && strings.HasPrefix(q.Link, "/") && !strings.Contains(q.Message, where):
			dirs := []string{cwd}
			if doc, err := filepath.Abs(q.Document); err == nil && q.Document != "" {
				dirs = []string{filepath.Dir(doc), cwd}
			}
			file, _ := RootedPath(q.Link)
			// Absolute (the language server has no working directory of
			// the user's), quoted: it is pasted into a command.
			q.Message += "; " + p.SlashAdvice(file, func(dir string) string { return termsafe.ShellWords(dir) }, dirs...)
		}
	}
}

// SlashAdvice says, for a link starting with / whose file (the project
// path file) is missing, where such links resolve and which other root
// would find the file: the nearest directory strictly inside the root, at
// or above one of dirs (absolute: the page's directory, the working
// directory), that holds file. A project in a subdirectory of a git work
// tree without a textfrag.toml takes the top of the work tree as its root,
// so its links starting with / miss; the advice names the --root they
// mean. name words a directory for the command line (nil: absolute).
func (p *Project) SlashAdvice(file string, name func(dir string) string, dirs ...string) string {
	where := fmt.Sprintf("the project root is %s (%s), where links starting with / resolve", p.Root, p.Origin)
	dir := p.holding(file, dirs)
	if dir == "" {
		return where + "; if they mean another directory, give it with --root DIR, or set root = \"DIR\" in " + ConfigName
	}
	if name != nil {
		dir = name(dir)
	}
	return fmt.Sprintf("%s; %s holds %s: if links starting with / mean that directory, give `--root %s`, or set root = \"DIR\" in %s", where, dir, file, dir, ConfigName)
}

// Holding returns the directory SlashAdvice names as the root that finds
// the project path file, absolute; "" when none does.
func (p *Project) Holding(file string, dirs ...string) string { return p.holding(file, dirs) }

// holding returns the nearest directory strictly inside the root, at or
// above one of dirs, that holds the regular file at project path file; ""
// when none does.
func (p *Project) holding(file string, dirs []string) string {
	if !filepath.IsLocal(filepath.FromSlash(file)) {
		return ""
	}
	// Looked up through the root: a symbolic link inside it that leads out
	// must not make a file outside answer (not even whether it exists).
	root, err := os.OpenRoot(p.Root)
	if err != nil {
		return ""
	}
	defer root.Close()
	for _, d := range dirs {
		for ; ; d = filepath.Dir(d) {
			rel, err := filepath.Rel(p.Root, d)
			if err != nil || rel == "." || !filepath.IsLocal(rel) {
				break // at the root, or outside it
			}
			if info, err := root.Stat(filepath.Join(rel, filepath.FromSlash(file))); err == nil && info.Mode().IsRegular() {
				return d
			}
		}
	}
	return ""
}

// RootedPath returns the project path a link starting with / names (its
// path, percent-decoded, cleaned, without the fragment, query or leading
// slashes); ok is false for any other link.
func RootedPath(link string) (p string, ok bool) {
	l := target.SplitLink(link)
	if l.Scheme != "" || !strings.HasPrefix(l.RawPath, "/") {
		return "", false
	}
	p = l.RawPath
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return strings.TrimLeft(path.Clean(p), "/"), true
}
