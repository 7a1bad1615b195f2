package target_test

// Adversarial links: every way a link written by someone who can commit
// Markdown might try to read a file outside the allowed roots, or to feed
// the resolver malformed or huge input. Each case asserts the safe outcome:
// the expected typed error, or a selection from a file whose real path lies
// inside the root; never the secret.

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// secret is the content of every file outside the root; no selection may
// ever hold it.
const secret = "SECRET outside the root\n"

// realm is a project root beside a directory no link may reach, with
// symbolic links of every kind between them. It returns the root and the
// outside directory.
func realm(t testing.TB) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	writeTB(t, outside, map[string]string{
		"secret.txt":       secret,
		"caf\u00e9.txt":    secret,
		"sub/secret.txt":   secret,
		"e\u0301vil/x.txt": secret,
	})
	writeTB(t, root, map[string]string{
		"src/a.txt":          "first\nsecond\n",
		"docs/page.md":       "# Page\n",
		"docs/deep/er/p.md":  "# Deeper\n",
		"%2e%2e/x.txt":       "a directory named %2e%2e\n",
		"back\\slash.txt":    "a name with a backslash\n",
		"caf\u00e9/ok.txt":   "allowed NFC directory\n",
		"cafe\u0301/nfd.txt": "NFD twin directory\n",
	})
	links := []struct{ link, to string }{
		// Inside, relative and absolute, files and directories, chains.
		{"in-rel.txt", "src/a.txt"},
		{"in-abs.txt", filepath.Join(root, "src", "a.txt")},
		{"dir-in", "src"},
		{"dir-in-abs", filepath.Join(root, "src")},
		{"c1", "c2"},
		{"c2", "c3"},
		{"c3", "src/a.txt"},
		{"docs/up.txt", "../src/a.txt"},
		// Escaping, relative and absolute, files and directories, chains.
		{"out-rel.txt", "../outside/secret.txt"},
		{"out-abs.txt", filepath.Join(outside, "secret.txt")},
		{"dir-out", "../outside"},
		{"dir-out-abs", outside},
		{"dir-slash", "/"},
		{"etc", "/etc"},
		{"dev-zero", "/dev/zero"},
		{"proc-environ", "/proc/self/environ"},
		{"e1", "e2"},
		{"e2", "../outside/secret.txt"},
		{"m1", filepath.Join(root, "m2")},
		{"m2", "dir-out/sub/secret.txt"},
		{"docs/deep/leak.txt", "../../../outside/secret.txt"},
		{"docs/deep/hop", "../../dir-out"},
		// Loops.
		{"loop-a", "loop-b"},
		{"loop-b", "loop-a"},
		{"self", "self"},
		{"dloop", "."},
		{"dloop-up", ".."},
		{"dangling", "nowhere.txt"},
		// An escaping directory whose name is the NFD spelling of an NFC link.
		{"e\u0301xt", "../outside"},
	}
	for _, l := range links {
		symlinkTB(t, root, l.link, l.to)
	}
	// A way back in from outside: its real path is inside the root.
	symlinkTB(t, outside, "back.txt", filepath.Join(root, "src", "a.txt"))
	return root, outside
}

// writeTB is write for any testing.TB, fuzz targets included.
func writeTB(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// symlinkTB is symlink for any testing.TB.
func symlinkTB(t testing.TB, root, link, to string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(link))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(to, full); err != nil {
		t.Fatal(err)
	}
}

// anySafe in a table means either outcome is acceptable, so long as it is
// safe: an error, or a selection from a file really inside the root.
var anySafe = errors.New("any safe outcome")

// checkSafe resolves link and checks the outcome: want is the sentinel the
// error must match, nil for success, or anySafe. Whatever the outcome, a
// selection must come from a file whose real path is inside the root, and
// never hold the secret.
func checkSafe(t *testing.T, r *target.Resolver, root, doc, link string, want error) {
	t.Helper()
	res, err := r.Resolve(doc, link)
	name := fmt.Sprintf("%.120q in %s", link, doc)
	if err == nil {
		assertInside(t, root, res, name)
	}
	switch {
	case want == anySafe:
	case want == nil && err != nil:
		t.Errorf("%s: %v, want a selection", name, err)
	case want != nil && !errors.Is(err, want):
		t.Errorf("%s: got %v, want %v", name, err, want)
	}
	if err != nil && !errors.Is(err, target.ErrNotOurs) {
		var te *target.Error
		if !errors.As(err, &te) {
			t.Errorf("%s: %T is not a *target.Error", name, err)
		} else if te.Result != nil && strings.Contains(string(te.Result.Selection.Text), "SECRET") {
			t.Errorf("%s: the error carries the secret", name)
		}
	}
}

// assertInside checks that res selects text from a file whose real path is
// inside root, and not the secret.
func assertInside(t testing.TB, root string, res *target.Result, name string) {
	t.Helper()
	if strings.Contains(string(res.Selection.Text), "SECRET") {
		t.Fatalf("%s: selected the secret from %s", name, res.Path)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(res.Path)))
	if err != nil {
		t.Fatalf("%s: resolved to %s, which does not exist: %v", name, res.Path, err)
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || !filepath.IsLocal(rel) {
		t.Fatalf("%s: resolved to %s, really %s, outside the root %s", name, res.Path, real, realRoot)
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() {
		t.Fatalf("%s: resolved to %s, which is not a regular file", name, real)
	}
	content, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(content), string(res.Selection.Text)) {
		t.Fatalf("%s: selection %q is not from %s", name, res.Selection.Text, real)
	}
}

func TestAdversarialPathEscapes(t *testing.T) {
	root, outside := realm(t)
	r := newResolver(t, target.Options{Root: root})
	abs, out := filepath.ToSlash(root), filepath.ToSlash(outside)
	const frag = "#line=,1"
	tests := []struct {
		doc, link string
		want      error
	}{
		// Dot segments.
		{"page.md", "../outside/secret.txt", target.ErrOutsideRoot},
		{"docs/page.md", "../../outside/secret.txt", target.ErrOutsideRoot},
		{"docs/deep/er/p.md", "../../../../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "docs/../../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "./../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "src/../../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "src/./../.././outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "/../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "/../../../../../../../../../etc/passwd", target.ErrOutsideRoot},
		{"page.md", "..", target.ErrOutsideRoot},
		{"page.md", "../", target.ErrOutsideRoot},
		{"page.md", "....//outside/secret.txt", target.ErrNotFound}, // "...." is a name
		{"page.md", "src/a.txt/../../../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "src/nowhere/../a.txt", nil},
		// Percent-encoded dots are dot segments once decoded, as browsers
		// treat them; encoded slashes are data, never separators.
		{"page.md", "%2e%2e/outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "%2E%2E/outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", ".%2e/outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "%2e./outside/secret.txt", target.ErrOutsideRoot},
		{"docs/page.md", "%2e%2e/%2e%2e/outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "%2E%2E%2Foutside%2Fsecret.txt", target.ErrNotFound},
		{"page.md", "..%2foutside%2fsecret.txt", target.ErrNotFound},
		{"page.md", "..%2Foutside/secret.txt", target.ErrNotFound},
		{"page.md", "..%5Coutside%5Csecret.txt", target.ErrNotFound},
		// Double encoding decodes once: "%252e%252e" is the name "%2e%2e".
		{"page.md", "%252e%252e/outside/secret.txt", target.ErrNotFound},
		{"page.md", "%252e%252e/x.txt", nil},
		{"page.md", "%25252e%25252e/x.txt", target.ErrNotFound},
		// Absolute paths are project paths.
		{"page.md", "/bin/sh", target.ErrNotFound},
		{"page.md", "/etc/passwd", target.ErrOutsideRoot}, // through the root's symlink "etc"
		{"page.md", out + "/secret.txt", target.ErrNotFound},
		{"page.md", "/" + out + "/secret.txt", target.ErrNotOurs}, // a network-path reference
		{"page.md", "/src/a.txt", nil},
		// file: URIs.
		{"page.md", "file:///etc/passwd", target.ErrOutsideRoot},
		{"page.md", "file://localhost/etc/passwd", target.ErrOutsideRoot},
		{"page.md", "file://LOCALHOST/etc/passwd", target.ErrOutsideRoot},
		{"page.md", "file:/etc/passwd", target.ErrOutsideRoot},
		{"page.md", "file:////etc/passwd", target.ErrOutsideRoot},
		{"page.md", "file://otherhost/x", target.ErrOutsideRoot},
		{"page.md", "file://otherhost/etc/passwd", target.ErrOutsideRoot},
		{"page.md", "file://" + out + "/secret.txt", target.ErrOutsideRoot},
		{"page.md", "file://localhost" + out + "/secret.txt", target.ErrOutsideRoot},
		{"page.md", "file:" + out + "/secret.txt", target.ErrOutsideRoot},
		{"page.md", "file://" + abs + "/../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "file://" + abs + "/%2e%2e/outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "file://" + abs + "/dir-out/secret.txt", target.ErrOutsideRoot},
		{"page.md", "file:secret.txt", target.ErrOutsideRoot},
		{"page.md", "file:../outside/secret.txt", target.ErrOutsideRoot},
		{"page.md", "file:///C:/Windows/win.ini", target.ErrOutsideRoot},
		{"page.md", "file://" + abs + "/src/a.txt", nil},
		// Overlong UTF-8 encodings of '.', '/' and '\' are not UTF-8.
		{"page.md", "%C0%AE%C0%AE/outside/secret.txt", target.ErrBadPath},
		{"page.md", "%C0%AE%C0%AE%C0%AFoutside%C0%AFsecret.txt", target.ErrBadPath},
		{"page.md", "%E0%80%AE%E0%80%AE/outside/secret.txt", target.ErrBadPath},
		{"page.md", "%F0%80%80%AE%F0%80%80%AE/outside/secret.txt", target.ErrBadPath},
		{"page.md", "..%C1%9Coutside%C1%9Csecret.txt", target.ErrBadPath},
		{"page.md", "%ED%A0%80.txt", target.ErrBadPath}, // a surrogate
		// Backslashes are data on this system, never separators.
		{"page.md", `..\outside\secret.txt`, target.ErrNotFound},
		// Markdown reads "\." as "." (a backslash escape): such a link fails
		// as escaped (ErrEscaped), written as it is or as read.
		{"docs/page.md", `..\..\etc\passwd`, target.ErrEscaped},
		{"page.md", `src\..\..\outside\secret.txt`, target.ErrEscaped},
		{"page.md", `back\slash.txt`, nil},
		{"page.md", `back%5Cslash.txt`, nil},
		// Windows drive letters are URI schemes: not local links at all.
		{"page.md", "C:/Windows/win.ini", target.ErrNotOurs},
		{"page.md", `C:\Windows\win.ini`, target.ErrNotOurs},
		{"page.md", "c:../outside/secret.txt", target.ErrNotOurs},
		{"page.md", "/C:/Windows/win.ini", target.ErrNotFound},
		{"page.md", "./C:/x", target.ErrNotFound},
		// NUL, raw and encoded.
		{"page.md", "%00", target.ErrBadPath},
		{"page.md", "src/a.txt%00.png", target.ErrBadPath},
		{"page.md", "../outside/secret.txt%00", target.ErrBadPath},
		{"page.md", "src/a\x00.txt", target.ErrBadPath},
		{"page.md", "%2e%2e%00/outside/secret.txt", target.ErrBadPath},
		// Look-alikes of dots are names, not dot segments.
		{"page.md", "\uff0e\uff0e/outside/secret.txt", target.ErrNotFound},
		{"page.md", "\u2025/outside/secret.txt", target.ErrNotFound},
		{"page.md", "\u2024\u2024/outside/secret.txt", target.ErrNotFound},
		{"page.md", "%EF%BC%8E%EF%BC%8E/outside/secret.txt", target.ErrNotFound},
		{"page.md", "..\u2215outside\u2215secret.txt", target.ErrNotFound}, // DIVISION SLASH
		// Very long paths.
		{"page.md", strings.Repeat("../", 20000) + "etc/passwd", target.ErrOutsideRoot},
		{"page.md", strings.Repeat("%2e%2e/", 5000) + "etc/passwd", target.ErrOutsideRoot},
		{"page.md", strings.Repeat("a/", 20000) + "x.txt", target.ErrNotFound},
		{"page.md", strings.Repeat("./", 20000) + "src/a.txt", nil},
		{"page.md", strings.Repeat("src/../", 5000) + "src/a.txt", nil},
		{"page.md", strings.Repeat("dloop/", 30) + "src/a.txt", anySafe},
	}
	for _, tt := range tests {
		checkSafe(t, r, root, tt.doc, tt.link+frag, tt.want)
	}
	if n := r.ReadsOf("../outside/secret.txt"); n != 0 {
		t.Errorf("the secret was read %d times", n)
	}
}

// TestAdversarialFileURIOtherHost: a file URI naming another host is not a
// local file, even when the host name followed by the path spells a path
// inside the root (file://tmp/x/root/a.txt is host "tmp", path
// "/x/root/a.txt"). RFC 8089 section 3: a non-local host is not read.
func TestAdversarialFileURIOtherHost(t *testing.T) {
	root, _ := realm(t)
	r := newResolver(t, target.Options{Root: root})
	host, rest, ok := strings.Cut(strings.TrimPrefix(filepath.ToSlash(root), "/"), "/")
	if !ok {
		t.Skip("the root has a single path segment")
	}
	link := "file://" + host + "/" + rest + "/src/a.txt#line=,1"
	checkSafe(t, r, root, "page.md", link, target.ErrOutsideRoot)
}

// TestAdversarialLongName: a name longer than the system allows is a
// missing file, typed as such, not an untyped system error.
func TestAdversarialLongName(t *testing.T) {
	root, _ := realm(t)
	r := newResolver(t, target.Options{Root: root})
	for _, link := range []string{
		strings.Repeat("a", 300) + ".txt#line=,1",
		"src/" + strings.Repeat("%61", 4000) + "#line=,1",
		strings.Repeat("b", 5000) + "/a.txt#line=,1",
	} {
		_, err := r.Resolve("page.md", link)
		if !errors.Is(err, target.ErrNotFound) || target.Kind(err) != "missing" {
			t.Errorf("%.40q…: %.200v (kind %q), want ErrNotFound (missing)", link, err, target.Kind(err))
		}
	}
}

func TestAdversarialSymlinks(t *testing.T) {
	root, _ := realm(t)
	r := newResolver(t, target.Options{Root: root})
	tests := []struct {
		link string
		want error
	}{
		{"in-rel.txt", nil},
		{"in-abs.txt", nil},
		{"dir-in/a.txt", nil},
		{"dir-in-abs/a.txt", nil},
		{"c1", nil},
		{"docs/up.txt", nil},
		{"dloop/dloop/dloop/src/a.txt", nil},
		{"out-rel.txt", target.ErrOutsideRoot},
		{"out-abs.txt", target.ErrOutsideRoot},
		{"dir-out/secret.txt", target.ErrOutsideRoot},
		{"dir-out/sub/secret.txt", target.ErrOutsideRoot},
		{"dir-out-abs/secret.txt", target.ErrOutsideRoot},
		{"dir-slash" + filepath.ToSlash(root) + "/../outside/secret.txt", target.ErrOutsideRoot},
		{"dir-slash/etc/passwd", target.ErrOutsideRoot},
		{"etc/passwd", target.ErrOutsideRoot},
		{"dev-zero", target.ErrOutsideRoot}, // and never read: it has no end
		{"proc-environ", target.ErrOutsideRoot},
		{"e1", target.ErrOutsideRoot},
		{"m1", target.ErrOutsideRoot},
		{"docs/deep/leak.txt", target.ErrOutsideRoot},
		{"docs/deep/hop/secret.txt", target.ErrOutsideRoot},
		{"dloop-up/outside/secret.txt", target.ErrOutsideRoot},
		{"dloop/dloop-up/outside/secret.txt", target.ErrOutsideRoot},
		{"loop-a", target.ErrNotFound},
		{"self", target.ErrNotFound},
		{"self/x.txt", target.ErrNotFound},
		{"dangling", target.ErrNotFound},
		{"dir-in", target.ErrIsDirectory},
		{"dir-out", target.ErrOutsideRoot},
		// Out and back in: the file's real path is inside the root, so the
		// profile allows it; refusing is safe too.
		{"dir-out/back.txt", anySafe},
		{"dloop-up/root/src/a.txt", anySafe},
		// NFC link, NFD name on disk, leading outside: matched, then refused.
		{"\u00e9xt/secret.txt", target.ErrOutsideRoot},
		{"%C3%A9xt/secret.txt", target.ErrOutsideRoot},
		{"e%CC%81xt/secret.txt", target.ErrOutsideRoot},
		{"dir-out/\u00e9vil/x.txt", target.ErrOutsideRoot},
	}
	for _, tt := range tests {
		checkSafe(t, r, root, "page.md", tt.link+"#line=,1", tt.want)
	}
	for _, p := range []string{"dev-zero", "proc-environ", "out-rel.txt", "out-abs.txt", "e1", "m1"} {
		if n := r.ReadsOf(p); n != 0 {
			t.Errorf("%s was read %d times", p, n)
		}
	}
}

// TestAdversarialNormalization: with an allowed root "café" (NFC) beside its
// NFD twin, a link written with the twin's spelling does not reach into the
// twin, although both normalize to the same name.
func TestAdversarialNormalization(t *testing.T) {
	root, _ := realm(t)
	r := newResolver(t, target.Options{Root: root, AllowedRoots: []string{"caf\u00e9"}})
	tests := []struct {
		link string
		want error
	}{
		{"caf\u00e9/ok.txt", nil},
		{"caf%C3%A9/ok.txt", nil},
		{"cafe\u0301/nfd.txt", target.ErrOutsideRoot},
		{"cafe%CC%81/nfd.txt", target.ErrOutsideRoot},
		{"cafe\u0301/ok.txt", target.ErrOutsideRoot},
		{"caf\u00e9/nfd.txt", target.ErrNotFound}, // only the twin has it
		{"caf\u00e9/../cafe\u0301/nfd.txt", target.ErrOutsideRoot},
		{"caf\u00e9/%2e%2e/cafe%CC%81/nfd.txt", target.ErrOutsideRoot},
		{"src/a.txt", target.ErrOutsideRoot},
		{"../outside/caf\u00e9.txt", target.ErrOutsideRoot},
		{"../outside/cafe\u0301.txt", target.ErrOutsideRoot},
	}
	for _, tt := range tests {
		checkSafe(t, r, root, "page.md", tt.link+"#line=,1", tt.want)
	}
	if n := r.ReadsOf("cafe\u0301/nfd.txt"); n != 0 {
		t.Errorf("the NFD twin was read %d times", n)
	}
}

// TestAdversarialMalformed: bidirectional controls in paths (RFC 3987
// section 4.1), invalid UTF-8 in link destinations, and targets that are
// not text.
func TestAdversarialMalformed(t *testing.T) {
	root, _ := project(t, map[string]string{
		"nul.txt":       "text\x00more\n",
		"nul-end.txt":   "text\n\x00",
		"bad-utf8.txt":  "caf\xe9\n",
		"overlong.txt":  "\xc0\xae\xc0\xae\n",
		"surrogate.txt": "\xed\xa0\x80\n",
		"cut-rune.txt":  "ab\xe2\x82",
		"ok.txt":        "fine\n",
	})
	// The same defects past the cache limit, where the file is streamed.
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	write(t, root, map[string]string{
		"big-nul.txt":  big + "\x00",
		"big-bad.txt":  big[:len(big)/2] + "\xff" + big[len(big)/2:],
		"big-tail.txt": big + "\xe2\x82",
	})
	for _, cacheLimit := range []int64{0, 4096} {
		r := newResolver(t, target.Options{Root: root, CacheLimit: cacheLimit})
		for _, bidi := range []rune{0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069} {
			raw := string(bidi)
			enc := ""
			for _, b := range []byte(raw) {
				enc += fmt.Sprintf("%%%02X", b)
			}
			for _, link := range []string{
				"ok" + raw + ".txt", "ok" + enc + ".txt", raw + "ok.txt", "dir" + raw + "/ok.txt",
				"dir" + enc + "/../ok.txt", "ok.txt" + enc, "/" + enc, "file://" + filepath.ToSlash(root) + "/ok" + enc + ".txt",
			} {
				fails(t, r, "page.md", link+"#line=,1", target.ErrBadPath, "missing")
			}
		}
		// Neighbours of the bidi controls are ordinary characters.
		for _, c := range []string{"\u200D", "\u2065", "\u206A", "\u2029"} {
			fails(t, r, "page.md", "ok"+c+".txt#line=,1", target.ErrNotFound, "missing")
		}
		// Invalid UTF-8 in the destination, raw and percent-encoded.
		for _, link := range []string{"ok\xff.txt", "%FF", "ok%E2%82.txt", "\xc0\xaeok.txt", "ok.txt\xe2", "dir\xfe/../ok.txt"} {
			fails(t, r, "page.md", link+"#line=,1", target.ErrBadPath, "missing")
		}
		// Targets that are not text.
		for _, name := range []string{"nul.txt", "nul-end.txt", "bad-utf8.txt", "overlong.txt", "surrogate.txt", "cut-rune.txt", "big-nul.txt", "big-bad.txt", "big-tail.txt"} {
			fails(t, r, "page.md", name+"#char=0,1", rfc5147.ErrNotText, "not-text")
		}
		selects(t, r, "page.md", "ok.txt#line=,1", "ok.txt", "fine\n")
	}
}

// TestAdversarialHugeSingleLine quotes the end of a 100 MB file that is one
// line: the file is streamed in bounded memory, and positions near its end
// select exactly, with integrity checks over the whole file.
func TestAdversarialHugeSingleLine(t *testing.T) {
	const size = 100 << 20
	root := t.TempDir()
	name := filepath.Join(root, "huge.txt")
	start := time.Now()
	sum, err := writeHugeLine(name, size)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d MB in %v", size>>20, time.Since(start).Round(time.Millisecond))
	r := newResolver(t, target.Options{Root: root})
	tests := []struct {
		frag, text string
		clamped    bool
	}{
		{fmt.Sprintf("char=%d,%d", size-10, size), hugeTail(size, 10), false},
		{fmt.Sprintf("char=%d,%d;md5=%s;length=%d", size-3, size, sum, size), hugeTail(size, 3), false},
		{fmt.Sprintf("char=%d,%d", size-5, size+1000), hugeTail(size, 5), true},
		{fmt.Sprintf("char=%d", size), "", false},
		{"char=99999999999999999999", "", true},
		{fmt.Sprintf("char=%d,%d", size/2, size/2+7), hugeTail(size/2+7, 7), false},
		{"line=1", "", false}, // one line: the position after it is the end
	}
	var before, after runtime.MemStats
	for _, tt := range tests {
		runtime.GC()
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		res, err := r.Resolve("page.md", "huge.txt#"+tt.frag)
		elapsed := time.Since(t0)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Errorf("%s: %v", tt.frag, err)
			continue
		}
		if string(res.Selection.Text) != tt.text || res.Selection.Clamped != tt.clamped || res.Selection.TotalLines != 1 {
			t.Errorf("%s: %q clamped %v lines %d, want %q clamped %v", tt.frag, res.Selection.Text, res.Selection.Clamped, res.Selection.TotalLines, tt.text, tt.clamped)
		}
		// Streaming allocates its buffers and the selection, not the file.
		alloc := after.TotalAlloc - before.TotalAlloc
		if alloc > 16<<20 {
			t.Errorf("%s: allocated %d MB to select from a %d MB file", tt.frag, alloc>>20, size>>20)
		}
		t.Logf("%s: %v, %.1f MB allocated", tt.frag, elapsed.Round(time.Millisecond), float64(alloc)/(1<<20))
	}
	// A wrong md5 over the whole file is found, with the file's real one.
	_, err = r.Resolve("page.md", fmt.Sprintf("huge.txt#char=%d;md5=%s", size-1, strings.Repeat("0", 32)))
	var ie *rfc5147.IntegrityError
	if !errors.As(err, &ie) || ie.Actual.MD5Hex() != sum || ie.Actual.Length != size {
		t.Errorf("wrong md5: %v", err)
	}
}

// hugeLine is the pattern the huge file repeats: ASCII and no line ending.
const hugeLine = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_"

// hugeTail returns the n characters of the huge file that end at end.
func hugeTail(end, n int) string {
	var b strings.Builder
	for i := end - n; i < end; i++ {
		b.WriteByte(hugeLine[i%len(hugeLine)])
	}
	return b.String()
}

// writeHugeLine writes size bytes of hugeLine repeated, and returns their md5.
func writeHugeLine(name string, size int) (string, error) {
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	h := md5.New()
	w := bufio.NewWriterSize(f, 1<<20)
	chunk := []byte(strings.Repeat(hugeLine, (64<<10)/len(hugeLine)))
	for n := 0; n < size; {
		c := chunk[:min(len(chunk), size-n)]
		w.Write(c)
		h.Write(c)
		n += len(c)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
