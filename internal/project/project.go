package project

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ConfigName is the name of the configuration file that marks a project's
// root.
const ConfigName = "textfrag.toml"

// Origin says how a project's root was found.
type Origin uint8

const (
	// FromWorkingDirectory: neither textfrag.toml nor .git above the
	// working directory; the root is the working directory.
	FromWorkingDirectory Origin = iota
	// FromConfig: the directory of the nearest textfrag.toml, or its root key.
	FromConfig
	// FromGit: the top of the enclosing git work tree.
	FromGit
	// FromCommandLine: given explicitly (the command's --root), which
	// overrides the others.
	FromCommandLine
)

// String describes the origin for messages ("the top of the git work tree").
func (o Origin) String() string {
	switch o {
	case FromConfig:
		return "found through " + ConfigName
	case FromGit:
		return "the top of the git work tree"
	case FromCommandLine:
		return "given with --root"
	}
	return "the current directory"
}

// Project is where a command runs.
type Project struct {
	// Root is the project root, absolute and clean: links starting with /
	// resolve there, and only files inside it are quoted.
	Root string
	// Origin says how Root was found.
	Origin Origin
	// ConfigFile is the absolute path of the textfrag.toml read, or "".
	ConfigFile string
	// Config is what ConfigFile sets; the zero Config without one.
	Config Config
}

// Find finds the project that the directory dir (the working directory)
// belongs to: the directory of the nearest textfrag.toml at or above dir
// (or the root that file names), else the top of the enclosing git work
// tree, else dir itself. A textfrag.toml is read and must be valid.
func Find(dir string) (*Project, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := dir; ; d = filepath.Dir(d) {
		file := filepath.Join(d, ConfigName)
		if _, err := os.Lstat(file); err == nil {
			cfg, err := Load(file)
			if err != nil {
				return nil, err
			}
			p := &Project{Root: d, Origin: FromConfig, ConfigFile: file, Config: cfg}
			if cfg.Root != nil {
				p.Root = *cfg.Root
			}
			return p, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for d := dir; ; d = filepath.Dir(d) {
		if IsGitTop(d) {
			return &Project{Root: d, Origin: FromGit}, nil
		}
		if filepath.Dir(d) == d {
			return &Project{Root: dir, Origin: FromWorkingDirectory}, nil
		}
	}
}

// Source returns the site's source directory the configuration names
// (its source key), or "" when it names none.
func (p *Project) Source() string {
	if p.Config.Source == nil {
		return ""
	}
	return *p.Config.Source
}

// IsGitTop reports whether dir is the top of a git work tree: it holds a
// .git directory, or a .git file starting "gitdir:" as linked work trees
// and submodules have. Nothing is run and nothing in .git is read but the
// first bytes of such a file.
func IsGitTop(dir string) bool {
	name := filepath.Join(dir, ".git")
	info, err := os.Stat(name)
	if err != nil {
		return false
	}
	if info.IsDir() {
		return true
	}
	if !info.Mode().IsRegular() {
		return false // a FIFO or device named .git is not a repository
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len("gitdir:"))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, []byte("gitdir:"))
}

// repositoryOf returns the directory a textfrag.toml in dir may reach: the
// top of the git work tree at or above dir, else dir.
func repositoryOf(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if IsGitTop(d) {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// confine makes the path p, written in a textfrag.toml in dir, absolute
// (relative to dir), and checks that it stays inside limit after symbolic
// links.
func confine(dir, limit, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	real, err := realPath(p)
	if err != nil {
		return "", err
	}
	realLimit, err := realPath(limit)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(realLimit, real); err != nil || !(rel == "." || filepath.IsLocal(rel)) {
		return "", fmt.Errorf("%s is outside %s, which holds %s: a setting in the file may not leave the repository (give --root and other paths on the command line instead)", p, limit, ConfigName)
	}
	return p, nil
}

// realPath resolves the symbolic links in p; the part of p that does not
// exist yet (an output directory to be made) is kept as written.
func realPath(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !os.IsNotExist(err) {
		return "", err
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	realParent, err := realPath(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(realParent, filepath.Base(p)), nil
}
