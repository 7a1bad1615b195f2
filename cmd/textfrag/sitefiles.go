package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// layoutName is the file in SRC that replaces the built-in page layout.
const layoutName = "_layout.html"

// siteFiles is what a site's source directory holds, as slash paths
// relative to it, in lexical order.
type siteFiles struct {
	// Pages are the Markdown files, each rendered to page.Output(page).
	Pages []string
	// Assets are the other files, copied as they are.
	Assets []string
	// Warnings name the files left out (under SRC, as messages name
	// files) and say why.
	Warnings []string
}

// scanSite lists the pages and assets under the directory src, skipping
// hidden and "_"-prefixed files and directories, node_modules and vendor
// (project.ThirdPartyDir), and the directories in skip
// (absolute paths, such as the output directory). Symbolic links are
// followed only where they stay inside src: the others are left out with a
// warning, so that a site never publishes a file from outside its source.
// Files that inRealm refuses (secrets, SEMANTICS.md §5), files that are not
// regular (FIFOs, devices, sockets), and active content (activeExts) outside
// SRC/static/ are left out too, with a warning. README.md and index.md of
// one directory are both index.html: index.md wins, with a warning.
func scanSite(src string, inRealm func(rel string) error, skip ...string) (*siteFiles, error) {
	root, err := os.OpenRoot(src)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fsys := root.FS()
	sf := &siteFiles{}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() && project.ThirdPartyDir(d.Name()) {
			return fs.SkipDir
		}
		if project.Skipped(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if abs, err := filepath.Abs(filepath.Join(src, filepath.FromSlash(p))); err == nil && slices.Contains(skip, abs) {
				return fs.SkipDir
			}
			return nil
		}
		info, err := fs.Stat(fsys, p) // follows a symbolic link, inside the root only
		switch {
		case err != nil && d.Type()&fs.ModeSymlink != 0:
			sf.Warnings = append(sf.Warnings, fmt.Sprintf("%s: left out: a symbolic link that leads outside %s or nowhere", filepath.Join(src, p), src))
			return nil
		case err != nil:
			return err
		case info.IsDir():
			sf.Warnings = append(sf.Warnings, fmt.Sprintf("%s: left out: a symbolic link to a directory (not followed)", filepath.Join(src, p)))
			return nil
		case d.Name() == project.ConfigName: // settings, not content
			return nil
		case !info.Mode().IsRegular():
			sf.Warnings = append(sf.Warnings, fmt.Sprintf("%s: left out: not a regular file but %s", filepath.Join(src, p), realm.Kind(info.Mode())))
			return nil
		}
		if err := inRealm(p); err != nil {
			sf.Warnings = append(sf.Warnings, fmt.Sprintf("%s: left out: %v", filepath.Join(src, p), err))
			return nil
		}
		switch {
		case project.IsMarkdownName(p):
			sf.Pages = append(sf.Pages, p)
		case isServerConfig(p):
			sf.Warnings = append(sf.Warnings, fmt.Sprintf("%s: left out: %s configures the web server or host that serves the site, and textfrag never publishes such a file as it is (add it to the output yourself after the build if the site needs it)",
				filepath.Join(src, p), path.Base(p)))
		case serverExts[strings.ToLower(path.Ext(p))] && !strings.HasPrefix(p, staticDir+"/"):
			sf.Warnings = append(sf.Warnings, fmt.Sprintf("%s: left out: a web server may run %s files as programs, which are published only from %s/ (move it there to publish it as it is)",
				filepath.Join(src, p), path.Ext(p), filepath.Join(src, staticDir)))
		case activeOutsideStatic(p):
			sf.Warnings = append(sf.Warnings, fmt.Sprintf("%s: left out: a browser runs script in %s files, which are published only from %s/ (move it there to publish it as it is)",
				filepath.Join(src, p), path.Ext(p), filepath.Join(src, staticDir)))
		default:
			sf.Assets = append(sf.Assets, p)
		}
		return nil
	})
	if err != nil {
		return nil, termsafeError(err)
	}
	sf.Pages = dedupeIndex(src, sf.Pages, &sf.Warnings)
	for i, w := range sf.Warnings {
		sf.Warnings[i] = termsafe.Escape(w, "") // names chosen by whoever writes the tree
	}
	return sf, nil
}

// dedupeIndex drops a README.md whose directory also has an index.md, as
// both would be index.html, and any other page whose output another page
// already claims (names differing only in the case of ".md").
func dedupeIndex(src string, pages []string, warnings *[]string) []string {
	claimed := map[string]string{}
	for _, p := range pages {
		out := page.Output(p)
		if prev, ok := claimed[out]; !ok || strings.EqualFold(path.Base(p), "index.md") && !strings.EqualFold(path.Base(prev), "index.md") {
			claimed[out] = p
		}
	}
	kept := pages[:0:0]
	for _, p := range pages {
		if winner := claimed[page.Output(p)]; winner != p {
			*warnings = append(*warnings, fmt.Sprintf("%s: left out: %s is also %s", filepath.Join(src, p), winner, page.Output(p)))
			continue
		}
		kept = append(kept, p)
	}
	return kept
}

// outputs maps each output path of the site to the source file it comes
// from, and fails when a page and an asset would write the same file.
func (sf *siteFiles) outputs() (map[string]string, error) {
	out := make(map[string]string, len(sf.Pages)+len(sf.Assets))
	for _, p := range sf.Pages {
		out[page.Output(p)] = p
	}
	var errs []error
	for _, a := range sf.Assets {
		if p, ok := out[a]; ok {
			errs = append(errs, termsafeError(fmt.Errorf("%s: both this file and the page %s would be %s: rename one", a, p, a)))
			continue
		}
		out[a] = a
	}
	return out, errors.Join(errs...)
}
