package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// maxSiteFileBytes bounds the files of SRC that shape every page: the
// layout (_layout.html) and the site's own textfrag.css. A larger one is an
// error, found without reading more than this: a layout that is a link to an
// endless file cannot exhaust memory.
const maxSiteFileBytes = 1 << 20

// staticDir is the directory of SRC whose files are published exactly as
// they are, whatever their type, as Hugo publishes its static/ directory
// (but at the same path: SRC/static/x.svg is OUT/static/x.svg).
const staticDir = "static"

// activeExts are the types of file a browser runs script in when it opens
// one from the site (a page, an image opened on its own, a script): HTML,
// SVG, XML with a stylesheet, JavaScript, Flash, MHTML. Elsewhere than in
// SRC/static/ they are left out of the site, so that a pull request cannot
// publish script in a file a reviewer takes for a picture.
var activeExts = map[string]bool{
	".html": true, ".htm": true, ".shtml": true, ".xhtml": true, ".xht": true,
	".svg": true, ".svgz": true, ".xml": true, ".xsl": true, ".xslt": true,
	".js": true, ".mjs": true, ".cjs": true, ".swf": true, ".mht": true, ".mhtml": true,
}

// serverExts are the types of file a web server runs as a program when it
// serves one (PHP, CGI, ASP, JSP, ColdFusion): published as they are, a
// quoted index.php would run on a host that runs PHP.
var serverExts = map[string]bool{
	".php": true, ".php3": true, ".php4": true, ".php5": true, ".php7": true, ".php8": true, ".phtml": true, ".phar": true, ".pht": true, ".phps": true,
	".cgi": true, ".fcgi": true, ".asp": true, ".aspx": true, ".ashx": true, ".asmx": true, ".asa": true, ".cer": true,
	".jsp": true, ".jspx": true, ".cfm": true, ".cfc": true,
}

// serverConfigNames are the files (by name, in any letter case) that
// configure the web server or static host that serves the directory, or
// the site, they are in: Apache's .htaccess (and its password files),
// PHP's .user.ini, IIS's web.config, Netlify's and Cloudflare Pages'
// _headers, _redirects and _routes.json, GitHub Pages' .nojekyll, and the
// configuration files of Netlify, Vercel, Firebase and Azure Static Web
// Apps. Published as they are, a pull request's .htaccess could make the
// host serve the .txt copies of quoted files as HTML, or redirect the site.
// They are never published as they are: a quoted one is copied under
// _source/ with .txt added, and one under SRC is left out, with a warning.
// (CNAME is not among them: GitHub Pages reads it from the top of the site
// only, where only SRC/CNAME, the maintainer's, can put it.)
var serverConfigNames = map[string]bool{
	".htaccess": true, ".htpasswd": true, ".htdigest": true, ".htgroups": true,
	".user.ini": true, "php.ini": true, "web.config": true,
	"_headers": true, "_redirects": true, "_routes.json": true, ".nojekyll": true,
	"netlify.toml": true, "vercel.json": true, "now.json": true, "firebase.json": true,
	"staticwebapp.config.json": true,
}

// isServerConfig reports whether the file at slash path rel is server
// configuration (serverConfigNames).
func isServerConfig(rel string) bool {
	return serverConfigNames[strings.ToLower(path.Base(rel))]
}

// publishedAsText reports whether a quoted file at slash path p is
// published under _source/ with ".txt" added: a type a browser runs script
// in, a type a server runs, or server configuration.
func publishedAsText(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return activeExts[ext] || serverExts[ext] || isServerConfig(p)
}

// activeOutsideStatic reports whether the file at slash path rel under SRC
// is active content outside SRC/static/, which the site leaves out.
func activeOutsideStatic(rel string) bool {
	return activeExts[strings.ToLower(path.Ext(rel))] && !strings.HasPrefix(rel, staticDir+"/")
}

// siteFileLimit is the most bytes the file at slash path rel under SRC may
// hold (0: no limit).
func siteFileLimit(rel string) int64 {
	if rel == layoutName || rel == style.FileName {
		return maxSiteFileBytes
	}
	return 0
}

// realmCheck returns a function that says why the file at slash path rel
// under src is outside the realm, judged as the Resolver r judges targets:
// by its project path and by its real path, for files that commonly hold
// secrets (SEMANTICS.md §5). Nil means it is in.
func realmCheck(src string, r *target.Resolver) func(rel string) error {
	srcAbs, err := filepath.Abs(src)
	if err != nil {
		srcAbs = src
	}
	project := func(rel string) string {
		p, err := filepath.Rel(r.Root(), filepath.Join(srcAbs, filepath.FromSlash(rel)))
		if err != nil || !filepath.IsLocal(p) {
			return rel // SRC outside the root: judge the path under SRC
		}
		return filepath.ToSlash(p)
	}
	srcDir := realm.NewDir(srcAbs)
	return func(rel string) error {
		if err := r.CheckSecret(project(rel)); err != nil {
			return err
		}
		if real, ok := srcDir.Inside(rel); ok && real != rel {
			if err := r.CheckSecret(project(real)); err != nil {
				return fmt.Errorf("%s is a symbolic link: %w", project(rel), err)
			}
		}
		return nil
	}
}

// sourceInRealm says why the quoted file at project path p is not
// published under _source/ (nil: it is): a file that commonly holds
// secrets, by its path or by the real path a symbolic link leads to, or a
// file whose real path lies outside the project root. build checks it
// before each copy and serve before each answer, so that a file swapped
// for a link after its page was built is not published.
func sourceInRealm(r *target.Resolver, p string) error {
	if err := r.CheckSecret(p); err != nil {
		return err
	}
	real, ok := realm.NewDir(r.Root()).Inside(p)
	if !ok {
		return fmt.Errorf("%s: not published: it does not lead to a file inside the project root", p)
	}
	if real != p {
		if err := r.CheckSecret(real); err != nil {
			return fmt.Errorf("%s is a symbolic link: %w", p, err)
		}
	}
	return nil
}

// readSiteFile reads the file at slash path rel in root (SRC), a regular
// file inside it, up to limit bytes (0: no limit); with root nil, rel is an
// OS path (a page named on the command line). name is how messages name it.
// A FIFO or a device fails at once: it is never read.
func readSiteFile(root *os.Root, rel, name string, limit int64) ([]byte, error) {
	b, err := realm.ReadFile(root, rel, limit)
	if err != nil {
		return nil, siteFileError(name, err)
	}
	return b, nil
}

// siteFileError says what is wrong with a file of SRC that cannot be read,
// naming it as messages do, and what to do.
func siteFileError(name string, err error) error {
	return termsafeError(siteFileProblem(name, err))
}

// siteFileProblem is siteFileError before escaping.
func siteFileProblem(name string, err error) error {
	switch {
	case errors.Is(err, realm.ErrNotRegular):
		return fmt.Errorf("%s: %w; only regular files are read: replace it with one", name, errors.Unwrap(err))
	case errors.Is(err, realm.ErrTooLarge) && project.IsMarkdownName(name):
		return fmt.Errorf("%s: %w", name, project.PageTooLarge(errors.Unwrap(err)))
	case errors.Is(err, realm.ErrTooLarge):
		return fmt.Errorf("%s: %w; a layout or stylesheet may hold at most %d bytes", name, errors.Unwrap(err), maxSiteFileBytes)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", name)
	case strings.Contains(err.Error(), "escapes from parent"):
		// os.Root refuses symlinks that lead out of it, and absolute ones.
		return fmt.Errorf("%s: a symbolic link that leads outside the source directory, or an absolute one; only files inside it are read: make it a relative link inside, or a copy", name)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// copyFile copies the regular file at slash path rel in root (SRC) into the
// staging directory, refusing it past siteFileLimit. name is how messages
// name it.
func copyFile(root *os.Root, rel, name string, st *staging) (err error) {
	in, info, err := realm.Open(root, rel)
	if err != nil {
		return siteFileError(name, err)
	}
	defer in.Close()
	limit := siteFileLimit(rel)
	if limit > 0 && info.Size() > limit {
		return siteFileError(name, &fs.PathError{Op: "read", Path: rel, Err: fmt.Errorf("%w: more than %d bytes", realm.ErrTooLarge, limit)})
	}
	var r io.Reader = in
	if limit > 0 {
		r = io.LimitReader(in, limit) // the file may grow while it is copied
	}
	return copyTo(r, rel, st)
}

// escapedError is an error whose message names files of the tree, which
// anyone who writes to it chooses: its message has their control characters
// escaped (a line break in a name would start a line of its own in a
// terminal or a CI log, where "::error::" is a workflow command).
type escapedError struct{ err error }

func (e escapedError) Error() string { return termsafe.Escape(e.err.Error(), "") }

// Unwrap returns the error escaped.
func (e escapedError) Unwrap() error { return e.err }

// termsafeError returns err with its message escaped; nil for nil.
func termsafeError(err error) error {
	if err == nil {
		return nil
	}
	return escapedError{err}
}
