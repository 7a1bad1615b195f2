package main

import (
	"context"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/util"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
)

// site renders the pages of one source directory. build renders each once;
// serve makes a new site, with a new Resolver, for every round of changes.
// A site renders pages concurrently: its goldmark instance and Resolver are
// shared, so each target file is read once per site.
type site struct {
	src        string   // the source directory, as given
	srcRoot    *os.Root // src, confined: no file outside it is read
	srcFS      fs.FS    // srcRoot as an fs.FS
	files      *siteFiles
	published  map[string]bool // the files of SRC published as they are: assets and Markdown sources
	layout     *template.Template
	md         goldmark.Markdown
	resolver   *target.Resolver
	hasIndex   bool
	liveReload template.HTML
	targets    bool             // record each page's target files (serve)
	proj       *project.Project // for the advice on files outside the root; nil in some tests
	sources    *sourceLinks     // nil with --source-url
	inUse      sync.WaitGroup   // serve's requests reading srcRoot
}

// newSite scans src and prepares its layout, Resolver and goldmark
// instance. root is the project root (default: src); skip are absolute
// directories to leave out (the output directory).
func newSite(src, root string, flags *linkFlags, skip ...string) (*site, error) {
	r, err := flags.newResolver(root)
	if err != nil {
		return nil, err
	}
	return newSiteWith(src, r, flags, skip...)
}

// newSiteWith is newSite with the Resolver r, which must have read
// nothing: serve gives each round a Fresh one of a Resolver it keeps, so
// that the project root is opened once, not once a round.
func newSiteWith(src string, r *target.Resolver, flags *linkFlags, skip ...string) (*site, error) {
	if err := sourceInRoot(src, r.Root()); err != nil {
		return nil, termsafeError(err)
	}
	inRealm := realmCheck(src, r)
	files, err := scanSite(src, inRealm, skip...)
	if err != nil {
		return nil, err
	}
	if _, err := files.outputs(); err != nil {
		return nil, err
	}
	srcRoot, err := os.OpenRoot(src)
	if err != nil {
		return nil, termsafeError(err)
	}
	layout, err := loadLayout(srcRoot, src, inRealm)
	if err != nil {
		srcRoot.Close()
		return nil, termsafeError(err)
	}
	s := &site{
		src:      src,
		srcRoot:  srcRoot,
		srcFS:    srcRoot.FS(),
		files:    files,
		layout:   layout,
		resolver: r,
		proj:     flags.proj,
	}
	if flags.sourceURL == "" {
		if s.sources, err = newSourceLinks(src, r.Root(), files); err != nil {
			srcRoot.Close()
			return nil, err
		}
		// After textfrag's transformer (1000), which makes the boxes.
		s.md = flags.markdown(r, util.Prioritized(s.sources, 2000))
	} else {
		s.md = flags.markdown(r)
	}
	s.published = make(map[string]bool, len(files.Pages)+len(files.Assets))
	for _, p := range slices.Concat(files.Pages, files.Assets) {
		s.published[p] = true
	}
	s.hasIndex = slices.ContainsFunc(files.Pages, func(p string) bool { return page.Output(p) == "index.html" })
	return s, nil
}

// sourceInRoot refuses a source directory named inside the project root
// that leads out of it through a symbolic link (a docs/ in the tree that
// points at ~/.ssh, or is made one while serve runs): a site publishes
// every file under its source. A directory named outside the root is read
// where it is, as the command line asks.
func sourceInRoot(src, root string) error {
	abs, err := filepath.Abs(src)
	if err != nil || root == "" || !within(abs, root) {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	if !within(real, realRoot) {
		return fmt.Errorf("%s: the source directory leads out of the project root %s through a symbolic link, to %s: a site is made only of files inside the project; to build that directory, name it: %s", src, root, real, real)
	}
	return nil
}

// close closes the site's source directory once the requests that use
// it (counted in inUse) are done; a build lets the process end close it.
func (s *site) close() {
	s.inUse.Wait()
	s.srcRoot.Close()
}

// pageName is how messages name the page at slash path rel under src.
func (s *site) pageName(rel string) string {
	return filepath.Join(s.src, filepath.FromSlash(rel))
}

// renderPage reads, converts and lays out the page at slash path rel. The
// HTML is nil when the page has an error (see page.Problems); err is for
// failures that are not about links: I/O, the layout.
func (s *site) renderPage(rel string) (p *page.Page, html []byte, err error) {
	defer func() { err = termsafeError(err) }() // it names the page, whatever its name holds
	defer page.Recover(&err, s.pageName(rel))
	src, err := readSiteFile(s.srcRoot, rel, s.pageName(rel), project.MaxPageBytes)
	if err != nil {
		return nil, nil, err
	}
	p, err = page.Convert(s.md, s.resolver, s.pageName(rel), src, true, s.targets)
	if p != nil {
		s.proj.AdviseRoot(p.Problems)
	}
	if err != nil || p.Body == nil {
		return p, nil, err
	}
	out := page.Output(rel)
	html, err = applyLayout(s.layout, p, rel, out, s.hasIndex, s.liveReload)
	return p, html, err
}

// parallel calls f(i) for every i in [0, n) on up to workers goroutines,
// and stops handing out work when ctx is done. done, if not nil, counts
// the calls that returned.
func parallel(ctx context.Context, workers, n int, done *atomic.Int64, f func(i int)) {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
				if done != nil {
					done.Add(1)
				}
			}
		})
	}
	wg.Wait()
}
