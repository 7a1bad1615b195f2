package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/textfrag/textfrag/internal/project"
)

// rootHelp is what every command's --root says about its default.
const rootHelp = "default: the directory of the nearest " + project.ConfigName + " at or above the current directory, else the top of the git work tree, else the current directory"

// findProject finds the project of the working directory (internal/project)
// and applies its textfrag.toml to the flags of fs that the command line
// left unset: a flag given overrides the file, the file overrides the
// flag's default. --root, when given, overrides the root found. It reports
// false after printing the problem.
func (e *env) findProject(fs *flag.FlagSet) (*project.Project, bool) {
	return e.findProjectFrom(fs, "")
}

// findProjectFrom is findProject from dir, absolute, rather than the
// working directory ("": the working directory): the language server looks
// from the editor's workspace.
func (e *env) findProjectFrom(fs *flag.FlagSet, dir string) (*project.Project, bool) {
	if dir == "" {
		cwd, err := os.Getwd()
		if err != nil {
			e.errorf("%v", err)
			return nil, false
		}
		dir = cwd
	}
	p, err := project.Find(dir)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	for _, w := range p.Config.Warnings {
		e.errorf("warning: %s", w) // settings a repository may not decide
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, s := range p.Config.Settings() {
		if given[s.Flag] || fs.Lookup(s.Flag) == nil || s.Flag == "root" {
			continue
		}
		for _, v := range s.Values {
			set := func(v string) error { return fs.Set(s.Flag, v) }
			if rv, ok := fs.Lookup(s.Flag).Value.(repositoryValue); ok {
				set = rv.SetFromRepository
			}
			if err := set(v); err != nil {
				e.errorf("%s: %s: %v (the flag --%s takes the same values)", p.ConfigFile, s.Key, err, s.Flag)
				return nil, false
			}
		}
	}
	if given["root"] {
		root, err := filepath.Abs(fs.Lookup("root").Value.String())
		if err != nil {
			e.errorf("--root: %v", err)
			return nil, false
		}
		p.Root, p.Origin = root, project.FromCommandLine
	}
	if info, err := os.Stat(p.Root); err != nil || !info.IsDir() {
		e.errorf("%s: the project root (%s) is not a directory", p.Root, p.Origin)
		return nil, false
	}
	return p, true
}

// A repositoryValue is a flag whose values from textfrag.toml, which the
// repository holds and a pull request can change, are kept apart from those
// given on the command line (globsFlag for --allow-secret).
type repositoryValue interface {
	SetFromRepository(string) error
}

// defaultPaths returns the paths a command works on when none is given:
// the source directory textfrag.toml names (relative to the working
// directory where it can be, as messages name files), else ".". A source
// inside the project root that leads out of it through a symbolic link
// (docs -> ../elsewhere, or -> /home/you) is an error naming the setting,
// as build refuses it (sourceInRoot): check, pin and refs read no page,
// not even a directory listing, out of the root through textfrag.toml.
func defaultPaths(p *project.Project) ([]string, error) {
	src := p.Source()
	if src == "" {
		return []string{"."}, nil
	}
	if err := sourceInRoot(src, p.Root); err != nil {
		if real, rerr := filepath.EvalSymlinks(src); rerr == nil {
			return nil, fmt.Errorf("%s: source: %s leads out of the project root %s through a symbolic link, to %s: textfrag reads pages only inside the project; replace the link by a copy of the directory, or name the directory on the command line: %s", p.ConfigFile, src, p.Root, real, real)
		}
		return nil, fmt.Errorf("%s: source: %v", p.ConfigFile, err)
	}
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, src); err == nil && filepath.IsLocal(rel) {
			return []string{rel}, nil
		}
	}
	return []string{src}, nil
}

// siteSource returns the directory of Markdown files build and serve read:
// the one positional argument, else the project's source (defaultPaths).
// ok is false, with the error printed, when it is not a directory.
func siteSource(e *env, p *project.Project, pos []string) (src string, ok bool) {
	if len(pos) == 1 {
		src = pos[0]
	} else if paths, err := defaultPaths(p); err != nil {
		e.errorf("%v", err)
		return "", false
	} else {
		src = paths[0]
	}
	if info, err := os.Stat(src); err != nil || !info.IsDir() {
		e.errorf("%s: not a directory: give the directory that holds the Markdown files", src)
		return "", false
	}
	return src, true
}
