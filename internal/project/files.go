package project

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// IsMarkdownName reports whether a file name (or slash path) is a Markdown
// page: it ends in ".md", in any case, and is more than the extension.
func IsMarkdownName(name string) bool {
	base := path.Base(name)
	return len(base) > 3 && strings.EqualFold(path.Ext(base), ".md")
}

// Skipped reports whether a file or directory found in a search of a
// directory is left out: hidden ones (".git", ".env") and "_"-prefixed ones
// (drafts, the layout, examples meant to fail). textfrag build leaves them
// out of its site; MarkdownFiles takes Hugo's pages among them.
func Skipped(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// hugoMarkdownExts are the suffixes Hugo renders as Markdown (its
// text/markdown media type). Hugo's other content formats either pass
// through as they are (.html, .htm: Markdown links in them are text) or
// need an external program (.adoc, .rst, .pandoc, .org), none of which
// runs render hooks: the Hugo module fails the build when such a page holds
// an RFC 5147 fragment, so they are not read as Markdown here.
var hugoMarkdownExts = []string{".md", ".markdown", ".mdown"}

// IsHugoMarkdownName reports whether a file name is a page Hugo renders as
// Markdown: it ends in one of Hugo's Markdown suffixes (any case) and is
// more than the suffix.
func IsHugoMarkdownName(name string) bool {
	base := path.Base(filepath.ToSlash(name))
	ext := path.Ext(base)
	return len(base) > len(ext) && slices.ContainsFunc(hugoMarkdownExts, func(e string) bool { return strings.EqualFold(e, ext) })
}

// IsHugoIndexName reports whether a file name is a Hugo branch bundle's
// page, "_index" with a Markdown suffix: the home, section, taxonomy or
// term page of its directory.
func IsHugoIndexName(name string) bool {
	base := path.Base(filepath.ToSlash(name))
	return strings.HasPrefix(base, "_index.") && IsHugoMarkdownName(base)
}

// hugoSkipped reports whether Hugo leaves a file or directory of its
// content directory out: names starting with "." or "#" (editors' lock
// files) or ending with "~" (backups). "_"-prefixed names are pages to Hugo.
func hugoSkipped(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~")
}

// hugoConfigNames are the files that make a directory a Hugo site's: its
// configuration, or a config/ directory of them.
var hugoConfigNames = []string{
	"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json",
	"config.toml", "config.yaml", "config.yml", "config.json",
	filepath.Join("config", "_default"),
}

// IsHugoContentDir reports whether dir is a Hugo site's content directory:
// a directory named "content" beside a Hugo configuration (hugo.toml,
// config.toml, config/_default/, in any of Hugo's formats). A contentDir
// set to another name, or content mounted from elsewhere, is not
// recognised: name such a directory's files, or rely on the _index pages
// every search takes.
func IsHugoContentDir(dir string) bool {
	if filepath.Base(dir) != "content" {
		return false
	}
	parent := filepath.Dir(dir)
	for _, n := range hugoConfigNames {
		if _, err := os.Lstat(filepath.Join(parent, n)); err == nil {
			return true
		}
	}
	return false
}

// inHugoContent reports whether dir is a Hugo content directory or lies
// below one.
func inHugoContent(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		if IsHugoContentDir(abs) {
			return true
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return false
		}
		abs = parent
	}
}

// ThirdPartyDir reports whether a directory found in a search of a
// directory holds other projects' files, and so is left out with all below
// it: "node_modules" (npm) and "vendor" (Go modules, Composer, Bundler).
// Their Markdown is not the project's documentation; a file under one is
// still taken when named.
func ThirdPartyDir(name string) bool {
	return name == "node_modules" || name == "vendor"
}

// MarkdownFiles lists the Markdown files under paths: a file is taken as
// given, whatever its name; a directory is searched for Markdown files
// (IsMarkdownName), leaving out Skipped files and directories and
// ThirdPartyDir directories below it, but for the pages Hugo renders:
// Hugo's _index pages (IsHugoIndexName) are taken in every directory searched, and in
// a Hugo content directory (IsHugoContentDir) and below it, the search
// follows Hugo's rules instead: every file with a Markdown suffix of Hugo's
// (IsHugoMarkdownName), "_"-prefixed ones and those below node_modules or
// vendor included, leaving out only what Hugo leaves out (hugoSkipped).
// Each file is listed once (by its cleaned path), as first given, in the
// order found. A path that does not exist is an error.
func MarkdownFiles(paths []string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if key := filepath.Clean(p); !seen[key] {
			seen[key] = true
			files = append(files, p)
		}
	}
	for _, arg := range paths {
		info, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(arg)
			continue
		}
		// hugo is the directory at or below which Hugo's rules hold; ""
		// outside content directories.
		hugo := ""
		if inHugoContent(arg) {
			hugo = arg
		}
		// A directory named through a symbolic link (the project root when
		// the working directory was reached through one, or an argument)
		// is searched as the directory it names: WalkDir does not follow a
		// link at its root, and would find nothing. Links below it are
		// not followed.
		top := arg
		if li, err := os.Lstat(arg); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			top = arg + string(filepath.Separator)
		}
		err = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p == top {
				return nil
			}
			if hugo != "" && !isBelow(p, hugo) {
				hugo = ""
			}
			if hugo == "" && d.IsDir() && IsHugoContentDir(p) {
				hugo = p
			}
			if hugo != "" {
				switch {
				case hugoSkipped(d.Name()):
					if d.IsDir() {
						return filepath.SkipDir
					}
				case !d.IsDir() && IsHugoMarkdownName(d.Name()):
					add(p)
				}
				return nil
			}
			if !d.IsDir() && IsHugoIndexName(d.Name()) {
				add(p)
				return nil
			}
			if d.IsDir() && ThirdPartyDir(d.Name()) {
				return filepath.SkipDir
			}
			if Skipped(d.Name()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && IsMarkdownName(d.Name()) {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// isBelow reports whether p is dir or lies below it, both as WalkDir names
// them from the same root (lexically: no link is followed).
func isBelow(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
