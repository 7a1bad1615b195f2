package textfrag

import (
	"fmt"
	"io/fs"
	"math"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// Defaults for the options below.
const (
	// DefaultMaxLines is the most lines one box may show.
	DefaultMaxLines = 500
	// DefaultMaxBytes is the most bytes of text one box may show.
	DefaultMaxBytes = 256 << 10
	// DefaultStyle is the chroma style of DefaultCSS's light scheme.
	DefaultStyle = "github"
	// DefaultPriority is the priority of textfrag's AST transformer:
	// goldmark runs transformers from the lowest value up, and 50 comes
	// before goldmark's own (footnotes, 999) and the 100 to 1000 extensions
	// commonly use, so that links are verified as written, before another
	// transformer rewrites them (to absolute URLs for a base URL, say).
	DefaultPriority = 50
)

// config is what the options set; see New for the defaults.
type config struct {
	resolver      *target.Resolver
	targetOptions target.Options
	maxLines      int
	maxBytes      int
	truncate      bool
	highlight     bool
	cache         highlight.Cache
	sourceURL     string
	lenient       bool
	warningsFatal bool
	priority      int
	unpinned      bool
}

func newConfig(opts []Option) *config {
	c := &config{maxLines: DefaultMaxLines, maxBytes: DefaultMaxBytes, highlight: true, priority: DefaultPriority}
	for _, o := range opts {
		o.apply(c)
	}
	return c
}

// Option configures the extension. Options are applied in order.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithRoot sets the project root: where links starting with '/' resolve and,
// unless WithAllowedRoots says otherwise, the only directory targets may lie
// in. Default: the current working directory.
func WithRoot(dir string) Option {
	return optionFunc(func(c *config) { c.targetOptions.Root = dir })
}

// WithAllowedRoots sets the directories targets may lie in, after following
// symlinks, relative to the root or absolute. Default: the root alone.
func WithAllowedRoots(dirs ...string) Option {
	return optionFunc(func(c *config) { c.targetOptions.AllowedRoots = dirs })
}

// WithFS reads targets from fsys, which is then the project root and the
// only allowed root. Document paths (SetDocument) are paths in fsys.
func WithFS(fsys fs.FS) Option {
	return optionFunc(func(c *config) { c.targetOptions.FS = fsys })
}

// WithCharsets declares the charset of files matching each glob; other files
// are UTF-8 (or UTF-16 with a BOM).
func WithCharsets(rules ...target.CharsetRule) Option {
	return optionFunc(func(c *config) { c.targetOptions.Charsets = rules })
}

// WithRemote enables remote targets: http and https links to the hosts
// o.AllowHosts allows are fetched and quoted like local files, and fail the
// conversion when they cannot be fetched (status other than 200, timeout,
// too large, a redirect to a host not allowed, not text). Links to other
// hosts stay plain links. Defaults: no host allowed (remote links are left
// alone and nothing is fetched); o.Timeout target.DefaultRemoteTimeout
// (10s) for each whole fetch; o.MaxBytes target.DefaultRemoteMaxBytes
// (8 MiB); at most target.MaxRedirects redirects, each to an allowed host;
// o.CacheDir "" (no disk cache, so nothing is kept between Resolvers);
// o.Offline false. A target's charset comes from its Content-Type, else
// UTF-8. See target.RemoteOptions.
func WithRemote(o target.RemoteOptions) Option {
	return optionFunc(func(c *config) { c.targetOptions.Remote = o })
}

// WithAllowSecrets names, by glob, files that are quoted although they
// commonly hold secrets. Default: none; anything below a .git, .ssh or .aws
// directory, .docker/config.json, .env, .env.*, .netrc, .npmrc, .pypirc,
// *.pem and *.key are outside the realm (SEMANTICS.md §5). See
// target.Options.AllowSecrets for how globs match.
func WithAllowSecrets(globs ...string) Option {
	return optionFunc(func(c *config) { c.targetOptions.AllowSecrets = globs })
}

// WithSymbols adds parsers for the languages whose declarations sym= names
// (a link title option), merged over symbol.Default(), which knows Go: the
// set's parsers replace the default's for the languages both know. The
// tree-sitter parsers (Python, JavaScript, TypeScript, Rust, Java, C, C++)
// are in package goldmark-textfrag/symbol/treesitter, which needs cgo:
// textfrag.WithSymbols(treesitter.Parsers()). Default: nil, Go only.
// region= needs no parser. With WithResolver, the Resolver's own
// target.Options.Symbols are used instead.
func WithSymbols(set symbol.Set) Option {
	return optionFunc(func(c *config) { c.targetOptions.Symbols = set })
}

// WithResolver uses r to find and read targets, instead of one made from
// WithRoot, WithAllowedRoots, WithFS, WithCharsets, WithRemote,
// WithAllowSecrets and WithSymbols. Without it, each conversion reads the
// files it quotes afresh (once per conversion, however many links, and
// parses each at most once for sym= names), so a long-lived
// goldmark instance always quotes files as they are. With it, r is shared:
// each file is read once across every document r serves, and r keeps what
// it read (see target.Resolver) until r.Forget is called, so share one
// across the documents of a build, and call Forget, or make a new one,
// before the next build.
func WithResolver(r *target.Resolver) Option {
	return optionFunc(func(c *config) { c.resolver = r })
}

// WithMaxLines sets the most lines one box may show: 0 means the default,
// DefaultMaxLines, and a negative number means no limit. A larger selection
// is an error, or is cut with a visible marker under WithTruncation.
func WithMaxLines(n int) Option {
	return optionFunc(func(c *config) { c.maxLines = limit(n, DefaultMaxLines) })
}

// WithMaxBytes sets the most bytes of text one box may show: 0 means the
// default, DefaultMaxBytes, and a negative number means no limit. A larger
// selection has the same effect as with WithMaxLines.
func WithMaxBytes(n int) Option {
	return optionFunc(func(c *config) { c.maxBytes = limit(n, DefaultMaxBytes) })
}

// limit is a limit as the options take it: 0 is the default, a negative
// number none.
func limit(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return math.MaxInt
	}
	return n
}

// WithTruncation cuts boxes over the limits, with a marker saying how many
// lines are not shown, instead of failing. Default: off.
func WithTruncation(on bool) Option {
	return optionFunc(func(c *config) { c.truncate = on })
}

// WithHighlighting turns chroma syntax highlighting on or off (default on).
// Off, boxes are still numbered, with the "text" lexer.
func WithHighlighting(on bool) Option {
	return optionFunc(func(c *config) { c.highlight = on })
}

// WithHighlightCache keeps box bodies in cache once written, so that a box
// whose lines, language and numbering were written before is copied instead
// of lexed again: highlight.DirCache keeps them from one build to the next,
// highlight.MemoryCache for the life of a process. The output is the same
// with or without a cache. Default: nil, every box is lexed.
func WithHighlightCache(cache highlight.Cache) Option {
	return optionFunc(func(c *config) { c.cache = cache })
}

// WithSourceURL makes each box's caption link to a URL made from template,
// with {path} (the target's project path), {start} and {end} (its first and
// last human line) filled in; for example
// "https://github.com/o/r/blob/main/{path}#L{start}-L{end}". Default: the
// link's own destination, which remote targets always use. Only http,
// https and relative URLs are taken (CheckSourceURL): a document converted
// with another fails.
func WithSourceURL(template string) Option {
	return optionFunc(func(c *config) { c.sourceURL = template })
}

// WithLenient turns fragment syntax errors and misordered ranges into
// warnings, leaving such links plain links (SEMANTICS.md §4). Integrity
// mismatches, unreadable targets and destinations written with a
// character reference or escape (target.ErrEscaped) stay errors. Default: off.
func WithLenient(on bool) Option {
	return optionFunc(func(c *config) { c.lenient = on })
}

// WithPriority sets the priority of textfrag's AST transformer among
// goldmark's (lower runs first). Default: DefaultPriority (50), before the
// transformers of most extensions. textfrag verifies links as they are
// written: a link to a local file with an RFC 5147 fragment whose
// destination a transformer that ran before textfrag changed (to an
// absolute URL, say) is an error, never a link left unverified; give such
// a transformer a higher number than textfrag's. Transformers that run
// after textfrag see boxes (which are not links) in place of lone links,
// and verified inline links.
func WithPriority(n int) Option {
	return optionFunc(func(c *config) { c.priority = n })
}

// WithUnpinnedWarnings reports each link without an md5= check as a
// warning of kind "unpinned" that names the command pinning it: such a link
// quotes whatever the lines hold now, so it can quote the wrong text without
// failing (SEMANTICS.md §4: fine for a build, a warning for a check). With
// WithWarningsAsErrors it is an error. Default: off.
func WithUnpinnedWarnings(on bool) Option {
	return optionFunc(func(c *config) { c.unpinned = on })
}

// UnpinnedWarning is the message of WithUnpinnedWarnings for a link
// without md5= on the page named page (as the command was given it), which
// `textfrag pin --write` pins. Front ends that verify what goldmark does not
// parse (the Hugo shortcode in a page, for one) give the same warning.
func UnpinnedWarning(page string) string {
	return fmt.Sprintf("unpinned: no md5= check, so the link quotes whatever the file holds now, right or not; pin it with `textfrag pin --write %s`", page)
}

// WithWarningsAsErrors makes warnings (clamped positions, unknown integrity
// checks, title options that do nothing, code shown as plain text because
// it is over the highlighting budget) errors. Default: off.
func WithWarningsAsErrors(on bool) Option {
	return optionFunc(func(c *config) { c.warningsFatal = on })
}

// CheckSourceURL reports whether template may be given to WithSourceURL:
// an http or https URL, or a relative one, with no space, control character
// or backslash (a browser drops tabs, so "java\tscript:" would run). The
// template is judged as written and as the caption's href reads it, with
// character references decoded ("javascript&colon;x" and
// "&#106;avascript:x" are javascript: links); its scheme is what precedes
// the first ":" before any "/", "?" or "#", placeholders included, so that
// no {path} can make one ("{path}:x" is refused; a ":" that {path} itself
// holds is written %3A). A document converted with a template it refuses
// fails with Kind "config".
func CheckSourceURL(template string) error {
	tmpl := template
	if tmpl == "" {
		return nil
	}
	for _, r := range tmpl {
		if r <= ' ' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\\' {
			return fmt.Errorf("%q: holds a space, a control character or a backslash; write an http or https URL such as https://github.com/o/r/blob/main/{path}#L{start}-L{end}", tmpl)
		}
	}
	for _, read := range []string{tmpl, target.MarkdownDecoded(tmpl)} {
		end := strings.IndexAny(read, "/?#")
		if end < 0 {
			end = len(read)
		}
		if scheme, _, ok := strings.Cut(read[:end], ":"); ok {
			if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
				return fmt.Errorf("%q: the scheme %q is refused: captions link only to http or https URLs (or relative ones), such as https://github.com/o/r/blob/main/{path}#L{start}-L{end}", tmpl, scheme+":")
			}
		}
	}
	return nil
}
