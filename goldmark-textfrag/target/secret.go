package target

import (
	"fmt"
	"path"
	"strings"
)

// secretPatterns are the paths SEMANTICS.md §5 keeps out of the realm, as
// they commonly hold secrets (a CI checkout keeps its token in
// .git/config). A pattern ending in '/' is a directory: every file below a
// directory of that name, at any depth, matches. A pattern with a '/' inside
// matches that many trailing path components; one without, the base name.
// They match whatever the letter case, as on a case-insensitive file system
// ".GIT/config" is ".git/config".
var secretPatterns = []string{
	".git/", ".ssh/", ".aws/",
	".docker/config.json",
	".env", ".env.*", ".netrc", ".npmrc", ".pypirc", "*.pem", "*.key",
}

// secretPattern returns the pattern of secretPatterns that project path p
// matches, or "".
func secretPattern(p string) string {
	parts := strings.Split(strings.ToLower(p), "/")
	for _, pat := range secretPatterns {
		if dir, ok := strings.CutSuffix(pat, "/"); ok {
			// Any component but the last: a file below such a directory.
			// The directory itself is not a file to quote.
			for _, c := range parts[:len(parts)-1] {
				if c == dir {
					return pat
				}
			}
			continue
		}
		want := strings.Split(pat, "/")
		if len(want) > len(parts) {
			continue
		}
		tail := parts[len(parts)-len(want):]
		match := true
		for i, w := range want {
			if ok, _ := path.Match(w, tail[i]); !ok {
				match = false
				break
			}
		}
		if match {
			return pat
		}
	}
	return ""
}

// allowsSecret reports whether one of the AllowSecrets globs names project
// path p. A glob without '/' matches the base name, one with '/' the whole
// project path, as for CharsetRule. Letter case must match: a glob names
// the file as it is written. RepositoryAllowSecrets' globs name the same
// way, but never a path below a .git directory.
func (r *Resolver) allowsSecret(p string) bool {
	if globsName(r.allowSecrets, p) {
		return true
	}
	return secretPattern(p) != ".git/" && globsName(r.repoSecrets, p)
}

// globsName reports whether one of globs names project path p.
func globsName(globs []string, p string) bool {
	for _, g := range globs {
		subject := p
		if !strings.Contains(g, "/") {
			subject = path.Base(p)
		}
		if ok, _ := path.Match(g, subject); ok {
			return true
		}
	}
	return false
}

// CheckSecret returns nil when project path p is in the realm as far as
// secrets go, and otherwise an error wrapping ErrSecret that names the
// pattern p matches and how to allow it (SEMANTICS.md §5). Front ends call
// it for the other files they read (a layout, an asset); Resolve calls it
// for every target, on the path as written and on its real path.
func (r *Resolver) CheckSecret(p string) error { return r.checkSecret(p, "") }

// checkSecret is CheckSecret for p, reached from the path via through
// symbolic links ("" when p was written as it is).
func (r *Resolver) checkSecret(p, via string) error {
	pat := secretPattern(p)
	if pat == "" || r.allowsSecret(p) {
		return nil
	}
	what := p
	if via != "" {
		what = fmt.Sprintf("%s is a symbolic link to %s, which", via, p)
	}
	how := "textfrag: --allow-secret '%s'"
	if pat == ".git/" {
		how = "textfrag: --allow-secret '%s' on the command line, as textfrag.toml cannot for .git/"
	}
	return fmt.Errorf("%s is %w (it matches %s); textfrag keeps such files out unless the configuration names them: if it holds none, allow it by name ("+how+"; library: target.Options.AllowSecrets)", what, ErrSecret, pat, p)
}

// checkSecrets checks the project path p as written and real, the project
// path it is after following symlinks ("" when not known, or the same).
func (r *Resolver) checkSecrets(p, real string) error {
	if err := r.checkSecret(p, ""); err != nil {
		return err
	}
	if real == "" || real == p {
		return nil
	}
	return r.checkSecret(real, p)
}
