package project

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
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
// (drafts, the layout, examples meant to fail).
func Skipped(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
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
// ThirdPartyDir directories below it.
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
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p == arg {
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
