package project

// textfrag.toml is the repository's: a fork's pull request sets every key
// (issue 23). Each test models one attack and asserts the safe outcome.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A textfrag.toml committed as a link to a file outside the repository is
// refused unread: neither its settings nor, in an error, its content reach
// the (public) CI log.
func TestConfigLinkedOutOfRepositoryNotRead(t *testing.T) {
	dir := realTemp(t)
	outside := filepath.Join(dir, "outside")
	write(t, dir, map[string]string{
		"repo/.git/":             "",
		"repo/docs/":             "",
		"outside/credentials":    "aws_secret_access_key = SECRET-abc123\n[default]\n",
		"outside/valid.toml":     "strict = true\n",
		"repo/sub/.git/":         "",
		"repo/inside/other.toml": "strict = true\n",
	})
	for _, to := range []string{filepath.Join(outside, "credentials"), "../outside/credentials", filepath.Join(outside, "valid.toml"), "/dev/zero"} {
		link := filepath.Join(dir, "repo", ConfigName)
		os.Remove(link)
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		_, err := Find(filepath.Join(dir, "repo", "docs"))
		if err == nil {
			t.Fatalf("a textfrag.toml linked to %s was read", to)
		}
		if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "aws_secret") {
			t.Errorf("the error quotes the file linked to: %v", err)
		}
		if !strings.Contains(err.Error(), ConfigName) {
			t.Errorf("the error does not name the file: %v", err)
		}
	}
	// A link to a file inside the repository is a second name for it.
	link := filepath.Join(dir, "repo", ConfigName)
	os.Remove(link)
	os.Symlink("inside/other.toml", link)
	p, err := Find(filepath.Join(dir, "repo", "docs"))
	if err != nil || p.Config.Strict == nil || !*p.Config.Strict {
		t.Fatalf("a link inside the repository: %+v, %v", p, err)
	}
}

// sourceURL: every caption links to it, so only http, https and relative
// URLs are taken.
func TestConfigSourceURLScheme(t *testing.T) {
	for _, bad := range []string{
		"javascript:alert(document.domain)//{path}",
		"JavaScript:alert(1)",
		"data:text/html,<script>alert(1)</script>",
		"vbscript:x",
		" javascript:alert(1)",
		"java\tscript:alert(1)",
		"java\\nscript:alert(1)",
		"file:///etc/passwd",
		"\\\\evil.example/{path}",
		"javascript&colon;alert(1)//{path}",
		"&#106;avascript:alert(1)",
		"{path}:alert(1)",
	} {
		dir := realTemp(t)
		write(t, dir, map[string]string{".git/": "", ConfigName: "sourceURL = \"" + strings.ReplaceAll(bad, "\t", `\t`) + "\"\n"})
		_, err := Find(dir)
		if err == nil || !strings.Contains(err.Error(), "sourceURL") {
			t.Errorf("sourceURL %q: %v, want refused", bad, err)
		}
	}
	for _, good := range []string{
		"https://github.com/o/r/blob/main/{path}#L{start}-L{end}",
		"HTTP://example.org/{path}",
		"../src/{path}",
		"/browse/{path}?l={start}",
		"{path}",
	} {
		if err := CheckSourceURL(good); err != nil {
			t.Errorf("sourceURL %q: %v, want accepted", good, err)
		}
	}
}

// A fork cannot lift the remote limits: values above the ceilings are
// lowered, with a warning naming the file and the command-line flag.
func TestConfigRemoteLimitsCeiling(t *testing.T) {
	dir := realTemp(t)
	write(t, dir, map[string]string{".git/": "", ConfigName: "remoteMaxBytes = 1000000000000\nremoteTimeout = \"100000h\"\n"})
	p, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range p.Config.Settings() {
		got = append(got, s.Flag+"="+strings.Join(s.Values, "|"))
	}
	want := []string{"remote-timeout=1m0s", "remote-max-bytes=67108864"}
	if !slices.Equal(got, want) {
		t.Errorf("Settings %q, want %q", got, want)
	}
	if len(p.Config.Warnings) != 2 || !strings.Contains(p.Config.Warnings[0], "--remote-max-bytes") || !strings.Contains(p.Config.Warnings[1], "--remote-timeout") {
		t.Errorf("Warnings %q", p.Config.Warnings)
	}
	// Values under the ceilings are taken as written, without a word.
	write(t, dir, map[string]string{ConfigName: "remoteMaxBytes = 1000\nremoteTimeout = \"5s\"\n"})
	if p, err = Find(dir); err != nil || len(p.Config.Warnings) != 0 || *p.Config.RemoteMaxBytes != 1000 || *p.Config.RemoteTimeout != "5s" {
		t.Errorf("limits under the ceilings: %+v %v", p, err)
	}
}

// allowHosts and allowSecrets from the repository would add hosts and
// widen the realm: they are not applied, and the warning says what to give
// on the command line instead.
func TestConfigCannotAddHostsOrSecrets(t *testing.T) {
	dir := realTemp(t)
	write(t, dir, map[string]string{".git/": "", ConfigName: "allowHosts = [\"169.254.169.254\", \"*.evil.example\"]\nallowSecrets = [\".env\", \"*.pem\"]\n"})
	p, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Config.Settings() {
		t.Errorf("setting %s = %q applied", s.Key, s.Values)
	}
	ws := strings.Join(p.Config.Warnings, "\n")
	for _, w := range []string{"allowHosts is not applied", `--allow-host "169.254.169.254" --allow-host "*.evil.example"`, "allowSecrets is not applied", `--allow-secret ".env" --allow-secret "*.pem"`} {
		if !strings.Contains(ws, w) {
			t.Errorf("warnings lack %q:\n%s", w, ws)
		}
	}
}

// cacheDir is written and pruned: a committed link on its path (to a
// directory outside, or one that leads nowhere yet) is refused.
func TestConfigCacheDirThroughLink(t *testing.T) {
	dir := realTemp(t)
	elsewhere := realTemp(t)
	write(t, dir, map[string]string{".git/": "", ConfigName: "cacheDir = \".cache/textfrag\"\n", "inside/": ""})
	for _, to := range []string{elsewhere, filepath.Join(elsewhere, "not-yet"), "inside"} {
		os.RemoveAll(filepath.Join(dir, ".cache"))
		if err := os.Symlink(to, filepath.Join(dir, ".cache")); err != nil {
			t.Fatal(err)
		}
		if _, err := Find(dir); err == nil || !strings.Contains(err.Error(), "cacheDir") {
			t.Errorf(".cache -> %s: %v, want refused", to, err)
		}
	}
	os.Remove(filepath.Join(dir, ".cache"))
	if p, err := Find(dir); err != nil || *p.Config.CacheDir != filepath.Join(dir, ".cache", "textfrag") {
		t.Errorf("a plain cacheDir: %+v %v", p, err)
	}
}
