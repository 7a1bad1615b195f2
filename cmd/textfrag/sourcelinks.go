package main

import (
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/realm"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// sourceDir is the directory of a built site that holds the quoted files
// its pages do not publish otherwise: the files outside SRC, and those the
// site leaves out (hidden, "_"-prefixed), each under its project path. No
// page or asset can be there, as "_"-prefixed names under SRC are left out.
const sourceDir = "_source"

// sourceCopy is where the quoted file at project path p is published under
// sourceDir: at its own path, but with ".txt" added to a type a browser runs
// script in (activeExts), a type a server runs (serverExts) and server
// configuration (serverConfigNames), so that a quoted evil.html or a.svg
// is served as text by any host, never as a page of the site, and a
// quoted .htaccess or web.config configures nothing.
func sourceCopy(p string) string {
	if publishedAsText(p) {
		p += ".txt"
	}
	return sourceDir + "/" + p
}

// sourceOf is the project path whose copy is at rel under sourceDir
// (sourceCopy's inverse), or "" when no quoted file is published there.
func sourceOf(rel string) string {
	if p, ok := strings.CutSuffix(rel, ".txt"); ok && publishedAsText(p) {
		return p
	}
	if publishedAsText(rel) {
		return ""
	}
	return rel
}

// sourceLinks makes the caption of each box (and the cite of each inline
// quote) of a site link to the quoted file inside the built site, so that
// the link works when the site is published or opened from disk: a file
// the site publishes anyway (an asset, or a quoted page, under SRC) is
// linked where it is; any other quoted file is published as it is under
// _source/PROJECT-PATH and linked there. A link's fragment is kept as
// written. With --source-url the captions link there instead, and none of
// this happens.
//
// It runs after textfrag's transformer, which has made the boxes.
type sourceLinks struct {
	srcAbs    string          // the site's source directory, absolute
	srcProj   string          // its project path: "." or "docs"; "" when outside the root
	published map[string]bool // slash paths under src published as they are

	mu     sync.Mutex
	copies map[string]bool            // project paths linked under _source/
	byPage map[string]map[string]bool // the same, by the page (absolute path) whose boxes link them
}

// newSourceLinks prepares the links of a site whose source directory src
// holds files, in the project rooted at root.
func newSourceLinks(src, root string, files *siteFiles) (*sourceLinks, error) {
	srcAbs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	sl := &sourceLinks{srcAbs: srcAbs, published: map[string]bool{}, copies: map[string]bool{}, byPage: map[string]map[string]bool{}}
	if rel, err := filepath.Rel(root, srcAbs); err == nil && (rel == "." || filepath.IsLocal(rel)) {
		sl.srcProj = filepath.ToSlash(rel)
	}
	for _, p := range files.Assets {
		sl.published[p] = true
	}
	for _, p := range files.Pages {
		sl.published[p] = true // copied as it is when quoted (site.quotedPages)
	}
	return sl, nil
}

// Transform implements parser.ASTTransformer.
func (sl *sourceLinks) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	docPath := textfrag.Document(pc)
	rel, err := filepath.Rel(sl.srcAbs, docPath)
	if err != nil || !filepath.IsLocal(rel) {
		return
	}
	pageDir := path.Dir(page.Output(filepath.ToSlash(rel)))
	sl.mu.Lock()
	delete(sl.byPage, docPath) // a page rendered again links anew
	sl.mu.Unlock()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *textfrag.Box:
			n.Href = sl.href(n.Result, docPath, pageDir, n.Href)
		case *textfrag.Quote:
			n.Href = sl.href(n.Result, docPath, pageDir, n.Href)
		}
		return ast.WalkContinue, nil
	})
}

// linkedBy returns the project paths that the boxes and quotes of the page
// at the absolute path doc link under _source/: files their links quoted
// and verified (a Box or Quote is made only for a link that passed).
func (sl *sourceLinks) linkedBy(doc string) []string {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	out := make([]string, 0, len(sl.byPage[doc]))
	for p := range sl.byPage[doc] {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// href returns the link from the page doc, in the slash directory pageDir
// of the built site, to the file res quotes; old for a remote target.
func (sl *sourceLinks) href(res *target.Result, doc, pageDir, old string) string {
	if res.Remote != nil || !filepath.IsLocal(filepath.FromSlash(res.Path)) {
		return old
	}
	loc := ""
	if sl.srcProj != "" {
		rel, ok := res.Path, sl.srcProj == "."
		if !ok {
			rel, ok = strings.CutPrefix(res.Path, sl.srcProj+"/")
		}
		if ok && sl.published[rel] {
			loc = rel
		}
	}
	if loc == "" {
		sl.mu.Lock()
		sl.copies[res.Path] = true
		if sl.byPage[doc] == nil {
			sl.byPage[doc] = map[string]bool{}
		}
		sl.byPage[doc][res.Path] = true
		sl.mu.Unlock()
		loc = sourceCopy(res.Path)
	}
	up := ""
	if pageDir != "." {
		up = strings.Repeat("../", strings.Count(pageDir, "/")+1)
	}
	segs := strings.Split(loc, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	href := up + strings.Join(segs, "/")
	if res.Link.HasFragment {
		href += "#" + res.Link.Fragment
	}
	return href
}

// sources returns the project paths linked under _source/, sorted.
func (sl *sourceLinks) sources() []string {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	out := make([]string, 0, len(sl.copies))
	for p := range sl.copies {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// linked reports whether the project path p is linked under _source/.
func (sl *sourceLinks) linked(p string) bool {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.copies[p]
}

// openSource opens the quoted file at project path p under root, through
// the realm (no symbolic link leads out; a FIFO or device fails at once).
func openSource(root, p string) (fs.File, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, _, err := realm.Open(r, filepath.FromSlash(p))
	if err != nil {
		return nil, err
	}
	return f, nil
}
