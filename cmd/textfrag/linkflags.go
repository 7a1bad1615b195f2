package main

import (
	"flag"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/util"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/symbols"
)

// linkFlags are the flags shared by every command that resolves links in
// Markdown pages: build, check, render and serve.
type linkFlags struct {
	root      string // --root; after find, the project's root, absolute
	proj      *project.Project
	lenient   bool
	strict    bool
	sourceURL string
	fileFlags
	remote   remoteFlags
	plain    bool // boxes and fenced code as plain text (build --highlight=false)
	noCache  bool // lex every block (--highlight-cache=false)
	unpinned bool // warn about links without md5= (check)
}

// register adds the flags to fs.
func (f *linkFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.root, "root", "", "project root `DIR`: links starting with / resolve there, and targets must lie inside it ("+rootHelp+")")
	fs.BoolVar(&f.lenient, "lenient", false, "report malformed and misordered fragments as warnings and leave those links plain (integrity mismatches and missing files stay errors)")
	fs.BoolVar(&f.strict, "strict", false, "fail on warnings too (clamped positions, ignored checks, look-alike fragments, and for check, links without md5=)")
	fs.StringVar(&f.sourceURL, "source-url", "", "make box captions link to `TEMPLATE` with {path}, {start} and {end} filled in, e.g. https://github.com/o/r/blob/main/{path}#L{start}-L{end}")
	f.fileFlags.register(fs)
	f.remote.register(fs)
}

// fileFlags say how quoted files are read, on every command that reads
// them: --charset and --allow-secret.
type fileFlags struct {
	charsets charsetFlag
	secrets  secretGlobs // --allow-secret
}

// register adds the flags to fs.
func (f *fileFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.charsets, "charset", "files matching GLOB are stored in CHARSET, not UTF-8, given as `GLOB=CHARSET` (repeatable), e.g. '*.latin1=ISO-8859-1'")
	f.secrets.register(fs)
}

// register adds --allow-secret to fs (every command that reads project
// files: through fileFlags, and migrate).
func (g *secretGlobs) register(fs *flag.FlagSet) {
	fs.Var(g, "allow-secret", "quote and publish files matching `GLOB` although they look like secrets (repeatable); by default anything under .git/, .ssh/, .aws/, and .docker/config.json, .env, .env.*, .netrc, .npmrc, .pypirc, *.pem, *.key is refused; a GLOB without / matches the file name, one with / the path from the root, e.g. '.env.example' or 'deploy/ca.pem'")
}

// registerRendering adds the flags of the commands that write HTML (build,
// render, serve).
func (f *linkFlags) registerRendering(fs *flag.FlagSet) {
	fs.BoolFunc("highlight-cache", "keep highlighted code in DIR/highlight (DIR from --cache-dir), so that code unchanged since an earlier build is not lexed again (false: lex all of it; default true)", func(s string) error {
		on, err := strconv.ParseBool(s)
		f.noCache = !on
		return err
	})
}

// find finds the project once fs is parsed, applies its textfrag.toml to
// the flags left unset, and sets f.root to the project's root. It reports
// false after printing the problem.
func (f *linkFlags) find(e *env, fs *flag.FlagSet) bool { return f.findFrom(e, fs, "") }

// findFrom is find from dir rather than the working directory ("").
func (f *linkFlags) findFrom(e *env, fs *flag.FlagSet, dir string) bool {
	p, ok := e.findProjectFrom(fs, dir)
	if !ok {
		return false
	}
	f.proj, f.root = p, p.Root
	if err := project.CheckSourceURL(f.sourceURL); err != nil {
		e.errorf("--source-url: %v", err)
		return false
	}
	return true
}

// highlightCache returns the cache of highlighted blocks the flags ask for,
// or nil.
func (f *linkFlags) highlightCache() highlight.Cache {
	dir, err := f.remote.cacheRoot()
	if f.noCache || err != nil {
		return nil
	}
	return highlight.DirCache(filepath.Join(dir, "highlight"))
}

// newResolver makes the one Resolver a build shares, rooted at root.
func (f *linkFlags) newResolver(root string) (*target.Resolver, error) {
	ro, err := f.remote.options()
	if err != nil {
		return nil, err
	}
	return target.New(f.secrets.options(target.Options{Root: root, Charsets: f.charsets, Remote: ro, Symbols: symbols.Set()}))
}

// markdown returns the goldmark instance that renders pages with r, with
// more AST transformers if given.
func (f *linkFlags) markdown(r *target.Resolver, transformers ...util.PrioritizedValue) goldmark.Markdown {
	return page.NewMarkdown(r, !f.plain, f.highlightCache(), transformers,
		textfrag.WithHighlighting(!f.plain),
		textfrag.WithLenient(f.lenient),
		textfrag.WithWarningsAsErrors(f.strict),
		textfrag.WithUnpinnedWarnings(f.unpinned),
		textfrag.WithSourceURL(f.sourceURL),
	)
}

// failed reports whether problems fail the command: any error, or under
// --strict any warning.
func (f *linkFlags) failed(problems []*textfrag.Problem) bool {
	for _, p := range problems {
		if p.Severity == textfrag.Error || f.strict {
			return true
		}
	}
	return false
}

// charsetFlag collects repeated --charset GLOB=CHARSET flags.
type charsetFlag []target.CharsetRule

// String implements flag.Value.
func (c *charsetFlag) String() string {
	var parts []string
	for _, r := range *c {
		parts = append(parts, r.Glob+"="+r.Charset)
	}
	return strings.Join(parts, " ")
}

// Set implements flag.Value: it adds one GLOB=CHARSET rule.
func (c *charsetFlag) Set(s string) error {
	glob, cs, ok := strings.Cut(s, "=")
	if !ok || glob == "" || cs == "" {
		return fmt.Errorf("want GLOB=CHARSET, like '*.txt=ISO-8859-1'")
	}
	*c = append(*c, target.CharsetRule{Glob: glob, Charset: cs})
	return nil
}

// secretGlobs collects --allow-secret's globs: those given on the command
// line, and apart, those from textfrag.toml (repositoryValue), which
// cannot allow files below .git/ (target.Options.RepositoryAllowSecrets).
type secretGlobs struct{ given, repo []string }

// String implements flag.Value.
func (g *secretGlobs) String() string {
	return strings.Join(append(slices.Clone(g.given), g.repo...), " ")
}

// Set implements flag.Value: it adds one glob given on the command line.
func (g *secretGlobs) Set(s string) error { return addGlob(&g.given, s) }

// SetFromRepository implements repositoryValue: it adds one glob from
// textfrag.toml.
func (g *secretGlobs) SetFromRepository(s string) error { return addGlob(&g.repo, s) }

// options sets o's AllowSecrets and RepositoryAllowSecrets.
func (g *secretGlobs) options(o target.Options) target.Options {
	o.AllowSecrets, o.RepositoryAllowSecrets = g.given, g.repo
	return o
}

func addGlob(globs *[]string, s string) error {
	if _, err := path.Match(s, ""); err != nil || s == "" {
		return fmt.Errorf("want a glob such as '.env.example' or 'deploy/*.pem'")
	}
	*globs = append(*globs, s)
	return nil
}
