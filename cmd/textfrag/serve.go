package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/style"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "serve", summary: "preview a site on 127.0.0.1 with live reload: textfrag serve docs", run: runServe})
}

const serveHelp = `Usage: textfrag serve [SRC] [--addr 127.0.0.1:8080] [flags]

Builds the site in SRC (default: source in textfrag.toml, else ".") in
memory, as build would, with the same project root and textfrag.toml (see
"textfrag build -h"), and serves it on a loopback address for preview. Open
a page and keep editing: when a page changes, or a file that one of its RFC
5147 links quotes, that page is rebuilt and the browser reloads it. A change
to SRC/_layout.html rebuilds every page, and so does a change to
textfrag.toml, which is read again (while it is invalid, every page shows
what is wrong with it; --addr and --poll stay as they were).

Besides the pages it serves the files build would copy (and each page's
Markdown source), with the Content-Type their extension gives.

Build errors are shown in the browser, in place of the pages, and on stderr;
the server keeps running, and the pages come back once the errors are fixed.

Only loopback addresses are served (127.0.0.1, ::1, localhost): the preview is
not meant to be reachable from other machines. Stop it with Ctrl-C.

Exit status: 0 when stopped, 1 when the address cannot be listened on, 2 on
bad usage.

Flags:`

// eventsPath is where the live-reload script listens for reload events.
const eventsPath = "/_textfrag/events"

// liveReloadMarker stands for the live-reload script in pages rendered by
// serve; it is replaced when a page is served, with a script that knows the
// site version the page belongs to.
const liveReloadMarker = "<!--textfrag-live-reload-->"

// runServe is the serve command; Ctrl-C stops it.
func runServe(e *env, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return e.serve(ctx, args, nil)
}

// serve runs the serve command until ctx is cancelled. ready, if not nil,
// is called with the site's URL once it is served.
func (e *env) serve(ctx context.Context, args []string, ready func(url string)) int {
	o, ok := parseServe(e, args)
	if !ok {
		return exitUsage
	}
	return serveRun(ctx, e, o, ready)
}

// serveRun serves the site o names until ctx is cancelled. ready, if not
// nil, is called with the site's URL once it is served.
func serveRun(ctx context.Context, e *env, o *serveOptions, ready func(url string)) int {
	cfg, code := e.serveSettings(o)
	if cfg == nil {
		return code
	}
	s := newServer(cfg.src, cfg.flags, cfg.css, e.stderr)
	s.configFiles = configCandidates(cfg.flags.proj)
	s.reconfigure = func() (*serveSettings, error) {
		// The same command line, with textfrag.toml as it is now; what
		// would be printed is the error the browser shows.
		var msg strings.Builder
		re := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &msg}
		cfg, _ := re.serveConfig(o.args)
		if cfg == nil {
			return nil, errors.New(strings.TrimSpace(strings.TrimPrefix(msg.String(), "textfrag: ")))
		}
		return cfg, nil
	}
	s.watching = s.snapshot(nil)
	s.update(nil)

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	if ap, err := netip.ParseAddrPort(ln.Addr().String()); err != nil || !ap.Addr().IsLoopback() {
		ln.Close()
		e.errorf("%s is not a loopback address (it is %s): give 127.0.0.1 or ::1", cfg.addr, ln.Addr())
		return exitUsage
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(e.stderr, "textfrag: serving %s at %s (Ctrl-C to stop)\n", cfg.src, url)
	hs := &http.Server{
		Handler:           s.handler(),
		BaseContext:       func(net.Listener) context.Context { return ctx }, // ends event streams on stop
		ReadHeaderTimeout: 10 * time.Second,
	}
	go s.watch(ctx, cfg.poll)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(shutdown)
	}()
	if ready != nil {
		ready(url)
	}
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		e.errorf("%v", err)
		return exitError
	}
	return exitOK
}

// serveSettings are what serve's command line and textfrag.toml set.
type serveSettings struct {
	addr  string
	poll  time.Duration
	src   string
	flags *linkFlags
	css   []byte
}

// serveOptions are serve's command line.
type serveOptions struct {
	flags  *flag.FlagSet // the flags, for textfrag.toml's defaults
	lf     *linkFlags
	styles styleFlags
	// Addr is the loopback address listened on.
	Addr string
	// Poll is how often files are looked at for changes.
	Poll time.Duration
	// Src is SRC, none or one: none is the project's default source.
	Src []string
	// args is the command line, read again with textfrag.toml as it is
	// when that changes.
	args []string
}

// parseServe reads serve's command line. It reports false, with the exit
// status, after printing the problem or the usage -h asked for.
func parseServe(e *env, args []string) (*serveOptions, bool) {
	o := &serveOptions{flags: newFlagSet("serve", serveHelp), lf: &linkFlags{}}
	fset := o.flags
	fset.StringVar(&o.Addr, "addr", "127.0.0.1:8080", "loopback `ADDRESS` to listen on (port 0: any free port)")
	fset.DurationVar(&o.Poll, "poll", 300*time.Millisecond, "how often to look for changed files")
	o.styles.register(fset)
	o.lf.register(fset)
	o.lf.registerRendering(fset)
	pos, ok := e.parseFlags(fset, args)
	if !ok {
		return nil, false
	}
	if len(pos) > 1 || o.Poll <= 0 {
		fset.Usage()
		return nil, false
	}
	if err := checkLoopback(o.Addr); err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	o.Src, o.args = pos, args
	return o, true
}

// serveConfig parses serve's command line, finds the project and applies
// its textfrag.toml. It returns nil and the exit status after printing the
// problem.
func (e *env) serveConfig(args []string) (*serveSettings, int) {
	o, ok := parseServe(e, args)
	if !ok {
		return nil, exitUsage
	}
	return e.serveSettings(o)
}

// serveSettings finds the project of o and applies its textfrag.toml. It
// returns nil and the exit status after printing the problem.
func (e *env) serveSettings(o *serveOptions) (*serveSettings, int) {
	lf := o.lf
	if !lf.find(e, o.flags) {
		return nil, exitError
	}
	css, err := o.styles.stylesheet()
	if err != nil {
		e.errorf("%v", err)
		return nil, exitUsage
	}
	src, ok := siteSource(e, lf.proj, o.Src)
	if !ok {
		return nil, exitError
	}
	return &serveSettings{addr: o.Addr, poll: o.Poll, src: src, flags: lf, css: css}, exitOK
}

// configCandidates returns the files whose change can change the project:
// the textfrag.toml found, and one created in any directory between the
// working directory and it (or, with none, the file system's root).
func configCandidates(p *project.Project) []string {
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	var files []string
	for d := cwd; ; d = filepath.Dir(d) {
		f := filepath.Join(d, project.ConfigName)
		files = append(files, f)
		if f == p.ConfigFile || filepath.Dir(d) == d {
			return files
		}
	}
}

// checkLoopback refuses listen addresses other than loopback ones.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %v; write HOST:PORT, like 127.0.0.1:8080", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return fmt.Errorf("--addr %q: serve listens on loopback addresses only (127.0.0.1, ::1 or localhost), so that the preview is not reachable from other machines", addr)
	}
	return nil
}

// server is the state of "textfrag serve": the site's pages in memory, the
// files watched for changes, and the browsers waiting for a reload.
type server struct {
	// src, flags and css change when textfrag.toml does (reload): the
	// watch goroutine writes them under mu, and handlers read them under
	// mu.
	src   string
	flags *linkFlags
	css   []byte
	log   io.Writer
	jobs  int

	// resolver is the first round's Resolver; later rounds use Fresh
	// copies of it. Only update uses it.
	resolver *target.Resolver
	// configFiles are the textfrag.toml files watched (configCandidates);
	// when one changes, reconfigure reads the settings again, and the site
	// is rebuilt with them. Only the watch goroutine uses them.
	configFiles []string
	reconfigure func() (*serveSettings, error)

	// Only the watch goroutine (or the first update) writes these under mu;
	// handlers read them under mu.
	mu      sync.RWMutex
	site    *site                  // the latest site, for its asset list and files
	pages   map[string]*servedPage // by output path ("guide/index.html")
	siteErr error                  // what kept the whole site from building
	// configErr is what is wrong with textfrag.toml since it changed: the
	// pages, built with the settings before, are not shown until it is
	// fixed.
	configErr error
	version   int64            // bumped at every rebuild
	watching  map[string]stamp // by absolute path
	clients   map[chan struct{}]struct{}
}

// servedPage is one page of the preview.
type servedPage struct {
	source   string // slash path of the Markdown file under SRC
	html     []byte // nil when it failed
	problems []*textfrag.Problem
	err      error
	targets  []string // absolute paths of the files its links quote
	// sources are the project paths its boxes link under _source/: files
	// that links which passed quoted. Only these are served there.
	sources []string
}

// failed reports whether the page has an error (or, with --strict, a warning).
func (p *servedPage) failed(flags *linkFlags) bool {
	return p.err != nil || p.html == nil || flags.failed(p.problems)
}

// newServer returns a server for the site in src, with nothing built yet.
func newServer(src string, flags *linkFlags, css []byte, log io.Writer) *server {
	return &server{
		src: src, flags: flags, css: css, log: log, jobs: runtime.GOMAXPROCS(0),
		pages:    map[string]*servedPage{},
		watching: map[string]stamp{},
		clients:  map[chan struct{}]struct{}{},
	}
}

// update rebuilds what changed: every page when changed is nil or holds
// the layout; otherwise the pages whose Markdown file or quoted files are
// in changed (absolute paths), and pages new since the last round. Then it
// tells the browsers to reload.
func (s *server) update(changed map[string]bool) {
	start := time.Now()
	var err error
	root := s.flags.root
	if root == "" {
		root = s.src
	}
	// The site is made anew, with a fresh Resolver, so that changed files
	// are read again: a Resolver keeps what it has read. The fresh ones
	// share the project root the first one opened.
	var st *site
	if s.resolver == nil {
		s.resolver, err = s.flags.newResolver(root)
	}
	if err == nil {
		st, err = newSiteWith(s.src, s.resolver.Fresh(), s.flags)
	}
	if err != nil {
		s.showError(&s.siteErr, err)
		return
	}
	st.targets = true
	st.liveReload = liveReloadMarker
	for _, w := range st.files.Warnings {
		fmt.Fprintf(s.log, "textfrag: warning: %s\n", termsafe.Escape(w, ""))
	}
	var todo []string
	s.mu.RLock()
	// The layout is on every page, and so is the link to index.html.
	all := changed == nil || changed[s.abs(layoutName)] || s.site == nil || s.site.hasIndex != st.hasIndex
	for _, rel := range st.files.Pages {
		old, ok := s.pages[page.Output(rel)]
		if all || !ok || old.source != rel || changed[s.abs(rel)] || slices.ContainsFunc(old.targets, func(t string) bool { return changed[t] }) {
			todo = append(todo, rel)
		}
	}
	s.mu.RUnlock()

	rendered := make([]*servedPage, len(todo))
	parallel(context.Background(), s.jobs, len(todo), nil, func(i int) {
		p, html, err := st.renderPage(todo[i])
		sp := &servedPage{source: todo[i], html: html, err: err}
		if p != nil {
			sp.problems = p.Problems
			for _, t := range p.Targets {
				sp.targets = append(sp.targets, filepath.Join(st.resolver.Root(), filepath.FromSlash(t)))
			}
		}
		if st.sources != nil {
			if doc, err := filepath.Abs(st.pageName(todo[i])); err == nil {
				sp.sources = st.sources.linkedBy(doc)
			}
		}
		rendered[i] = sp
	})
	for _, sp := range rendered {
		for _, p := range sp.problems {
			fmt.Fprintln(s.log, p.Error())
		}
		if sp.err != nil {
			fmt.Fprintf(s.log, "textfrag: %s\n", termsafe.Escape(sp.err.Error(), "\n"))
		}
	}

	s.mu.Lock()
	pages := make(map[string]*servedPage, len(st.files.Pages))
	for _, rel := range st.files.Pages {
		pages[page.Output(rel)] = s.pages[page.Output(rel)]
	}
	for _, sp := range rendered {
		pages[page.Output(sp.source)] = sp
	}
	old := s.site
	s.site, s.pages, s.siteErr = st, pages, nil
	s.version++
	failed := 0
	for _, p := range pages {
		if p.failed(s.flags) {
			failed++
		}
	}
	s.mu.Unlock()
	if old != nil {
		go old.close() // once the requests reading it are done
	}
	s.watchTargets(start)
	if failed > 0 {
		fmt.Fprintf(s.log, "textfrag: rebuilt %d of %d pages in %v; %d failed: each shows why in the browser, /%s lists them\n", len(todo), len(pages), time.Since(start).Round(time.Millisecond), failed, failuresPath)
	} else {
		fmt.Fprintf(s.log, "textfrag: rebuilt %d of %d pages in %v\n", len(todo), len(pages), time.Since(start).Round(time.Millisecond))
	}
	s.notify()
}

// abs returns the absolute path of the file at slash path rel under SRC.
func (s *server) abs(rel string) string {
	a, err := filepath.Abs(filepath.Join(s.src, filepath.FromSlash(rel)))
	if err != nil {
		return rel
	}
	return a
}

// handler serves the site, its stylesheet and the reload events, to
// requests for a loopback host only.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(eventsPath, s.events)
	mux.HandleFunc("/", s.serveSite)
	return loopbackHostOnly(mux)
}

// loopbackHostOnly refuses requests whose Host is not a loopback address or
// localhost. Listening on loopback keeps other machines out, but a web page
// could still give its own host name the address 127.0.0.1 (DNS rebinding)
// and read the preview, which serves the files under SRC, as same-origin.
func loopbackHostOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "textfrag serve answers requests for 127.0.0.1, [::1] or localhost only", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header ("127.0.0.1:8080",
// "[::1]:8080", "localhost:8080") names this machine's loopback interface.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// serveSource serves the file at project path p, which build would copy
// to _source/ (sourceLinks), if the box or quote of a link that passed
// links it there; nothing else: not a file a failed link named (a secret,
// a link out of the root), not a file a page merely mentions. The realm is
// judged again at each request (sourceInRealm), so that a file swapped for
// a link to a secret since its page was built is not served.
func (s *server) serveSource(w http.ResponseWriter, r *http.Request, p string) {
	s.mu.RLock()
	st := s.site
	quoted := false
	if st != nil && st.sources != nil {
		for _, page := range s.pages {
			if page != nil && slices.Contains(page.sources, p) {
				quoted = true
				break
			}
		}
	}
	s.mu.RUnlock()
	if !quoted || sourceInRealm(st.resolver, p) != nil {
		http.NotFound(w, r)
		return
	}
	f, err := openSource(st.resolver.Root(), p)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	rs, ok := f.(io.ReadSeeker)
	if err != nil || !ok {
		http.NotFound(w, r)
		return
	}
	// A quoted file is source to read, never a page of the preview: one a
	// browser would run script in (evil.html, a.svg) is plain text here,
	// and nothing is sniffed.
	if publishedAsText(p) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	http.ServeContent(w, r, path.Base(p), info.ModTime(), rs)
}

// serveSite serves a page from memory, or the error page while the site has
// errors, or a file from SRC as build would copy it.
func (s *server) serveSite(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" || strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	if rest, ok := strings.CutPrefix(name, sourceDir+"/"); ok {
		if p := sourceOf(rest); p != "" {
			s.serveSource(w, r, p)
		} else {
			http.NotFound(w, r)
		}
		return
	}
	if name == failuresPath {
		s.serveFailures(w)
		return
	}
	if slices.ContainsFunc(strings.Split(name, "/"), project.Skipped) {
		http.NotFound(w, r)
		return
	}
	s.mu.RLock()
	p, isPage := s.pages[name]
	report, version := s.errorReport(), s.version
	var failures []pageFailure // when this page fails: every page that does
	if report == "" && isPage && p.failed(s.flags) {
		failures = s.failures()
	}
	st, css := s.site, s.css
	if st != nil {
		st.inUse.Add(1) // the next round closes st's srcRoot only after this request
		defer st.inUse.Done()
	}
	s.mu.RUnlock()

	if report != "" && (isPage || path.Ext(name) == ".html") {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusInternalServerError)
		errorPage.Execute(w, struct {
			Report     string
			LiveReload template.HTML
		}{report, template.HTML(liveReloadScript(version))})
		return
	}
	if failures != nil {
		// This page's own errors, and the other pages that fail: the
		// pages that build are served as they are.
		page := failures[slices.IndexFunc(failures, func(f pageFailure) bool { return f.Output == name })]
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusInternalServerError)
		pageErrorPage.Execute(w, struct {
			Page       pageFailure
			Failures   []pageFailure
			Index      string
			LiveReload template.HTML
		}{page, failures, "/" + failuresPath, template.HTML(liveReloadScript(version))})
		return
	}
	if isPage {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(bytes.Replace(p.html, []byte(liveReloadMarker), []byte(liveReloadScript(version)), 1))
		return
	}
	if st != nil {
		if _, ok := s.pageExists(path.Join(name, "index.html")); ok {
			http.Redirect(w, r, "/"+name+"/", http.StatusFound)
			return
		}
		if st.published[name] {
			serveSiteFile(w, r, st, name)
			return
		}
	}
	if name == style.FileName {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(css)
		return
	}
	http.NotFound(w, r)
}

// serveSiteFile serves the file at slash path name under SRC, one the site
// publishes as it is (an asset, or a Markdown source): read through SRC's
// os.Root as build copies it, a regular file only (never blocking on a
// FIFO), with the Content-Type its extension gives and no sniffing, so
// that the browser never takes a file for a page that build would not
// publish as one.
func serveSiteFile(w http.ResponseWriter, r *http.Request, st *site, name string) {
	f, info, err := realm.Open(st.srcRoot, name)
	if err == nil && siteFileLimit(name) > 0 && info.Size() > siteFileLimit(name) {
		f.Close()
		err = &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: more than %d bytes", realm.ErrTooLarge, siteFileLimit(name))}
	}
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, fs.ErrNotExist) {
			code = http.StatusNotFound
		}
		http.Error(w, siteFileError(st.pageName(name), err).Error(), code)
		return
	}
	defer f.Close()
	ctype := mime.TypeByExtension(path.Ext(name))
	switch {
	case project.IsMarkdownName(name):
		ctype = "text/plain; charset=utf-8"
	case ctype == "":
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	http.ServeContent(w, r, name, info.ModTime(), f)
}

// pageExists looks a page up by its output path.
func (s *server) pageExists(name string) (*servedPage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.pages[name]
	return p, ok
}

// errorReport returns what keeps the whole site from building (an invalid
// textfrag.toml, a layout that does not parse), shown in place of every
// page, or "". A page that fails shows its own errors (failures). Call with
// mu held.
func (s *server) errorReport() string {
	if s.configErr != nil {
		return s.configErr.Error()
	}
	if s.siteErr != nil {
		return s.siteErr.Error()
	}
	return ""
}

// failuresPath is where serve lists the pages that do not build. A name
// starting with "_" is never a page of the site (project.Skipped).
const failuresPath = "_textfrag/failures.html"

// pageFailure is a page that does not build, and why.
type pageFailure struct {
	Output string // its output path, "guide/index.html"
	Source string // its Markdown file under SRC
	Report string // its errors (and, with --strict, warnings), one a line
}

// failures returns the pages that fail, by output path (warnings alone do
// not fail a page, unless --strict). Call with mu held.
func (s *server) failures() []pageFailure {
	var out []pageFailure
	for _, name := range slices.Sorted(maps.Keys(s.pages)) {
		p := s.pages[name]
		if !p.failed(s.flags) {
			continue
		}
		var lines []string
		for _, prob := range p.problems {
			lines = append(lines, prob.Error())
		}
		if p.err != nil {
			lines = append(lines, p.err.Error())
		}
		out = append(out, pageFailure{Output: name, Source: p.source, Report: strings.Join(lines, "\n")})
	}
	return out
}

// serveFailures serves the index of the pages that do not build, with
// their errors, or says that every page builds.
func (s *server) serveFailures(w http.ResponseWriter) {
	s.mu.RLock()
	report, version := s.errorReport(), s.version
	var failures []pageFailure
	if report == "" {
		failures = s.failures()
	}
	s.mu.RUnlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	failuresPage.Execute(w, struct {
		Report     string
		Failures   []pageFailure
		LiveReload template.HTML
	}{report, failures, template.HTML(liveReloadScript(version))})
}

// errorStyle is the style of serve's error pages.
const errorStyle = `<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#fff0f0;border-left:4px solid #cf222e;padding:1rem;font:0.9rem/1.5 ui-monospace,monospace}</style>`

// pageErrorPage shows one page's errors in place of the page, escaped, with
// the other pages that fail, and reloads when the site changes.
var pageErrorPage = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>textfrag: {{.Page.Source}} does not build</title>
` + errorStyle + `
</head>
<body>
<h1>{{.Page.Source}} does not build</h1>
<p>Fix these and the page reloads by itself:</p>
<pre>{{.Page.Report}}</pre>
{{if gt (len .Failures) 1}}<h2>Pages that do not build</h2>
<ul>{{range .Failures}}
<li><a href="/{{.Output}}">{{.Source}}</a></li>{{end}}
</ul>
<p>Every error: <a href="{{.Index}}">{{.Index}}</a>. The other pages are served as they build.</p>
{{end}}{{.LiveReload}}
</body>
</html>
`))

// failuresPage lists the pages that do not build, with their errors.
var failuresPage = template.Must(template.New("failures").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>textfrag: pages that do not build</title>
` + errorStyle + `
</head>
<body>
{{if .Report}}<h1>The site does not build</h1>
<pre>{{.Report}}</pre>
{{else if .Failures}}<h1>Pages that do not build</h1>
{{range .Failures}}<h2><a href="/{{.Output}}">{{.Source}}</a></h2>
<pre>{{.Report}}</pre>
{{end}}{{else}}<h1>Every page builds</h1>
{{end}}{{.LiveReload}}
</body>
</html>
`))

// errorPage shows build errors in the browser, escaped, and reloads when
// they are fixed.
var errorPage = template.Must(template.New("error").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>textfrag: build failed</title>
` + errorStyle + `
</head>
<body>
<h1>The site does not build</h1>
<p>Fix these and the page reloads by itself:</p>
<pre>{{.Report}}</pre>
{{.LiveReload}}
</body>
</html>
`))

// liveReloadScript is the script that reloads a page served at site
// version v as soon as the site changes, including changes made before the
// script connected.
func liveReloadScript(v int64) string {
	return `<script>(function(){var es=new EventSource("` + eventsPath + `?v=` + strconv.FormatInt(v, 10) +
		`");es.addEventListener("reload",function(){es.close();location.reload();});})();</script>`
}

// events streams Server-Sent Events: "reload" whenever the site is rebuilt,
// and at once if the site has changed since version ?v=N.
func (s *server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	s.clients[ch] = struct{}{}
	version := s.version
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.clients, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, "retry: 1000\n\n")
	if v := r.URL.Query().Get("v"); v != "" && v != strconv.FormatInt(version, 10) {
		fmt.Fprintf(w, "event: reload\ndata: %d\n\n", version)
	}
	flusher.Flush()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case <-ch:
			s.mu.RLock()
			version = s.version
			s.mu.RUnlock()
			fmt.Fprintf(w, "event: reload\ndata: %d\n\n", version)
		}
		flusher.Flush()
	}
}

// notify wakes every event stream.
func (s *server) notify() {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for ch := range s.clients {
		select {
		case ch <- struct{}{}:
		default: // a reload is already pending
		}
	}
}

// showError logs err and shows it in place of every page (in *field, one of
// the errors errorReport reads) until a rebuild clears it; browsers reload.
func (s *server) showError(field *error, err error) {
	fmt.Fprintf(s.log, "textfrag: %s\n", termsafe.Escape(err.Error(), "\n"))
	s.mu.Lock()
	*field = err
	s.version++
	s.mu.Unlock()
	s.notify()
}
