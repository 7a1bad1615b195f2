package hugotest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// hugoBinary is the hugo command this module's tool dependency builds (the
// one "go tool hugo" runs), built once by the go command's cache.
func hugoBinary(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "tool", "-n", "hugo").Output()
	if err != nil {
		t.Fatalf("go tool -n hugo: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// lockedBuffer collects a process's output while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// hugoServer starts "hugo server" on a free port in dir and returns the
// site's URL; the process is killed when the test ends.
func hugoServer(t *testing.T, dir string) (string, *lockedBuffer) {
	t.Helper()
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, hugoBinary(t), "server", "--source", dir, "--bind", "127.0.0.1", "--port", fmt.Sprint(port),
		"--disableLiveReload", "--cacheDir", filepath.Join(t.TempDir(), "cache"))
	var log lockedBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	return fmt.Sprintf("http://127.0.0.1:%d", port), &log
}

// waitFor fetches url until its body holds want, or fails after the deadline.
func waitFor(t *testing.T, url, want string, deadline time.Duration, log *lockedBuffer) time.Duration {
	t.Helper()
	start := time.Now()
	var last string
	for time.Since(start) < deadline {
		if resp, err := http.Get(url); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			last = string(body)
			if resp.StatusCode == 200 && strings.Contains(last, want) {
				return time.Since(start)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("after %v, %s does not hold %q:\n%s\nhugo server said:\n%s", deadline, url, want, last, log.String())
	return 0
}

// Editing a quoted file re-renders the pages that quote it in a running
// "hugo server", when the file's directory is mounted as the README says.
func TestServerFollowsQuotedFiles(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.txt"), "first version\nline two\n")
	write(t, filepath.Join(root, "src", "deep", "b.go"), "package deep\n\nconst B = 1\n")
	write(t, filepath.Join(root, "notes.txt"), "note one\n")
	write(t, filepath.Join(root, "hugo.toml"), fmt.Sprintf(`baseURL = "https://example.org/"
disableKinds = ["taxonomy", "term", "rss", "sitemap", "robotsTXT", "404"]
[markup.goldmark.parser]
wrapStandAloneImageWithinParagraph = false
[module]
replacements = %q
[[module.imports]]
path = %q
[[module.mounts]]
source = "src"
target = "assets/textfrag-src/src"
[[module.mounts]]
source = "notes.txt"
target = "assets/textfrag-src/notes.txt"
`, modulePath+" -> "+moduleDir(t), modulePath))
	write(t, filepath.Join(root, "layouts", "single.html"), "<main>{{ .Content }}</main>")
	write(t, filepath.Join(root, "layouts", "home.html"), "home")
	write(t, filepath.Join(root, "layouts", "section.html"), "section")
	write(t, filepath.Join(root, "content", "docs", "page.md"), "---\ntitle: t\n---\n\n![A](/src/a.txt#line=0,1)\n\n[B](../../src/deep/b.go#line=2,3)\n\n[N](/notes.txt#line=0,1)\n")
	write(t, filepath.Join(root, "content", "other.md"), "---\ntitle: o\n---\n\n![A](../src/a.txt#line=1,2)\n")

	url, log := hugoServer(t, root)
	waitFor(t, url+"/docs/page/", "first version", 60*time.Second, log)
	waitFor(t, url+"/other/", "line two", 5*time.Second, log)

	write(t, filepath.Join(root, "src", "a.txt"), "second version\nline 2 changed\n")
	took := waitFor(t, url+"/docs/page/", "second version", 20*time.Second, log)
	t.Logf("the edit was served after %v", took)
	waitFor(t, url+"/other/", "line 2 changed", 5*time.Second, log)

	write(t, filepath.Join(root, "src", "deep", "b.go"), "package deep\n\nconst B = 2\n")
	waitFor(t, url+"/docs/page/", `<span class="mi">2</span>`, 20*time.Second, log)

	// A file mounted on its own.
	write(t, filepath.Join(root, "notes.txt"), "note two\n")
	waitFor(t, url+"/docs/page/", "note two", 20*time.Second, log)

	// The page itself: a link that is no longer alone in its paragraph
	// stays a link (textfrag/alone reads the edited source), and becomes a
	// box again when it is alone once more.
	page := filepath.Join(root, "content", "docs", "page.md")
	write(t, page, "---\ntitle: t\n---\n\n![A](/src/a.txt#line=0,1)\n\n[B](../../src/deep/b.go#line=2,3) and more.\n\n[N](/notes.txt#line=0,1)\n")
	waitFor(t, url+"/docs/page/", `<a href="../../src/deep/b.go#line=2,3">B</a> and more.`, 20*time.Second, log)
	write(t, page, "---\ntitle: t\n---\n\nIntro.\n\n![A](/src/a.txt#line=0,1)\n\n[B](../../src/deep/b.go#line=2,3)\n\n[N](/notes.txt#line=0,1)\n")
	waitFor(t, url+"/docs/page/", `<p>Intro.</p>`, 20*time.Second, log)
	waitFor(t, url+"/docs/page/", `role="figure" data-textfrag-fragment="line=2,3"`, 5*time.Second, log)
}

// With no set-up beyond importing the module, "hugo server" re-renders a
// page when a file it quotes changes, for every file in the site's content
// directory: a leaf bundle's own file (by the short path and by the general
// one), a file in a section's directory, in a directory below a section
// that is no section, at the top of content/, and another page's Markdown
// (here a page that is only text, no front matter). Files elsewhere are
// followed when mounted under assets/textfrag-src/, here from a
// config/_default/module.toml of their own, which Hugo merges with the
// hugo.toml that holds the replacements line; a file that is neither is
// named in one warning.
func TestServerFollowsContentFiles(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "hugo.toml"), fmt.Sprintf(`baseURL = "https://example.org/"
disableKinds = ["taxonomy", "term", "rss", "sitemap", "robotsTXT", "404"]
[markup.goldmark.parser]
wrapStandAloneImageWithinParagraph = false
[module]
replacements = %q
[[module.imports]]
path = %q
`, modulePath+" -> "+moduleDir(t), modulePath))
	write(t, filepath.Join(root, "config", "_default", "module.toml"), `[[mounts]]
source = "src"
target = "assets/textfrag-src/src"
`)
	write(t, filepath.Join(root, "layouts", "single.html"), "<main>{{ .Content }}</main>")
	write(t, filepath.Join(root, "layouts", "list.html"), "<main>{{ .Content }}</main>")
	write(t, filepath.Join(root, "layouts", "home.html"), "<main>{{ .Content }}</main>")
	files := map[string]string{
		"bundle":  filepath.Join(root, "content", "docs", "page", "live.txt"),
		"deep":    filepath.Join(root, "content", "docs", "page", "files", "deep.txt"),
		"section": filepath.Join(root, "content", "docs", "sec.txt"),
		"below":   filepath.Join(root, "content", "docs", "snippets", "below.txt"),
		"top":     filepath.Join(root, "content", "top.txt"),
		"page":    filepath.Join(root, "content", "docs", "other.md"),
		"mounted": filepath.Join(root, "src", "m.txt"),
		"other":   filepath.Join(root, "other", "o.txt"),
	}
	for name, f := range files {
		write(t, f, name+" one\n")
	}
	// The bundle's file twice: without a title (textfrag/transclude's short
	// path) and with one (the general path).
	write(t, filepath.Join(root, "content", "docs", "page", "index.md"), "---\ntitle: p\n---\n\n![L](live.txt#line=0,1)\n\n![L](live.txt#line=0,1 \"hl=1\")\n\n![D](files/deep.txt#line=0,1)\n\n![S](../sec.txt#line=0,1)\n\n![B](/content/docs/snippets/below.txt#line=0,1)\n\n![T](../../top.txt#line=0,1)\n\n![M](/src/m.txt#line=0,1)\n\n![O](/other/o.txt#line=0,1)\n\n![P](../other.md#line=0,1)\n")
	write(t, filepath.Join(root, "content", "docs", "_index.md"), "---\ntitle: d\n---\n\n![S](sec.txt#line=0,1)\n")
	write(t, filepath.Join(root, "content", "_index.md"), "---\ntitle: h\n---\n\n![T](top.txt#line=0,1)\n")

	url, log := hugoServer(t, root)
	waitFor(t, url+"/docs/page/", "other one", 90*time.Second, log)
	for _, name := range []string{"bundle", "deep", "section", "below", "top", "mounted", "page"} {
		write(t, files[name], name+" two\n")
		took := waitFor(t, url+"/docs/page/", name+" two", 20*time.Second, log)
		t.Logf("%s: the edit was served after %v", name, took)
	}
	page, _ := http.Get(url + "/docs/page/")
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if n := strings.Count(string(body), "bundle two"); n != 2 {
		t.Errorf("the bundle's file shows the edit in %d boxes, want 2 (short and general path):\n%s", n, body)
	}
	waitFor(t, url+"/docs/", "section two", 5*time.Second, log)
	waitFor(t, url+"/", "top two", 5*time.Second, log)

	// The one file Hugo cannot follow is named, once.
	if got := strings.Count(log.String(), "hugo server does not see"); got != 1 {
		t.Errorf("%d warnings about files hugo server does not see, want 1:\n%s", got, log.String())
	}
	if !strings.Contains(log.String(), "does not see other/o.txt change") {
		t.Errorf("the warning does not name other/o.txt:\n%s", log.String())
	}
	for _, name := range []string{"bundle", "section", "top", "mounted"} {
		if strings.Contains(log.String(), "does not see "+strings.TrimPrefix(files[name], root+"/")) {
			t.Errorf("warned about %s, which is followed", name)
		}
	}
}
