package target

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/text/unicode/norm"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/realm"
)

// Errors for targets that cannot be used; match them with errors.Is.
var (
	// ErrNotFound: no file at the resolved path.
	ErrNotFound = errors.New("target file not found")
	// ErrOutsideRoot: the path, or a symlink on it, leads outside every allowed root.
	ErrOutsideRoot = errors.New("target is outside the allowed roots")
	// ErrIsDirectory: the path names a directory.
	ErrIsDirectory = errors.New("target is a directory")
	// ErrBadPath: the path cannot be decoded (bad percent-encoding, NUL,
	// invalid UTF-8, bidi controls).
	ErrBadPath = errors.New("target path is malformed")
	// ErrNotOurs: the link is not an RFC 5147 link this Resolver reads
	// (another fragment, no fragment, a non-file URI, or a remote URI whose
	// host RemoteOptions do not allow); front ends leave it untouched.
	ErrNotOurs = errors.New("not a local RFC 5147 link")
	// ErrSecret: the file lies inside an allowed root, but it is one that
	// commonly holds secrets (.git/, .env, *.pem, …; SEMANTICS.md §5), which
	// stay outside the realm unless Options.AllowSecrets names them. Kind
	// calls it "outside".
	ErrSecret = errors.New("a file that commonly holds secrets")
)

// DefaultCacheLimit is the largest file the Resolver keeps in memory (8 MiB).
// Larger files are streamed through, once per link, in bounded memory.
const DefaultCacheLimit = 8 << 20

// Options configure a Resolver. The zero value resolves against the current
// directory, which is then the only allowed root.
type Options struct {
	// Root is the project root: where links starting with '/' resolve, and
	// what document and target paths are relative to. Default: the current
	// directory. Ignored when FS is set.
	Root string
	// AllowedRoots are the directories targets may lie in, after following
	// symlinks, relative to Root (or absolute). Default: Root alone.
	AllowedRoots []string
	// FS, if set, is the project root instead of Root: every target is read
	// from it and it is the only allowed root.
	FS fs.FS
	// Charsets give the charset of files by glob (SEMANTICS.md §3); files
	// match no rule are UTF-8. First match wins.
	Charsets []CharsetRule
	// CacheLimit is the size up to which a file is read once and kept for
	// the Resolver's life. Default DefaultCacheLimit; negative: never cache.
	CacheLimit int64
	// Remote enables http and https targets on the hosts it allows. Default:
	// none; remote links are left as links.
	Remote RemoteOptions
	// AllowSecrets names, by glob, files that are quoted although they look
	// like secrets. By default (nil) these stay outside the realm, whatever
	// the roots (SEMANTICS.md §5): anything below a directory named .git,
	// .ssh or .aws, .docker/config.json, and files named .env, .env.*,
	// .netrc, .npmrc, .pypirc, *.pem and *.key; letter case does not count
	// there. The path as written and the real path after symlinks are both
	// checked. A glob without '/' matches the base name (".env.example"),
	// one with '/' the whole project path ("deploy/ca.pem"), letter case
	// included; "*" does not cross '/'.
	AllowSecrets []string
	// RepositoryAllowSecrets are AllowSecrets globs that come from
	// configuration the repository itself holds (textfrag.toml), which a
	// pull request can change: they allow the same files, except those
	// below a .git directory, which no commit can hold and where a CI
	// checkout keeps its token. Default: none.
	RepositoryAllowSecrets []string
	// Overlay, if set, holds newer bytes for some files than those on disk:
	// an editor's unsaved buffers, for a language server. A file is still
	// found, checked and opened on disk as any target (so it must exist
	// there, inside the realm); then, if Overlay reports bytes for its
	// project path, they replace the file's. It is called at most once per
	// file between two Forget calls, from any goroutine; the bytes it returns
	// must not change afterwards. Default: none, files are read as stored.
	Overlay func(projectPath string) ([]byte, bool)
	// Symbols are the parsers sym= names are looked up with (FindName),
	// merged over symbol.Default() (symbol.Set.Merge). Default (nil):
	// symbol.Default(), Go only. Regions need no parser.
	Symbols symbol.Set
	// NameCacheLimit, if positive, keeps the names FindName parses across
	// this Resolver, those Fresh makes of it and Forget, up to that many
	// bytes of text (the least recently used dropped first): a file whose
	// decoded text is unchanged, byte for byte, is parsed once for the
	// process, one changed in any way (on disk or in Overlay) again. For a
	// long-lived process that makes a Resolver per request (a language
	// server). Default 0: names are parsed once per Resolver, until Forget.
	NameCacheLimit int64
}

// CharsetRule says that files matching Glob are stored in Charset. A glob
// without '/' matches the base name ("*.latin1"); otherwise the whole
// project path ("legacy/**" is not supported; use "legacy/*.txt").
type CharsetRule struct {
	Glob    string
	Charset string
}

// Resolver resolves link destinations in documents to selections of files
// inside the allowed roots. It reads each cached file once and keeps what it
// read until Forget: what it quotes is the files as they were when first
// read, a snapshot fit for one build. It is safe for concurrent use: share
// one across the documents of a build, and make a new one (New, Fresh) or
// call Forget before the next build, or it quotes stale text and accepts
// stale integrity checks.
type Resolver struct {
	root         string // absolute OS path; "" with an FS
	mounts       []mount
	charsets     []charsetRule
	cacheLimit   int64
	remote       remoteFetcher // nil: remote links are not ours
	allowSecrets []string
	repoSecrets  []string // RepositoryAllowSecrets
	overlay      func(string) ([]byte, bool)
	symbols      symbol.Set
	nameCache    *nameCache // nil: names are kept per Resolver only

	mu      sync.Mutex
	entries map[string]*entry
	reads   atomic.Int64
}

type mount struct {
	dir    string    // project path of the allowed root ("." for the root)
	fsys   fs.FS     // confined to the allowed root
	osDir  string    // the allowed root's OS path, "" for an FS
	osRoot *os.Root  // the allowed root, nil for an FS
	real   realm.Dir // osDir, its symlinks evaluated once; zero for an FS
}

type charsetRule struct {
	glob    string
	charset rfc5147.Charset
}

type entry struct {
	once   sync.Once
	text   *rfc5147.Text // nil for a streamed (large) file
	raw    []byte        // the bytes text was decoded from (Stored)
	loaded atomic.Bool   // set once the fields above are final
	remote *RemoteInfo   // set for a remote target
	reads  int64
	err    error

	// names holds the file's names by language (symbol.LanguageOf), made
	// at the first FindName: each file is parsed once per Resolver.
	namesMu sync.Mutex
	names   map[string]*symbol.Index
}

// New returns a Resolver. It fails when a root cannot be opened, a charset
// name is unknown, or the remote options are invalid.
func New(o Options) (*Resolver, error) {
	r := &Resolver{cacheLimit: o.CacheLimit, entries: make(map[string]*entry)}
	if r.cacheLimit == 0 {
		r.cacheLimit = DefaultCacheLimit
	}
	if len(o.Remote.AllowHosts) > 0 {
		f, err := newHTTPFetcher(o.Remote)
		if err != nil {
			return nil, err
		}
		r.remote = f
	}
	for _, c := range o.Charsets {
		if _, err := path.Match(c.Glob, ""); err != nil {
			return nil, fmt.Errorf("charset rule %q: %w", c.Glob, err)
		}
		cs, err := rfc5147.LookupCharset(c.Charset)
		if err != nil {
			return nil, fmt.Errorf("charset rule %q: %w", c.Glob, err)
		}
		r.charsets = append(r.charsets, charsetRule{c.Glob, cs})
	}
	for _, g := range o.AllowSecrets {
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("allowed secret %q: %w", g, err)
		}
	}
	r.allowSecrets = slices.Clone(o.AllowSecrets)
	r.repoSecrets = slices.Clone(o.RepositoryAllowSecrets)
	r.overlay = o.Overlay
	r.symbols = symbol.Default().Merge(o.Symbols)
	if o.NameCacheLimit > 0 {
		r.nameCache = newNameCache(o.NameCacheLimit)
	}
	if o.FS != nil {
		r.mounts = []mount{{dir: ".", fsys: o.FS}}
		return r, nil
	}
	root := o.Root
	if root == "" {
		root = "."
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	r.root = root
	allowed := o.AllowedRoots
	if len(allowed) == 0 {
		allowed = []string{"."}
	}
	for _, a := range allowed {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, a)
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return nil, err
		}
		osRoot, err := os.OpenRoot(abs)
		if err != nil {
			return nil, fmt.Errorf("allowed root: %w", err)
		}
		r.mounts = append(r.mounts, mount{dir: filepath.ToSlash(rel), fsys: osRoot.FS(), osDir: abs, osRoot: osRoot, real: realm.NewDir(abs)})
	}
	return r, nil
}

// Fresh returns a Resolver with r's configuration and nothing read: every
// file is read again, once, at its first use. It shares r's open roots and
// remote client, so it costs no system call; the goldmark extension makes
// one per conversion unless given a Resolver. Names kept by
// Options.NameCacheLimit are shared.
func (r *Resolver) Fresh() *Resolver {
	return &Resolver{
		root: r.root, mounts: r.mounts, charsets: r.charsets, cacheLimit: r.cacheLimit,
		remote: r.remote, allowSecrets: r.allowSecrets, repoSecrets: r.repoSecrets, overlay: r.overlay, symbols: r.symbols,
		nameCache: r.nameCache, entries: make(map[string]*entry),
	}
}

// Forget drops every file and remote target r has read, so that each is
// read again, once, at its next use: call it between two builds that share
// a long-lived Resolver. Resolutions under way finish with what they had
// read. Reads and ReadsOf count from zero again.
func (r *Resolver) Forget() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries = make(map[string]*entry)
	r.reads.Store(0)
}

// Root returns the project root as an absolute OS path ("" with an FS).
func (r *Resolver) Root() string { return r.root }

// Result is a resolved link.
type Result struct {
	// Link is the destination split into parts.
	Link Link
	// Path is the target's project path: slash-separated, relative to the
	// root. For a remote target it is the URL, without fragment.
	Path string
	// Fragment is the parsed fragment.
	Fragment rfc5147.Fragment
	// Selection is what the fragment selects. With an integrity error it is
	// set, with Checks filled in, but its text must not be used.
	Selection *rfc5147.Selection
	// Remote is set for a remote target: where its text came from.
	Remote *RemoteInfo
}

// Error is a link that could not be resolved. Err is one of this package's
// errors, or of package rfc5147 (ErrSyntax, ErrMisordered, ErrIntegrity,
// ErrNotText), and can be matched with errors.Is.
type Error struct {
	Doc  string // the document's project path
	Link string // the destination as written
	Path string // the target's project path (a remote target's URL), when known
	Err  error
	// Result is set for integrity errors, for re-pinning.
	Result *Result
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// DocPath turns an OS path of a document into a project path. Relative
// paths are taken as relative to the current directory.
func (r *Resolver) DocPath(osPath string) string {
	if r.root == "" {
		return path.Clean(filepath.ToSlash(osPath))
	}
	abs, err := filepath.Abs(osPath)
	if err != nil {
		return path.Clean(filepath.ToSlash(osPath))
	}
	rel, err := filepath.Rel(r.root, abs)
	if err != nil {
		return path.Clean(filepath.ToSlash(osPath))
	}
	return filepath.ToSlash(rel)
}

// Resolve resolves the link destination dest, found in the document at
// project path doc (see DocPath), and applies its fragment. It returns an
// error wrapping ErrNotOurs for links that are not RFC 5147 links to local
// files or to allowed remote hosts, and an *Error for every other failure.
//
// A destination that Markdown reads otherwise than it is written
// (MarkdownDecoded) fails with an *EscapedError when either spelling is an
// RFC 5147 link this Resolver reads, so that no link is published as one
// that was not verified (escaped.go).
func (r *Resolver) Resolve(doc, dest string) (*Result, error) {
	if e := escaped(dest, r.claims); e != nil && (r.claims(dest) || r.claims(e.Read)) {
		return nil, &Error{Doc: doc, Link: dest, Err: e}
	}
	l := SplitLink(dest)
	if !l.HasFragment || !rfc5147.IsCandidate(l.Fragment) {
		return nil, ErrNotOurs
	}
	res := &Result{Link: l}
	fail := func(err error) (*Result, error) {
		return nil, &Error{Doc: doc, Link: dest, Path: res.Path, Err: err}
	}
	switch l.Scheme {
	case "":
		if strings.HasPrefix(l.RawPath, "//") {
			// A network-path reference ("//host/path", RFC 3986 section 4.2)
			// names a remote host, not a project file.
			return nil, ErrNotOurs
		}
	case "file":
		if !strings.HasPrefix(l.RawPath, "/") || strings.HasPrefix(l.RawPath, "//") {
			// SplitLink keeps "//host/…" for a host other than the local one.
			return fail(fmt.Errorf("%w: only file URIs on the local host are read", ErrOutsideRoot))
		}
		if r.root == "" {
			return fail(fmt.Errorf("%w: file URIs are not read from a virtual file system", ErrOutsideRoot))
		}
		// Decode the URI's path to compare it with the root, then hand on
		// the root-relative rest encoded again, as projectPath decodes it.
		abs, err := projectPath("/", l.RawPath)
		if err != nil {
			return fail(err)
		}
		rel, err := filepath.Rel(r.root, filepath.FromSlash("/"+abs))
		if err != nil {
			return fail(fmt.Errorf("%w: %v", ErrOutsideRoot, err))
		}
		segs := strings.Split(filepath.ToSlash(rel), "/")
		for i, seg := range segs {
			segs[i] = url.PathEscape(seg)
		}
		l.RawPath = "/" + strings.Join(segs, "/")
	case "http", "https":
		return r.resolveRemote(doc, dest, res)
	default:
		return nil, ErrNotOurs
	}
	// The path first, so that an *Error for a bad fragment still names the
	// file (refs lists broken links by the file they name).
	p, pathErr := projectPath(doc, l.RawPath)
	if pathErr == nil {
		res.Path = p
	}
	f, err := rfc5147.Parse(l.Fragment)
	if err != nil {
		return fail(err)
	}
	res.Fragment = f
	if pathErr != nil {
		return fail(pathErr)
	}
	e, err := r.load(p)
	if err != nil {
		return fail(err)
	}
	if e.text != nil {
		res.Selection, err = e.text.Select(f)
	} else {
		res.Selection, err = r.stream(e, p, f)
	}
	return selected(doc, dest, res, err)
}

// claims reports whether Resolve would read dest rather than return
// ErrNotOurs: an RFC 5147 fragment on a local path, a local file URI, or
// an http(s) URL on an allowed host.
func (r *Resolver) claims(dest string) bool {
	l := SplitLink(dest)
	if !l.HasFragment || !rfc5147.IsCandidate(l.Fragment) {
		return false
	}
	switch l.Scheme {
	case "":
		return !strings.HasPrefix(l.RawPath, "//")
	case "file":
		return true
	case "http", "https":
		if r.remote == nil {
			return false
		}
		u, ok := remoteURL(dest)
		return ok && r.remote.allows(u)
	}
	return false
}

// selected returns res, or the selection error err as an *Error that
// carries res when it has a selection (integrity errors).
func selected(doc, dest string, res *Result, err error) (*Result, error) {
	if err != nil {
		ee := &Error{Doc: doc, Link: dest, Path: res.Path, Err: err}
		if res.Selection != nil {
			ee.Result = res
		}
		return nil, ee
	}
	return res, nil
}

// resolveRemote resolves an http or https link: not ours unless its host
// is allowed; then fetched once per Resolver, and selected and verified as
// a local file is.
func (r *Resolver) resolveRemote(doc, dest string, res *Result) (*Result, error) {
	if r.remote == nil {
		return nil, ErrNotOurs
	}
	u, ok := remoteURL(dest)
	if !ok || !r.remote.allows(u) {
		return nil, ErrNotOurs
	}
	res.Path = u.String()
	fail := func(err error) (*Result, error) {
		return nil, &Error{Doc: doc, Link: dest, Path: res.Path, Err: err}
	}
	f, err := rfc5147.Parse(res.Link.Fragment)
	if err != nil {
		return fail(err)
	}
	res.Fragment = f
	e := r.entry(res.Path)
	e.once.Do(func() { e.err = r.fillRemote(e, u) })
	if e.err != nil {
		return fail(e.err)
	}
	res.Remote = e.remote
	res.Selection, err = e.text.Select(f)
	return selected(doc, dest, res, err)
}

// fillRemote fetches the remote target at u into e.
func (r *Resolver) fillRemote(e *entry, u *url.URL) error {
	ent, err := r.remote.fetch(u)
	if err != nil {
		return err
	}
	r.reads.Add(1)
	r.mu.Lock()
	e.reads++
	r.mu.Unlock()
	e.remote = &ent.info
	e.text, err = rfc5147.NewText(ent.body, ent.charset)
	if err != nil && ent.info.ContentType != "" {
		err = fmt.Errorf("%w (%s, served as %q)", err, u.Redacted(), ent.info.ContentType)
	}
	return err
}

// Reads returns how many times files have been opened and read in full, and
// remote targets fetched (or read from the disk cache).
func (r *Resolver) Reads() int64 { return r.reads.Load() }

// Stored returns the bytes of the local file at project path p as this
// Resolver read them, the ones its quotes of p were taken from and checked
// against, when it holds them: false for a file not read yet, read with an
// error, streamed (larger than CacheLimit) or remote. With an Overlay, the
// overlay's bytes. A build that publishes the quoted file publishes these,
// so that the copy is the text its boxes show even if the file changed
// since. Do not modify them.
func (r *Resolver) Stored(p string) ([]byte, bool) {
	r.mu.Lock()
	e, ok := r.entries[p]
	r.mu.Unlock()
	if !ok {
		return nil, false
	}
	if !e.loaded.Load() || e.err != nil || e.text == nil || e.remote != nil {
		return nil, false
	}
	return e.raw, true
}

// ReadsOf returns how many times the file at project path p (or the remote
// target with URL p) was read.
func (r *Resolver) ReadsOf(p string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.entries[p]; ok {
		return e.reads
	}
	return 0
}

// load finds, checks and (if small) reads the file at project path p, once.
func (r *Resolver) load(p string) (*entry, error) {
	e := r.entry(p)
	e.once.Do(func() {
		e.err = r.fill(e, p)
		e.loaded.Store(true)
	})
	return e, e.err
}

// entry returns the cache entry for key (a project path or a URL), made
// empty if there is none yet. Project paths are cleaned, so they never hold
// "//" and never equal a URL.
func (r *Resolver) entry(key string) *entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.entries[key]
	if !ok {
		e = &entry{}
		r.entries[key] = e
	}
	return e
}

func (r *Resolver) fill(e *entry, p string) error {
	m, rel, info, err := r.locate(p)
	if err != nil {
		return err
	}
	if err := r.checkSecrets(p, realProjectPath(m, rel)); err != nil {
		return err
	}
	f, info, err := r.open(m, p, rel, info)
	if err != nil {
		return err
	}
	defer f.Close()
	cs := r.charsetOf(p)
	if r.overlay != nil {
		if raw, ok := r.overlay(p); ok {
			return r.keep(e, raw, cs)
		}
	}
	if info.Size() > r.cacheLimit && cs.IsUTF8() {
		return nil // streamed per link
	}
	raw := make([]byte, 0, info.Size()+1)
	for {
		n, err := f.Read(raw[len(raw):cap(raw)])
		raw = raw[:len(raw)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return r.openError(p, err)
		}
		if len(raw) == cap(raw) {
			raw = append(raw, 0)[:len(raw)] // the file grew: read on
		}
	}
	return r.keep(e, raw, cs)
}

// keep holds raw, the whole of a file (or its editor buffer), as e's
// decoded text, and counts the read.
func (r *Resolver) keep(e *entry, raw []byte, cs rfc5147.Charset) error {
	r.reads.Add(1)
	r.mu.Lock()
	e.reads++
	r.mu.Unlock()
	var err error
	e.text, err = rfc5147.NewText(raw, cs)
	e.raw = raw
	return err
}

// open opens the regular file at rel in m (project path p) for reading.
// It never blocks: a FIFO is opened non-blocking, and whatever is found
// open is checked again, so a file swapped for a FIFO or a device after
// the first check is refused too. info, if not nil, is what locate found
// at rel: the file is not looked up a second time before it is opened (in
// an os.Root each lookup opens every directory on the path).
func (r *Resolver) open(m mount, p, rel string, info fs.FileInfo) (fs.File, fs.FileInfo, error) {
	if info == nil {
		var err error
		if info, err = fs.Stat(m.fsys, rel); err != nil {
			return nil, nil, r.openError(p, err)
		}
	}
	switch {
	case info.IsDir():
		return nil, nil, fmt.Errorf("%w: %s", ErrIsDirectory, p)
	case !info.Mode().IsRegular():
		return nil, nil, fmt.Errorf("%w: %s is %w but %s", rfc5147.ErrNotText, p, realm.ErrNotRegular, realm.Kind(info.Mode()))
	}
	if m.osRoot != nil {
		f, info, err := realm.Open(m.osRoot, rel)
		switch {
		case errors.Is(err, realm.ErrNotRegular):
			return nil, nil, fmt.Errorf("%w: %s is %w", rfc5147.ErrNotText, p, realm.ErrNotRegular)
		case err != nil:
			return nil, nil, r.openError(p, err)
		}
		return f, info, nil
	}
	f, err := m.fsys.Open(rel)
	if err != nil {
		return nil, nil, r.openError(p, err)
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s is %w", rfc5147.ErrNotText, p, realm.ErrNotRegular)
	}
	return f, info, nil
}

func (r *Resolver) stream(e *entry, p string, f rfc5147.Fragment) (*rfc5147.Selection, error) {
	m, rel, info, err := r.locate(p)
	if err != nil {
		return nil, err
	}
	file, _, err := r.open(m, p, rel, info)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	r.reads.Add(1)
	r.mu.Lock()
	e.reads++
	r.mu.Unlock()
	return rfc5147.SelectReader(file, f)
}

// realProjectPath returns the project path of rel in m after following
// every symlink on it, or "" when m is not an OS directory or the path
// does not resolve inside it (opening it then fails).
func realProjectPath(m mount, rel string) string {
	real, ok := m.real.Inside(rel)
	if !ok {
		return ""
	}
	return path.Join(m.dir, real)
}

// locate finds the allowed root holding project path p, and p's path inside
// it, matching a name stored in NFD against one written in NFC and back.
// When it looked the file up there, it returns what it found (else nil).
func (r *Resolver) locate(p string) (mount, string, fs.FileInfo, error) {
	for _, m := range r.mounts {
		rel, ok := within(m.dir, p)
		if !ok {
			continue
		}
		if rel == "." {
			return m, rel, nil, nil
		}
		found, info, err := findNormalized(m.fsys, rel)
		if err != nil {
			err = r.openError(p, err)
			if errors.Is(err, ErrOutsideRoot) {
				// os.Root refuses absolute symlinks even when they
				// point inside the root; SEMANTICS.md §5 judges the
				// real path. It has no symlinks left, and opening it
				// through os.Root still refuses one swapped in since.
				if real, ok := m.real.Inside(rel); ok {
					return m, real, nil, nil
				}
			}
			return m, rel, nil, err
		}
		return m, found, info, nil
	}
	return mount{}, "", nil, fmt.Errorf("%w: %s", ErrOutsideRoot, p)
}

// findNormalized returns rel and what fs.Stat says of it if it exists;
// otherwise, for each missing component, the directory entry equal to it
// under Unicode NFC (and no FileInfo).
func findNormalized(fsys fs.FS, rel string) (string, fs.FileInfo, error) {
	info, err := fs.Stat(fsys, rel)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || isASCII(rel) {
		return rel, info, err
	}
	parts := strings.Split(rel, "/")
	dir := "."
	for i, part := range parts {
		next := path.Join(dir, part)
		if _, err := fs.Stat(fsys, next); err == nil {
			dir = next
			continue
		}
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return rel, nil, err
		}
		want := norm.NFC.String(part)
		match := ""
		for _, de := range entries {
			if norm.NFC.String(de.Name()) == want {
				match = de.Name()
				break
			}
		}
		if match == "" {
			return rel, nil, fs.ErrNotExist
		}
		parts[i] = match
		dir = path.Join(dir, match)
	}
	return dir, nil, nil
}

func (r *Resolver) openError(p string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.ENAMETOOLONG):
		// ENOTDIR: a file named as a directory ("a.txt/b"); ENAMETOOLONG:
		// a name longer than the file system allows. Neither names a file.
		return fmt.Errorf("%w: no file %s", ErrNotFound, p)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%w: %s: too many levels of symbolic links", ErrNotFound, p)
	case strings.Contains(err.Error(), "escapes from parent"), strings.Contains(err.Error(), "invalid argument"):
		// os.Root refuses symlinks that lead out of the root.
		return fmt.Errorf("%w: %s leads outside through a symlink", ErrOutsideRoot, p)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%w: %s: permission denied", ErrNotFound, p)
	}
	return err
}

// Charset returns the charset the resolver reads the file at project path
// p in, as configured: the charset of the first Options.Charsets rule whose
// glob matches p, else rfc5147.UTF8 (the default). A byte-order mark in the
// file can still override it when the text is made (rfc5147.NewText reads
// a UTF-16 one). A caller that decodes another version of the same file
// (an older one from history) passes this to rfc5147.NewText to read it
// as the resolver reads the file now.
func (r *Resolver) Charset(p string) rfc5147.Charset { return r.charsetOf(p) }

func (r *Resolver) charsetOf(p string) rfc5147.Charset {
	for _, c := range r.charsets {
		subject := p
		if !strings.Contains(c.glob, "/") {
			subject = path.Base(p)
		}
		if ok, _ := path.Match(c.glob, subject); ok {
			return c.charset
		}
	}
	return rfc5147.UTF8
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
