package target

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/internal/realm"
)

// Remote targets (SEMANTICS.md §5): an http or https link is fetched only
// when its host is allowed, with a timeout, a size limit and an on-disk
// cache; any other remote link is left as a link (ErrNotOurs).
//
//	https://example.org/a.txt#line=1,9
//	  └─ AllowHosts: not allowed ─▶ ErrNotOurs (a plain link)
//	  └─ once per URL per Resolver: Offline? the disk cache only
//	     └─ GET, following at most MaxRedirects redirects, each to an allowed host
//	     └─ 200: read at most MaxBytes; 304: the cached copy
//	     └─ no answer (network error, timeout, 5xx): the cached copy, with a warning
//	  └─ Content-Type: text/* or a textual application type; its charset, else UTF-8
//	  └─ rfc5147: select and verify, exactly as for a local file

// Defaults for RemoteOptions.
const (
	// DefaultRemoteTimeout bounds one whole fetch: connecting, redirects,
	// and reading the body.
	DefaultRemoteTimeout = 10 * time.Second
	// DefaultRemoteMaxBytes is the largest remote entity read (8 MiB).
	DefaultRemoteMaxBytes = 8 << 20
	// MaxRedirects is the most redirects one fetch follows.
	MaxRedirects = 5
)

// ErrRemote: a remote target on an allowed host could not be fetched: the
// server answered with a status other than 200, the fetch timed out, the
// entity is larger than the limit, a redirect led to a host that is not
// allowed, the Content-Type names an unknown charset, or (offline) it is not
// in the cache. It fails the build like a missing file.
var ErrRemote = errors.New("remote target cannot be fetched")

// RemoteOptions enable remote (http, https) targets. The zero value enables
// none: every remote link is left as a link, and the Resolver does no
// network I/O.
type RemoteOptions struct {
	// AllowHosts are the hosts targets may be fetched from. Each entry is a
	// host name or IP address ("example.org", "192.0.2.1", "[2001:db8::1]"),
	// optionally with a port ("example.org:8443"); "*.example.org" allows
	// every subdomain of example.org at any depth, but not example.org
	// itself. Without a port an entry allows the scheme's default port only
	// (80 for http, 443 for https). Host names compare case-insensitively,
	// as written in links (no IDNA conversion). Links to other hosts are
	// left as links; redirects to other hosts fail.
	AllowHosts []string
	// Timeout bounds one whole fetch, redirects and body included.
	// Default DefaultRemoteTimeout.
	Timeout time.Duration
	// MaxBytes is the largest entity fetched; a larger one fails, whatever
	// its Content-Length says. Default DefaultRemoteMaxBytes.
	MaxBytes int64
	// CacheDir, if set, keeps every entity fetched on disk, in
	// CacheDir/http/, so that later builds can run offline. Default: "", no
	// disk cache.
	CacheDir string
	// Offline reads remote targets from CacheDir only, never from the
	// network; a target not in the cache fails. It needs CacheDir.
	Offline bool
	// Client makes the requests, for tests and proxies. Its Transport and
	// Jar are used; its Timeout is replaced by Timeout, and its
	// CheckRedirect runs after the allowlist's. Default: a client with
	// http.DefaultTransport.
	Client *http.Client
}

// RemoteInfo tells where the text of a remote target came from.
type RemoteInfo struct {
	// URL is the URL fetched, without fragment: the Result's Path.
	URL string
	// FinalURL is where the last redirect led (URL when there was none).
	FinalURL string
	// ContentType is the Content-Type the server gave.
	ContentType string
	// FetchedAt is when the server sent these bytes.
	FetchedAt time.Time
	// FromCache reports that the bytes came from the disk cache: offline,
	// not modified since (304), or because the fetch failed (Stale).
	FromCache bool
	// Stale, when not empty, is why the fetch failed, so that the cached
	// copy was used instead. Warnings reports it.
	Stale string
	// CacheError, when not empty, is why the entity could not be stored in
	// the disk cache. Warnings reports it.
	CacheError string
}

// IsRemote reports whether p, a Result's or an Error's Path, is the URL of
// a remote target rather than a project path (which never holds "//").
func IsRemote(p string) bool {
	return strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://")
}

// remoteFetcher gets remote entities. A Resolver holds one only when
// RemoteOptions allow some host, so that it does no network I/O otherwise.
type remoteFetcher interface {
	// allows reports whether u (http or https) may be fetched.
	allows(u *url.URL) bool
	// fetch returns the entity at u, a URL without fragment.
	fetch(u *url.URL) (*remoteEntity, error)
}

// remoteEntity is a fetched entity: its bytes as sent, and the charset its
// Content-Type gives them.
type remoteEntity struct {
	body    []byte
	charset rfc5147.Charset
	info    RemoteInfo
	// etag and lastModified are the response's validators, kept in the
	// cache for conditional requests.
	etag, lastModified string
}

// hostPattern is one AllowHosts entry.
type hostPattern struct {
	host     string // lower case, IPv6 without brackets; for a wildcard, the suffix ".example.org"
	wildcard bool
	port     string // "" for the scheme's default port
}

// parseHostPattern parses an AllowHosts entry.
func parseHostPattern(s string) (hostPattern, error) {
	in := s
	s = strings.ToLower(strings.TrimSpace(s))
	if strings.Contains(s, "/") || strings.Contains(s, "@") {
		return hostPattern{}, fmt.Errorf("allowed host %q: write a host name, optionally with :PORT, not a URL", in)
	}
	host, port := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		host, port = h, p
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port != strconv.Itoa(n) {
			return hostPattern{}, fmt.Errorf("allowed host %q: bad port %q", in, port)
		}
	} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		host = s[1 : len(s)-1]
	}
	host = strings.TrimSuffix(host, ".")
	p := hostPattern{host: host, port: port}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		p.wildcard, p.host = true, "."+rest
		host = rest
	}
	if host == "" || strings.ContainsAny(host, "*[]") {
		return hostPattern{}, fmt.Errorf(`allowed host %q: write a host such as "example.org", "example.org:8443" or "*.example.org"`, in)
	}
	for _, c := range host {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == ':' || c == '_' || c >= 0x80) {
			return hostPattern{}, fmt.Errorf("allowed host %q: %q is not allowed in a host name", in, c)
		}
	}
	return p, nil
}

// matches reports whether the pattern allows host (lower case, no
// brackets) on port (never "") for scheme.
func (p hostPattern) matches(scheme, host, port string) bool {
	want := p.port
	if want == "" {
		want = defaultPort(scheme)
	}
	if port != want {
		return false
	}
	if p.wildcard {
		return len(host) > len(p.host) && strings.HasSuffix(host, p.host)
	}
	return host == p.host
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// remoteURL parses the destination of an http or https link, without its
// fragment, with scheme and host in lower case. ok is false when it is not
// a usable http(s) URL.
func remoteURL(dest string) (*url.URL, bool) {
	if i := strings.IndexByte(dest, '#'); i >= 0 {
		dest = dest[:i]
	}
	u, err := url.Parse(dest)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
		return nil, false
	}
	u.Host = strings.ToLower(u.Host)
	return u, true
}

// httpFetcher is the remoteFetcher of RemoteOptions.
type httpFetcher struct {
	allow    []hostPattern
	client   *http.Client
	timeout  time.Duration
	maxBytes int64
	cache    *diskCache // nil without CacheDir
	offline  bool
}

func newHTTPFetcher(o RemoteOptions) (*httpFetcher, error) {
	f := &httpFetcher{timeout: o.Timeout, maxBytes: o.MaxBytes, offline: o.Offline}
	if f.timeout == 0 {
		f.timeout = DefaultRemoteTimeout
	}
	if f.maxBytes == 0 {
		f.maxBytes = DefaultRemoteMaxBytes
	}
	if f.timeout < 0 || f.maxBytes < 0 {
		return nil, errors.New("remote targets: the timeout and the size limit must be positive")
	}
	for _, h := range o.AllowHosts {
		p, err := parseHostPattern(h)
		if err != nil {
			return nil, err
		}
		f.allow = append(f.allow, p)
	}
	if o.CacheDir != "" {
		f.cache = openDiskCache(o.CacheDir)
	} else if o.Offline {
		return nil, errors.New("remote targets: offline mode needs a cache directory")
	}
	c := &http.Client{}
	if o.Client != nil {
		cp := *o.Client
		c = &cp
	}
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		switch {
		case len(via) > MaxRedirects:
			return &redirectError{fmt.Sprintf("more than %d redirects", MaxRedirects)}
		case !f.allows(req.URL):
			return &redirectError{fmt.Sprintf("redirected to %s, which is not on an allowed host", redact(req.URL))}
		case via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme == "http":
			return &redirectError{fmt.Sprintf("redirected from https to %s, which is not secure", redact(req.URL))}
		case next != nil:
			return next(req, via)
		}
		return nil
	}
	c.Timeout = f.timeout
	f.client = c
	return f, nil
}

// redirectError is a redirect refused.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

func (f *httpFetcher) allows(u *url.URL) bool {
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	port := u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	for _, p := range f.allow {
		if p.matches(u.Scheme, host, port) {
			return true
		}
	}
	return false
}

// fetch gets u from the network, or from the cache when offline, when not
// modified, or when the network fails (an outage, not an answer).
func (f *httpFetcher) fetch(u *url.URL) (*remoteEntity, error) {
	key := u.String()
	var cached *cacheEntry
	if f.cache != nil {
		cached = f.cache.load(key, f.maxBytes)
	}
	if f.offline {
		if cached == nil && f.cache.err != nil {
			return nil, fmt.Errorf("%w: %s: remote targets are offline, and the cache (%s) cannot be used: %v", ErrRemote, redact(u), f.cache.dir, f.cache.err)
		}
		if cached == nil {
			return nil, fmt.Errorf("%w: %s is not in the cache (%s) and remote targets are offline; build once online to fill the cache (an entry this user's textfrag did not write is not used)", ErrRemote, redact(u), f.cache.dir)
		}
		return cached.entity(), nil
	}
	ent, notModified, err := f.get(u, cached)
	if err != nil {
		var fe *fetchError
		if cached != nil && errors.As(err, &fe) && fe.outage {
			e := cached.entity()
			e.info.Stale = fe.Error()
			return e, nil
		}
		return nil, err
	}
	if notModified {
		return cached.entity(), nil
	}
	if f.cache != nil {
		if err := f.cache.store(key, ent); err != nil {
			ent.info.CacheError = err.Error()
		}
	}
	return ent, nil
}

// fetchError is a fetch that failed; outage marks failures that say
// nothing about the entity (network errors, timeouts, 5xx), for which a
// cached copy may stand in.
type fetchError struct {
	err    error
	outage bool
}

func (e *fetchError) Error() string { return e.err.Error() }
func (e *fetchError) Unwrap() error { return e.err }

// get makes one GET request, conditional when a cached copy has validators.
func (f *httpFetcher) get(u *url.URL, cached *cacheEntry) (*remoteEntity, bool, error) {
	fail := func(outage bool, format string, args ...any) (*remoteEntity, bool, error) {
		return nil, false, &fetchError{err: fmt.Errorf("%w: %s: "+format, append([]any{ErrRemote, redact(u)}, args...)...), outage: outage}
	}
	req, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return fail(false, "%v", err)
	}
	req.Header.Set("User-Agent", "textfrag (RFC 5147 text fragments)")
	req.Header.Set("Accept", "text/plain, text/*;q=0.9, */*;q=0.5")
	if cached != nil {
		if cached.meta.ETag != "" {
			req.Header.Set("If-None-Match", cached.meta.ETag)
		}
		if cached.meta.LastModified != "" {
			req.Header.Set("If-Modified-Since", cached.meta.LastModified)
		}
	}
	resp, err := f.client.Do(req)
	if err != nil {
		var re *redirectError
		var ue *url.Error
		switch {
		case errors.As(err, &re):
			return fail(false, "%s", re.msg)
		case errors.As(err, &ue) && ue.Timeout():
			return fail(true, "no complete answer within %s", f.timeout)
		case errors.As(err, &ue):
			return fail(true, "%v", ue.Err)
		}
		return fail(true, "%v", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && cached != nil:
		return nil, true, nil
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusRequestTimeout:
		return fail(true, "the server answered %s", resp.Status)
	case resp.StatusCode != http.StatusOK:
		return fail(false, "the server answered %s, not 200 OK", resp.Status)
	case resp.ContentLength > f.maxBytes:
		return fail(false, "%d bytes, more than the limit of %d", resp.ContentLength, f.maxBytes)
	}
	// Content-Length is not trusted: the limit holds while reading.
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.maxBytes+1))
	if err != nil {
		if isTimeout(err) {
			return fail(true, "no complete answer within %s", f.timeout)
		}
		return fail(true, "reading the body: %v", err)
	}
	if int64(len(body)) > f.maxBytes {
		return fail(false, "more than the limit of %d bytes", f.maxBytes)
	}
	ct := resp.Header.Get("Content-Type")
	cs, err := textCharset(ct)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", redact(u), err)
	}
	return &remoteEntity{
		body: body, charset: cs,
		info: RemoteInfo{URL: u.String(), FinalURL: resp.Request.URL.String(), ContentType: ct, FetchedAt: time.Now().UTC()},
		etag: resp.Header.Get("ETag"), lastModified: resp.Header.Get("Last-Modified"),
	}, false, nil
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// redact returns u for messages, without any password.
func redact(u *url.URL) string { return u.Redacted() }

// textCharset returns the charset of an entity with Content-Type ct: its
// charset parameter, else UTF-8 (SEMANTICS.md §3). A media type that is
// not text is ErrNotText; a charset that is not known is ErrRemote.
func textCharset(ct string) (rfc5147.Charset, error) {
	if strings.TrimSpace(ct) == "" {
		return rfc5147.UTF8, nil // unlabelled: UTF-8 text if its bytes are
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return rfc5147.Charset{}, fmt.Errorf("%w: malformed Content-Type %q", ErrRemote, ct)
	}
	if !isTextual(mt) {
		return rfc5147.Charset{}, &rfc5147.TextError{Msg: fmt.Sprintf("not text: the server labels it %s; RFC 5147 fragments apply to text (text/*, or a textual type such as application/json)", mt)}
	}
	name := params["charset"]
	if name == "" {
		return rfc5147.UTF8, nil
	}
	cs, err := rfc5147.LookupCharset(name)
	if err != nil {
		return rfc5147.Charset{}, fmt.Errorf("%w: its Content-Type names %w", ErrRemote, err)
	}
	return cs, nil
}

// isTextual reports whether a media type (lower case, no parameters) is text.
func isTextual(mt string) bool {
	if strings.HasPrefix(mt, "text/") {
		return true
	}
	sub, ok := strings.CutPrefix(mt, "application/")
	if !ok {
		return false
	}
	for _, suffix := range []string{"+json", "+xml", "+yaml"} {
		if strings.HasSuffix(sub, suffix) {
			return true
		}
	}
	switch sub {
	case "json", "xml", "javascript", "ecmascript", "x-javascript", "yaml", "x-yaml", "toml", "x-toml",
		"sql", "x-sh", "x-shellscript", "x-httpd-php", "x-python", "x-perl", "x-ruby", "x-tex", "x-latex",
		"xhtml+xml", "markdown", "x-markdown", "graphql", "ld+json":
		return true
	}
	return false
}

// diskCache keeps fetched entities in CacheDir/http, two files per URL
// named by the SHA-256 of the URL: NAME.json (cacheMeta) and NAME.body (the
// bytes as sent). Both are replaced by renaming, so readers never see half
// a file. The directory may lie in the repository (cacheDir in
// textfrag.toml), where a pull request can commit files: so it is read and
// written through an os.Root (realm.Cache: no link out is followed, only
// regular files are read, each bounded), and each entry carries an HMAC
// under the per-user key (realm.CacheKey), over its metadata and the
// SHA-256 of its body. An entry whose HMAC does not hold (a forgery, or an
// entry another user's key made), whose body does not match, or whose
// metadata names another URL is not used: offline, it is missing.
type diskCache struct {
	dir string
	c   *realm.Cache // nil when the directory or the key is unusable
	err error        // why c is nil
}

// cacheSubdir is the directory of CacheDir that holds fetched entities.
const cacheSubdir = "http"

// maxMetaBytes bounds a metadata file (a few hundred bytes when written).
const maxMetaBytes = 64 << 10

// metaDomain separates the HMACs of remote entries from other caches'.
const metaDomain = "textfrag-remote-entry/1"

// openDiskCache opens CacheDir for the remote cache.
func openDiskCache(dir string) *diskCache {
	d := &diskCache{dir: filepath.Join(dir, cacheSubdir)}
	key, err := realm.CacheKey()
	if err == nil {
		d.c, err = realm.OpenCache(dir, key)
	}
	d.err = err
	return d
}

// cacheMeta is the metadata file of a cache entry.
type cacheMeta struct {
	URL          string    `json:"url"`
	FinalURL     string    `json:"final_url,omitempty"`
	ContentType  string    `json:"content_type,omitempty"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
	FetchedAt    time.Time `json:"fetched_at"`
	Size         int64     `json:"size"`
	SHA256       string    `json:"sha256"`
	// MAC is the HMAC of the fields above (macFields), in hex.
	MAC string `json:"mac"`
}

// macFields are the metadata an entry's HMAC covers: all of it but MAC.
func (m *cacheMeta) macFields() [][]byte {
	return [][]byte{[]byte(metaDomain), []byte(m.URL), []byte(m.FinalURL), []byte(m.ContentType), []byte(m.ETag), []byte(m.LastModified),
		[]byte(m.FetchedAt.UTC().Format(time.RFC3339Nano)), []byte(strconv.FormatInt(m.Size, 10)), []byte(m.SHA256)}
}

type cacheEntry struct {
	meta cacheMeta
	body []byte
}

// names returns the slash paths, in the cache directory, of the URL key's
// two files.
func (c *diskCache) names(key string) (meta, body string) {
	sum := sha256.Sum256([]byte(key))
	name := cacheSubdir + "/" + hex.EncodeToString(sum[:])
	return name + ".json", name + ".body"
}

// load returns the cached entry for the URL key, or nil.
func (c *diskCache) load(key string, maxBytes int64) *cacheEntry {
	if c.c == nil {
		return nil
	}
	metaName, bodyName := c.names(key)
	raw, err := c.c.Read(metaName, maxMetaBytes)
	if err != nil {
		return nil
	}
	var e cacheEntry
	if json.Unmarshal(raw, &e.meta) != nil || e.meta.URL != key || e.meta.Size < 0 || e.meta.Size > maxBytes {
		return nil
	}
	mac, err := hex.DecodeString(e.meta.MAC)
	if err != nil || !c.c.Verify(mac, e.meta.macFields()...) {
		return nil
	}
	e.body, err = c.c.Read(bodyName, max(e.meta.Size, 1))
	if err != nil {
		return nil
	}
	sum := sha256.Sum256(e.body)
	if int64(len(e.body)) != e.meta.Size || hex.EncodeToString(sum[:]) != e.meta.SHA256 {
		return nil
	}
	if _, err := textCharset(e.meta.ContentType); err != nil {
		return nil
	}
	return &e
}

// entity returns the cached entry as a fetched entity.
func (e *cacheEntry) entity() *remoteEntity {
	cs, _ := textCharset(e.meta.ContentType) // checked by load
	return &remoteEntity{body: e.body, charset: cs, info: RemoteInfo{
		URL: e.meta.URL, FinalURL: e.meta.FinalURL, ContentType: e.meta.ContentType, FetchedAt: e.meta.FetchedAt, FromCache: true,
	}}
}

// store writes ent to the cache under the URL key.
func (c *diskCache) store(key string, ent *remoteEntity) error {
	if c.c == nil {
		return c.err
	}
	sum := sha256.Sum256(ent.body)
	meta := cacheMeta{
		URL: key, FinalURL: ent.info.FinalURL, ContentType: ent.info.ContentType,
		ETag: ent.etag, LastModified: ent.lastModified, FetchedAt: ent.info.FetchedAt.UTC(),
		Size: int64(len(ent.body)), SHA256: hex.EncodeToString(sum[:]),
	}
	mac := c.c.Sum(meta.macFields()...)
	meta.MAC = hex.EncodeToString(mac[:])
	raw, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	metaName, bodyName := c.names(key)
	if err := c.c.Write(bodyName, ent.body); err != nil {
		return err
	}
	return c.c.Write(metaName, raw)
}
