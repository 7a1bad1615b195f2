package target_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// secretFiles are files inside the root that SEMANTICS.md §5 keeps out of
// the realm. Each holds the token; no selection may hold it.
const token = "ghp_TOKEN_a_ci_checkout_keeps\n"

var secretFiles = map[string]string{
	".git/config":                 "[http]\n\textraheader = AUTHORIZATION: basic " + token,
	"sub/.git/config":             token,
	".env":                        token,
	"app/.env.production":         token,
	".netrc":                      token,
	".npmrc":                      token,
	".pypirc":                     token,
	"home/.ssh/id_ed25519":        token,
	".aws/credentials":            token,
	".docker/config.json":         token,
	"deploy/tls.pem":              token,
	"deploy/server.key":           token,
	"deploy/UPPER.PEM":            token,
	".GIT/config":                 token, // case-insensitive file systems: .git
	"ok/.github/workflows/ci.yml": "on: push\n",
	"ok/.gitattributes":           "* -text\n",
	"ok/.envrc-not-env":           "fine\n",
	"ok/docker/config.json":       "{}\n",
	"ok/keys.txt":                 "fine\n",
	"ok/.gitignore":               "public/\n",
}

// TestSecretsOutsideRealm: files that commonly hold secrets are refused,
// by any spelling that reaches them (relative, absolute, through a
// symlink to the file or to a directory, a file: URI), as "outside", and
// the error says how to allow one; other dot-files are quoted as usual.
func TestSecretsOutsideRealm(t *testing.T) {
	root, _ := project(t, secretFiles)
	symlink(t, root, "notes.txt", ".git/config")
	symlink(t, root, "gitdir", ".git")
	symlink(t, root, "abs-notes.txt", filepath.Join(root, ".env"))
	r := newResolver(t, target.Options{Root: root})
	refused := []string{
		".git/config#line=1,2",
		"/.git/config#line=1,2",
		"docs/../.git/config#line=1,2",
		"%2Egit/config#line=1,2",
		"sub/.git/config#line=1,2",
		".env#line=1",
		"app/.env.production#line=1",
		".netrc#line=1", ".npmrc#line=1", ".pypirc#line=1",
		"home/.ssh/id_ed25519#line=1",
		".aws/credentials#line=1",
		".docker/config.json#line=1",
		"deploy/tls.pem#line=1", "deploy/server.key#line=1", "deploy/UPPER.PEM#line=1",
		".GIT/config#line=1",
		"notes.txt#line=1,2", // a symlink to .git/config
		"gitdir/config#line=1,2",
		"abs-notes.txt#line=1",
		"file://" + filepath.ToSlash(root) + "/.git/config#line=1,2",
	}
	for _, link := range refused {
		te := fails(t, r, "page.md", link, target.ErrSecret, "outside")
		if te == nil {
			continue
		}
		msg := target.Explain(te, "page.md")
		if !strings.Contains(msg, "--allow-secret '") || !strings.Contains(msg, "AllowSecrets") {
			t.Errorf("%s: the message does not say how to allow it: %s", link, msg)
		}
		if strings.Contains(msg, strings.TrimSpace(token)) {
			t.Errorf("%s: the message holds the secret: %s", link, msg)
		}
	}
	if n := r.ReadsOf(".git/config"); n != 0 {
		t.Errorf(".git/config read %d times", n)
	}
	selects(t, r, "page.md", "ok/.github/workflows/ci.yml#line=,1", "ok/.github/workflows/ci.yml", "on: push\n")
	selects(t, r, "page.md", "ok/.gitattributes#line=,1", "ok/.gitattributes", "* -text\n")
	selects(t, r, "page.md", "ok/.gitignore#line=,1", "ok/.gitignore", "public/\n")
	selects(t, r, "page.md", "ok/.envrc-not-env#line=,1", "ok/.envrc-not-env", "fine\n")
	selects(t, r, "page.md", "ok/docker/config.json#line=,1", "ok/docker/config.json", "{}\n")
	selects(t, r, "page.md", "ok/keys.txt#line=,1", "ok/keys.txt", "fine\n")
}

// TestAllowSecrets: the configuration names the files it quotes anyway, by
// the path the message gives; a symlink's real path must be named too, and
// a name differing in letter case is not the same name.
func TestAllowSecrets(t *testing.T) {
	root, _ := project(t, secretFiles)
	symlink(t, root, "notes.txt", ".git/config")
	r := newResolver(t, target.Options{Root: root, AllowSecrets: []string{"deploy/tls.pem", ".env.*", "notes.txt"}})
	selects(t, r, "page.md", "deploy/tls.pem#line=,1", "deploy/tls.pem", token)
	selects(t, r, "page.md", "app/.env.production#line=,1", "app/.env.production", token)
	fails(t, r, "page.md", "deploy/server.key#line=1", target.ErrSecret, "outside")
	fails(t, r, "page.md", "deploy/UPPER.PEM#line=1", target.ErrSecret, "outside")
	// notes.txt is named, but what it leads to is not.
	te := fails(t, r, "page.md", "notes.txt#line=1", target.ErrSecret, "outside")
	if te != nil && !strings.Contains(te.Error(), "--allow-secret '.git/config'") {
		t.Errorf("the message names the wrong path: %v", te)
	}
	r = newResolver(t, target.Options{Root: root, AllowSecrets: []string{".git/config"}})
	selects(t, r, "page.md", "notes.txt#line=1,2", "notes.txt", "\textraheader = AUTHORIZATION: basic "+token)
	if _, err := target.New(target.Options{Root: root, AllowSecrets: []string{"["}}); err == nil {
		t.Error("a malformed glob was accepted")
	}
}

// TestSecretsFS: with an fs.FS as the root, the path as written is judged.
func TestSecretsFS(t *testing.T) {
	root, _ := project(t, secretFiles)
	r := newResolver(t, target.Options{FS: os.DirFS(root)})
	_, err := r.Resolve("page.md", ".git/config#line=1")
	if !errors.Is(err, target.ErrSecret) {
		t.Errorf("FS: .git/config: %v, want ErrSecret", err)
	}
}

// Globs from the repository's own configuration allow secrets as
// AllowSecrets does, but never a file below .git/: a pull request that
// edits textfrag.toml cannot publish a CI checkout's token.
func TestRepositoryAllowSecrets(t *testing.T) {
	root, _ := project(t, map[string]string{
		".git/config":   "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n",
		".env.example":  "A=1\n",
		"sub/.git/HEAD": "ref: refs/heads/main\n",
	})
	repo := newResolver(t, target.Options{Root: root, RepositoryAllowSecrets: []string{".git/config", "config", "HEAD", "*", ".env.example"}})
	for _, p := range []string{".git/config", "sub/.git/HEAD"} {
		if _, err := repo.Resolve("page.md", p+"#line=0,1"); !errors.Is(err, target.ErrSecret) {
			t.Errorf("%s allowed by the repository's configuration: %v", p, err)
		}
	}
	selects(t, repo, "page.md", ".env.example#line=0,1", ".env.example", "A=1\n")
	given := newResolver(t, target.Options{Root: root, AllowSecrets: []string{".git/config"}})
	selects(t, given, "page.md", ".git/config#line=0,1", ".git/config", "[http]\n")
}
