package target_test

import (
	"crypto/md5"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/textfrag/textfrag/internal/filetest"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// project writes files (slash paths relative to the root) under dir/root and
// returns the root; dir/outside holds a secret that no link may reach.
func project(t *testing.T, files map[string]string) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	write(t, outside, map[string]string{"secret.txt": "secret\n"})
	write(t, root, files)
	return root, outside
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
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

func symlink(t *testing.T, root, link, to string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(link))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(to, full); err != nil {
		t.Fatal(err)
	}
}

func newResolver(t *testing.T, o target.Options) *target.Resolver {
	t.Helper()
	r, err := target.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// selects checks that link, in document doc, selects text from the file at
// project path p.
func selects(t *testing.T, r *target.Resolver, doc, link, p, text string) *target.Result {
	t.Helper()
	res, err := r.Resolve(doc, link)
	if err != nil {
		t.Errorf("Resolve(%q, %q): %v", doc, link, err)
		return nil
	}
	if res.Path != p || string(res.Selection.Text) != text {
		t.Errorf("Resolve(%q, %q) = %s %q, want %s %q", doc, link, res.Path, res.Selection.Text, p, text)
	}
	return res
}

// fails checks that link fails with sentinel, of corpus kind kind.
func fails(t *testing.T, r *target.Resolver, doc, link string, sentinel error, kind string) *target.Error {
	t.Helper()
	res, err := r.Resolve(doc, link)
	if !errors.Is(err, sentinel) {
		var text string
		if res != nil {
			text = string(res.Selection.Text)
		}
		t.Errorf("Resolve(%q, %q) = %q, %v; want %v", doc, link, text, err, sentinel)
		return nil
	}
	if got := target.Kind(err); got != kind {
		t.Errorf("Resolve(%q, %q): Kind(%v) = %q, want %q", doc, link, err, got, kind)
	}
	var te *target.Error
	if !errors.As(err, &te) {
		t.Errorf("Resolve(%q, %q): %T is not a *target.Error", doc, link, err)
		return nil
	}
	if te.Doc != doc || te.Link != link {
		t.Errorf("Error names %q in %q, want %q in %q", te.Link, te.Doc, link, doc)
	}
	if res != nil {
		t.Errorf("Resolve(%q, %q) returned a result with its error", doc, link)
	}
	return te
}

var files = map[string]string{
	"src/a.txt":                 "first\nsecond\n",
	"docs/guide/page.md":        "# Guide\n",
	"docs/guide/b.txt":          "b1\nb2\n",
	"docs/c.txt":                "c\n",
	"my file.txt":               "space\n",
	"100%.txt":                  "percent\n",
	"src/caf\u00e9.txt":         "nfc\n", // stored NFC
	"src/nai\u0308ve.txt":       "nfd\n", // stored NFD: i + COMBINING DIAERESIS
	"re\u0301sume\u0301/cv.txt": "cv\n",  // an NFD directory
	"bin.dat":                   "abc\x00def\n",
	"latin.txt":                 "caf\xe9\n",
}

func TestResolvePaths(t *testing.T) {
	root, _ := project(t, files)
	r := newResolver(t, target.Options{Root: root})
	const doc = "docs/guide/page.md"
	tests := []struct{ doc, link, path, text string }{
		// Relative to the document's directory, with dot segments removed.
		{doc, "../../src/a.txt#line=1,2", "src/a.txt", "second\n"},
		{doc, "b.txt#line=,1", "docs/guide/b.txt", "b1\n"},
		{doc, "./b.txt#line=1,", "docs/guide/b.txt", "b2\n"},
		{doc, "./../c.txt#char=0,1", "docs/c.txt", "c"},
		{doc, "../guide/./b.txt#line=,1", "docs/guide/b.txt", "b1\n"},
		{doc, "../../src/nowhere/../a.txt#line=,1", "src/a.txt", "first\n"},
		{doc, "b.txt?plain=1#line=,1", "docs/guide/b.txt", "b1\n"},
		{"page.md", "src/a.txt#line=,1", "src/a.txt", "first\n"},
		{"./docs/../page.md", "src/a.txt#line=,1", "src/a.txt", "first\n"},
		// A leading '/' is the project root.
		{doc, "/src/a.txt#line=,1", "src/a.txt", "first\n"},
		{doc, "/docs/../src/a.txt#line=,1", "src/a.txt", "first\n"},
		// No path: the document itself.
		{"docs/c.txt", "#char=0,1", "docs/c.txt", "c"},
		// Percent-decoding, after the fragment is split off.
		{doc, "/my%20file.txt#line=,1", "my file.txt", "space\n"},
		{doc, "/my file.txt#line=,1", "my file.txt", "space\n"},
		{doc, "../../100%25.txt#line=,1", "100%.txt", "percent\n"},
		{doc, "/%73rc/a.txt#line=,1", "src/a.txt", "first\n"},
		{doc, "%2E%2E/c.txt#line=,1", "docs/c.txt", "c\n"},
		{doc, "%2e%2E/%2E/c.txt#line=,1", "docs/c.txt", "c\n"},
		// Non-ASCII names, raw or percent-encoded; NFC links find NFD names and back.
		{doc, "/src/caf\u00e9.txt#line=,1", "src/caf\u00e9.txt", "nfc\n"},
		{doc, "/src/caf%C3%A9.txt#line=,1", "src/caf\u00e9.txt", "nfc\n"},
		{doc, "/src/cafe\u0301.txt#line=,1", "src/cafe\u0301.txt", "nfc\n"},
		{doc, "/src/cafe%CC%81.txt#line=,1", "src/cafe\u0301.txt", "nfc\n"},
		{doc, "/src/na\u00efve.txt#line=,1", "src/na\u00efve.txt", "nfd\n"},
		{doc, "/src/na%C3%AFve.txt#line=,1", "src/na\u00efve.txt", "nfd\n"},
		{doc, "/src/nai\u0308ve.txt#line=,1", "src/nai\u0308ve.txt", "nfd\n"},
		{doc, "/r%C3%A9sum%C3%A9/cv.txt#line=,1", "r\u00e9sum\u00e9/cv.txt", "cv\n"},
	}
	for _, tt := range tests {
		res := selects(t, r, tt.doc, tt.link, tt.path, tt.text)
		if res != nil && res.Link.Written != tt.link {
			t.Errorf("Link.Written = %q", res.Link.Written)
		}
	}
	// file: URIs on the local host, inside the root.
	abs := filepath.ToSlash(root)
	selects(t, r, doc, "file://"+abs+"/src/a.txt#line=,1", "src/a.txt", "first\n")
	selects(t, r, doc, "file://localhost"+abs+"/src/a.txt#line=1,", "src/a.txt", "second\n")
	selects(t, r, doc, "FILE://"+abs+"/docs/c.txt#line=,1", "docs/c.txt", "c\n")
	// The fragment is parsed and kept.
	res := selects(t, r, doc, "/src/a.txt#line=001,2;length=13", "src/a.txt", "second\n")
	if res != nil && (res.Fragment.String() != "line=1,2;length=13" || res.Link.Fragment != "line=001,2;length=13") {
		t.Errorf("Fragment %s, Link.Fragment %q", res.Fragment.String(), res.Link.Fragment)
	}
	if got := r.Root(); got != root {
		t.Errorf("Root() = %q, want %q", got, root)
	}
	if got := r.DocPath(filepath.Join(root, "docs", "guide", "page.md")); got != doc {
		t.Errorf("DocPath = %q, want %q", got, doc)
	}
}

func TestResolveFailures(t *testing.T) {
	root, outside := project(t, files)
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newResolver(t, target.Options{Root: root})
	const doc = "docs/guide/page.md"
	tests := []struct {
		doc, link string
		sentinel  error
		kind      string
	}{
		// %2F is data, not a separator: no file has a '/' in its name.
		{"page.md", "src%2Fa.txt#line=,1", target.ErrNotFound, "missing"},
		{"docs/page.md", "..%2Fsrc%2Fa.txt#line=,1", target.ErrNotFound, "missing"},
		{doc, "missing.txt#line=1", target.ErrNotFound, "missing"},
		{"page.md", "src/a.txt/x#line=1", target.ErrNotFound, "missing"},
		{"page.md", "/etc/passwd#line=1", target.ErrNotFound, "missing"},
		{"page.md", "src/cafe.txt#line=1", target.ErrNotFound, "missing"},
		// Paths that cannot be decoded.
		{"page.md", "%zz.txt#line=1", target.ErrBadPath, "missing"},
		{"page.md", "a%00.txt#line=1", target.ErrBadPath, "missing"},
		{"page.md", "%FF.txt#line=1", target.ErrBadPath, "missing"},
		{"page.md", "a\u202eb.txt#line=1", target.ErrBadPath, "missing"},
		{"page.md", "a%E2%80%AEb.txt#line=1", target.ErrBadPath, "missing"},
		{"page.md", "a\u200fb.txt#line=1", target.ErrBadPath, "missing"},
		{"page.md", "dir\u2066/a.txt#line=1", target.ErrBadPath, "missing"},
		// Climbing out of the root.
		{"page.md", "../outside/secret.txt#line=1", target.ErrOutsideRoot, "outside"},
		{doc, "../../../outside/secret.txt#line=1", target.ErrOutsideRoot, "outside"},
		{doc, "/../outside/secret.txt#line=1", target.ErrOutsideRoot, "outside"},
		{"page.md", "%2E%2E/outside/secret.txt#line=1", target.ErrOutsideRoot, "outside"},
		{"page.md", "..#line=1", target.ErrOutsideRoot, "outside"},
		{"page.md", "file:///etc/passwd#line=1", target.ErrOutsideRoot, "outside"},
		{"page.md", "file://" + filepath.ToSlash(outside) + "/secret.txt#line=1", target.ErrOutsideRoot, "outside"},
		{"page.md", "file://otherhost" + filepath.ToSlash(root) + "/src/a.txt#line=1", target.ErrOutsideRoot, "outside"},
		{"page.md", "file:src/a.txt#line=1", target.ErrOutsideRoot, "outside"},
		// Directories.
		{"page.md", "src#line=1", target.ErrIsDirectory, "directory"},
		{"page.md", "src/#line=1", target.ErrIsDirectory, "directory"},
		{doc, "/#char=0", target.ErrIsDirectory, "directory"},
		{doc, ".#char=0", target.ErrIsDirectory, "directory"},
		// Not text.
		{"page.md", "bin.dat#line=1", rfc5147.ErrNotText, "not-text"},
		{"page.md", "latin.txt#line=1", rfc5147.ErrNotText, "not-text"},
		{"page.md", "fifo#line=1", rfc5147.ErrNotText, "not-text"},
		// Fragments that claim to be RFC 5147 but are not valid.
		{"page.md", "src/a.txt#line=1-2", rfc5147.ErrSyntax, "syntax"},
		{"page.md", "src/a.txt#LINE=1", rfc5147.ErrSyntax, "syntax"},
		{"page.md", "src/a.txt#line=1;md5=abc", rfc5147.ErrSyntax, "syntax"},
		{"page.md", "missing.txt#line=1,", target.ErrNotFound, "missing"},
		{"page.md", "src/a.txt#line=3,2", rfc5147.ErrMisordered, "misordered"},
		{"page.md", "src/a.txt#line=,1;length=1", rfc5147.ErrIntegrity, "integrity"},
	}
	for _, tt := range tests {
		fails(t, r, tt.doc, tt.link, tt.sentinel, tt.kind)
	}
	// An integrity error carries the result, for re-pinning.
	te := fails(t, r, "page.md", "src/a.txt#line=,1;length=1;md5=00000000000000000000000000000000", rfc5147.ErrIntegrity, "integrity")
	if te != nil {
		if te.Result == nil || te.Path != "src/a.txt" || len(te.Result.Selection.Checks) != 2 {
			t.Fatalf("integrity error without its result: %+v", te)
		}
		var ie *rfc5147.IntegrityError
		if !errors.As(te, &ie) || ie.Actual.Length != 13 || len(ie.Failed) != 2 {
			t.Errorf("IntegrityError %+v", ie)
		}
		if msg := target.Explain(te, "docs/page.md"); !strings.Contains(msg, "textfrag pin --write docs/page.md") {
			t.Errorf("Explain = %q, want the re-pin command", msg)
		}
	}
	// A syntax error names the problem, and where.
	te = fails(t, r, "page.md", "src/a.txt#line=1;md5=abc", rfc5147.ErrSyntax, "syntax")
	if te != nil && !strings.Contains(te.Error(), "md5 needs 32 hex digits, got 3") {
		t.Errorf("syntax error %q", te)
	}
}

func TestResolveNotOurs(t *testing.T) {
	root, _ := project(t, files)
	r := newResolver(t, target.Options{Root: root})
	for _, link := range []string{
		"src/a.txt", "src/a.txt#", "src/a.txt#intro", "src/a.txt#L10", "src/a.txt#L10-L20",
		"src/a.txt#line%3D1", "src/a.txt#%6Cine=1", "src/a.txt#lines=1", "src/a.txt#length=13;line=1",
		"https://example.com/a.txt#line=1", "http://example.com/a.txt#char=0", "HTTPS://example.com/a.txt#line=1",
		"mailto:someone@example.com#line=1", "ftp://example.com/text.txt#line=10,20;length=9876,UTF-8",
		// A network-path reference names another host.
		"//example.com/src/a.txt#line=1", "//localhost/src/a.txt#line=1",
		"", "#", "#intro",
	} {
		res, err := r.Resolve("page.md", link)
		if !errors.Is(err, target.ErrNotOurs) || res != nil {
			t.Errorf("Resolve(%q) = %v, %v; want ErrNotOurs", link, res, err)
		}
		var te *target.Error
		if errors.As(err, &te) {
			t.Errorf("Resolve(%q): ErrNotOurs wrapped in a *target.Error", link)
		}
		if target.Kind(err) != "" {
			t.Errorf("Kind(ErrNotOurs) = %q", target.Kind(err))
		}
	}
	if r.Reads() != 0 {
		t.Errorf("%d reads for links that are not ours", r.Reads())
	}
}

func TestResolveSymlinks(t *testing.T) {
	root, outside := project(t, files)
	symlink(t, root, "docs/alias.txt", "../src/a.txt")
	symlink(t, root, "lib", "src")
	symlink(t, root, "one.txt", "two.txt")
	symlink(t, root, "two.txt", "src/a.txt")
	symlink(t, root, "leak-abs.txt", filepath.Join(outside, "secret.txt"))
	symlink(t, root, "leak-rel.txt", "../outside/secret.txt")
	symlink(t, root, "ext", "../outside")
	symlink(t, root, "ext-abs", outside)
	symlink(t, root, "etc", "/etc")
	symlink(t, root, "deep/leak.txt", "../../outside/secret.txt")
	symlink(t, root, "dangling.txt", "nowhere.txt")
	symlink(t, root, "loop1", "loop2")
	symlink(t, root, "loop2", "loop1")
	symlink(t, root, "srcdir", "src/")
	r := newResolver(t, target.Options{Root: root})
	selects(t, r, "page.md", "docs/alias.txt#line=,1", "docs/alias.txt", "first\n")
	selects(t, r, "docs/page.md", "alias.txt#line=1,", "docs/alias.txt", "second\n")
	selects(t, r, "page.md", "lib/a.txt#line=,1", "lib/a.txt", "first\n")
	selects(t, r, "page.md", "one.txt#line=,1", "one.txt", "first\n")
	selects(t, r, "page.md", "srcdir/caf%C3%A9.txt#line=,1", "srcdir/caf\u00e9.txt", "nfc\n")
	for _, link := range []string{"leak-abs.txt", "leak-rel.txt", "ext/secret.txt", "ext-abs/secret.txt", "etc/passwd", "deep/leak.txt"} {
		fails(t, r, "page.md", link+"#line=,1", target.ErrOutsideRoot, "outside")
	}
	fails(t, r, "page.md", "dangling.txt#line=1", target.ErrNotFound, "missing")
	fails(t, r, "page.md", "loop1#line=1", target.ErrNotFound, "missing")
	fails(t, r, "page.md", "lib#line=1", target.ErrIsDirectory, "directory")
	// The secret was never read.
	if n := r.ReadsOf("leak-rel.txt") + r.ReadsOf("ext/secret.txt"); n != 0 {
		t.Errorf("%d reads of links leading outside", n)
	}
}

func TestAllowedRoots(t *testing.T) {
	root, outside := project(t, files)
	symlink(t, root, "src/up.txt", "../docs/c.txt") // inside the project, outside src
	symlink(t, root, "src/in.txt", "a.txt")
	r := newResolver(t, target.Options{Root: root, AllowedRoots: []string{"src"}})
	selects(t, r, "docs/page.md", "../src/a.txt#line=,1", "src/a.txt", "first\n")
	selects(t, r, "page.md", "src/in.txt#line=,1", "src/in.txt", "first\n")
	selects(t, r, "page.md", "src/caf%C3%A9.txt#line=,1", "src/caf\u00e9.txt", "nfc\n")
	fails(t, r, "page.md", "docs/c.txt#line=,1", target.ErrOutsideRoot, "outside")
	fails(t, r, "page.md", "src/up.txt#line=,1", target.ErrOutsideRoot, "outside")
	fails(t, r, "page.md", "srcx/a.txt#line=,1", target.ErrOutsideRoot, "outside")
	fails(t, r, "page.md", "src#line=,1", target.ErrIsDirectory, "directory")
	fails(t, r, "page.md", "../outside/secret.txt#line=,1", target.ErrOutsideRoot, "outside")

	// Absolute allowed roots, one of them outside the project root.
	r = newResolver(t, target.Options{Root: root, AllowedRoots: []string{filepath.Join(root, "docs"), outside}})
	selects(t, r, "page.md", "docs/c.txt#line=,1", "docs/c.txt", "c\n")
	selects(t, r, "docs/page.md", "../../outside/secret.txt#line=,1", "../outside/secret.txt", "secret\n")
	fails(t, r, "page.md", "src/a.txt#line=,1", target.ErrOutsideRoot, "outside")

	if _, err := target.New(target.Options{Root: root, AllowedRoots: []string{"no-such-dir"}}); err == nil {
		t.Error("New accepted an allowed root that does not exist")
	}
}

func TestResolveFS(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/page.md":        {Data: []byte("# Page\n")},
		"src/a.txt":           {Data: []byte("x\ny\n")},
		"src/cafe\u0301.txt":  {Data: []byte("nfd\n")},
		"src/big.txt":         {Data: []byte(strings.Repeat("0123456789\n", 1000))},
		"bin.dat":             {Data: []byte{0xff, 0xfe, 0x00}},
		"dir/sub/f.txt":       {Data: []byte("f\n")},
		"legacy/old.latin1":   {Data: []byte("caf\xe9\n")},
		"u16.txt":             {Data: []byte("\xff\xfea\x00\n\x00")},
		"empty-dir/.keep.txt": {Data: nil},
	}
	r := newResolver(t, target.Options{FS: fsys, Charsets: []target.CharsetRule{{Glob: "*.latin1", Charset: "latin1"}}})
	if r.Root() != "" {
		t.Errorf("Root() = %q with an FS", r.Root())
	}
	selects(t, r, "docs/page.md", "../src/a.txt#line=1,2", "src/a.txt", "y\n")
	selects(t, r, "docs/page.md", "/src/a.txt#char=0,1", "src/a.txt", "x")
	selects(t, r, "docs/page.md", "../src/caf%C3%A9.txt#line=,1", "src/caf\u00e9.txt", "nfd\n")
	selects(t, r, "page.md", "legacy/old.latin1#char=3,4", "legacy/old.latin1", "\u00e9")
	selects(t, r, "page.md", "u16.txt#line=,1", "u16.txt", "a\n")
	selects(t, r, "page.md", "src/big.txt#line=999,", "src/big.txt", "0123456789\n")
	fails(t, r, "page.md", "dir#line=1", target.ErrIsDirectory, "directory")
	fails(t, r, "page.md", "dir/sub#line=1", target.ErrIsDirectory, "directory")
	fails(t, r, "page.md", "nope.txt#line=1", target.ErrNotFound, "missing")
	fails(t, r, "page.md", "src/a.txt/x#line=1", target.ErrNotFound, "missing")
	fails(t, r, "page.md", "bin.dat#line=1", rfc5147.ErrNotText, "not-text")
	fails(t, r, "page.md", "../x.txt#line=1", target.ErrOutsideRoot, "outside")
	fails(t, r, "page.md", "file:///src/a.txt#line=1", target.ErrOutsideRoot, "outside")
	if got := r.DocPath("docs/./page.md"); got != "docs/page.md" {
		t.Errorf("DocPath = %q", got)
	}
}

func TestCharsetRules(t *testing.T) {
	root, _ := project(t, map[string]string{
		"x.latin1":         "caf\xe9\n",
		"legacy/y.txt":     "\x80\n", // windows-1252: the euro sign
		"legacy/sub/z.txt": "\xe9\n", // legacy/*.txt does not reach into sub
		"other/y.txt":      "\x80\n",
		"u16.latin1":       "\xfe\xff\x00\xe9", // a UTF-16 BOM wins over the rule
	})
	r := newResolver(t, target.Options{Root: root, Charsets: []target.CharsetRule{
		{Glob: "*.latin1", Charset: "ISO-8859-1"},
		{Glob: "legacy/*.txt", Charset: "windows-1252"},
		{Glob: "other/*.txt", Charset: "latin1"},
		{Glob: "*.txt", Charset: "UTF-8"}, // first match wins: legacy and other keep theirs
	}})
	res := selects(t, r, "page.md", "x.latin1#char=3,4;length=5;md5=70941b2a2a6a84556c97b2a3220ef4be", "x.latin1", "\u00e9")
	if res != nil && res.Selection.Entity.Charset.Name != "ISO_8859-1:1987" {
		t.Errorf("charset %q", res.Selection.Entity.Charset.Name)
	}
	selects(t, r, "page.md", "legacy/y.txt#char=0,1", "legacy/y.txt", "\u20ac")
	selects(t, r, "page.md", "other/y.txt#char=0,1", "other/y.txt", "\u0080")
	selects(t, r, "page.md", "u16.latin1#char=0,1", "u16.latin1", "\u00e9")
	fails(t, r, "page.md", "legacy/sub/z.txt#char=0,1", rfc5147.ErrNotText, "not-text")

	// Charset names the rule's charset for a project path, whether or
	// not the file exists (an old version's path), else UTF-8.
	for p, want := range map[string]string{
		"x.latin1":         "ISO_8859-1:1987",
		"gone/old.latin1":  "ISO_8859-1:1987",
		"legacy/y.txt":     "windows-1252",
		"other/y.txt":      "ISO_8859-1:1987",
		"legacy/sub/z.txt": "UTF-8", // *.txt
		"README":           "UTF-8", // no rule
	} {
		if got := r.Charset(p).Name; got != want {
			t.Errorf("Charset(%q) = %q, want %q", p, got, want)
		}
	}
	if got := newResolver(t, target.Options{Root: root}).Charset("x.latin1"); !got.IsUTF8() {
		t.Errorf("Charset without rules = %q, want UTF-8", got.Name)
	}

	if _, err := target.New(target.Options{Root: root, Charsets: []target.CharsetRule{{Glob: "*.x", Charset: "x-no-such"}}}); !errors.Is(err, rfc5147.ErrUnknownCharset) {
		t.Errorf("New with an unknown charset: %v", err)
	}
	if _, err := target.New(target.Options{Root: root, Charsets: []target.CharsetRule{{Glob: "[", Charset: "latin1"}}}); err == nil {
		t.Error("New accepted a malformed glob")
	}
}

func TestCacheReadsOnce(t *testing.T) {
	root, _ := project(t, files)
	r := newResolver(t, target.Options{Root: root})
	for i := range 10 {
		link := fmt.Sprintf("src/a.txt#char=%d", i)
		if i%3 == 0 {
			link = "../src/a.txt#line=,1;length=999" // an integrity failure reads nothing more
		}
		doc := "page.md"
		if i%3 == 0 {
			doc = "docs/page.md"
		}
		r.Resolve(doc, link)
	}
	if got := r.ReadsOf("src/a.txt"); got != 1 {
		t.Errorf("ReadsOf(src/a.txt) = %d after 10 links, want 1", got)
	}
	selects(t, r, "page.md", "docs/c.txt#line=,1", "docs/c.txt", "c\n")
	selects(t, r, "page.md", "docs/c.txt#char=0,1", "docs/c.txt", "c")
	fails(t, r, "page.md", "nope.txt#line=1", target.ErrNotFound, "missing")
	fails(t, r, "page.md", "nope.txt#line=2", target.ErrNotFound, "missing")
	if got := r.Reads(); got != 2 {
		t.Errorf("Reads() = %d, want 2 (two files)", got)
	}
	if r.ReadsOf("nope.txt") != 0 || r.ReadsOf("never.txt") != 0 {
		t.Error("a missing file counted as read")
	}
}

// TestResolveConcurrent resolves links to a few files from many goroutines:
// every result is right, and each file is read once. Run with -race.
func TestResolveConcurrent(t *testing.T) {
	root, _ := project(t, files)
	r := newResolver(t, target.Options{Root: root})
	type link struct{ doc, dest, text, kind string }
	links := []link{
		{"page.md", "src/a.txt#line=,1", "first\n", ""},
		{"docs/guide/page.md", "../../src/a.txt#line=1,2", "second\n", ""},
		{"docs/guide/page.md", "b.txt#char=0,2", "b1", ""},
		{"page.md", "docs/c.txt#line=,1;length=2", "c\n", ""},
		{"page.md", "docs/c.txt#line=,1;length=3", "", "integrity"},
		{"page.md", "src/caf%C3%A9.txt#line=,1", "nfc\n", ""},
		{"page.md", "bin.dat#line=1", "", "not-text"},
		{"page.md", "nope.txt#line=1", "", "missing"},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64*len(links))
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range links {
				l := links[(i+g)%len(links)]
				res, err := r.Resolve(l.doc, l.dest)
				switch {
				case l.kind != "" && target.Kind(err) != l.kind:
					errs <- fmt.Errorf("%s: %v, want %s", l.dest, err, l.kind)
				case l.kind == "" && err != nil:
					errs <- fmt.Errorf("%s: %v", l.dest, err)
				case l.kind == "" && string(res.Selection.Text) != l.text:
					errs <- fmt.Errorf("%s: %q, want %q", l.dest, res.Selection.Text, l.text)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, p := range []string{"src/a.txt", "docs/guide/b.txt", "docs/c.txt", "src/caf\u00e9.txt", "bin.dat"} {
		if got := r.ReadsOf(p); got != 1 {
			t.Errorf("ReadsOf(%s) = %d, want 1", p, got)
		}
	}
	if got := r.Reads(); got != 5 {
		t.Errorf("Reads() = %d, want 5", got)
	}
}

// TestLargeFileStreamed checks that files above CacheLimit are streamed, per
// link, with exactly the results of the cached path.
func TestLargeFileStreamed(t *testing.T) {
	var big strings.Builder
	for i := 1; big.Len() < 300<<10; i++ {
		fmt.Fprintf(&big, "line %d: caf\u00e9 \U0001F600\r\n", i)
	}
	text := big.String()
	root, _ := project(t, map[string]string{
		"big.txt":       text,
		"big-bom.txt":   "\ufeff" + text,
		"big.latin1":    strings.Repeat("caf\xe9\n", 60<<10),
		"small.txt":     "s\n",
		"bad-large.txt": text + "\x00",
	})
	// UTF-16 above the limit: streamed through SelectReader's whole-file path.
	u16 := []byte{0xff, 0xfe}
	for _, c := range "line 1\nline 2\n" + strings.Repeat("x\n", 20<<10) {
		u16 = append(u16, byte(c), 0)
	}
	if err := os.WriteFile(filepath.Join(root, "big16.txt"), u16, 0o644); err != nil {
		t.Fatal(err)
	}
	charsets := []target.CharsetRule{{Glob: "*.latin1", Charset: "ISO-8859-1"}}
	cached := newResolver(t, target.Options{Root: root, Charsets: charsets})
	streamed := newResolver(t, target.Options{Root: root, Charsets: charsets, CacheLimit: 1024})
	never := newResolver(t, target.Options{Root: root, Charsets: charsets, CacheLimit: -1})

	a, err := cached.Resolve("page.md", "big.txt#char=0")
	if err != nil {
		t.Fatal(err)
	}
	md5 := a.Selection.Entity.MD5Hex()
	length := a.Selection.Entity.Length
	links := []string{
		"big.txt#line=,1", "big.txt#line=1000,1010", "big.txt#line=5000,", "big.txt#line=99999,", "big.txt#line=1000,99999",
		"big.txt#char=0,", "big.txt#char=12345,12400", "big.txt#char=999999999", "big.txt#char=,1",
		fmt.Sprintf("big.txt#line=10,11;md5=%s;length=%d", md5, length),
		fmt.Sprintf("big.txt#line=10,11;md5=%s", strings.Repeat("0", 32)),
		fmt.Sprintf("big.txt#line=10,11;length=%d", length+1),
		fmt.Sprintf("big.txt#line=10,11;length=%d,ISO-8859-1", length),
		fmt.Sprintf("big.txt#line=10,11;length=%d,UTF-16LE;sha1=x", length),
		"big-bom.txt#line=,1", "big-bom.txt#char=0,3",
		"big.latin1#line=100,101", "big16.txt#line=1,2", "small.txt#line=,1", "bad-large.txt#line=1",
	}
	for _, link := range links {
		want, wantErr := cached.Resolve("page.md", link)
		for name, r := range map[string]*target.Resolver{"streamed": streamed, "never": never} {
			got, err := r.Resolve("page.md", link)
			if target.Kind(err) != target.Kind(wantErr) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s %s: error %v, want %v", name, link, err, wantErr)
				continue
			}
			if want == nil {
				var we, ge *target.Error
				if errors.As(wantErr, &we) && errors.As(err, &ge) && (we.Result == nil) != (ge.Result == nil) {
					t.Errorf("%s %s: result with error %v, want %v", name, link, ge.Result != nil, we.Result != nil)
				}
				continue
			}
			w, g := want.Selection, got.Selection
			if string(w.Text) != string(g.Text) || w.Chars != g.Chars || w.Lines != g.Lines || w.Bytes != g.Bytes ||
				w.First != g.First || w.Last != g.Last || w.Clamped != g.Clamped || w.AtEnd != g.AtEnd ||
				w.TotalLines != g.TotalLines || w.Entity.Length != g.Entity.Length || w.Entity.MD5 != g.Entity.MD5 ||
				w.Entity.Charset.Name != g.Entity.Charset.Name || w.Label() != g.Label() || len(w.Checks) != len(g.Checks) {
				t.Errorf("%s %s:\n got %+v\nwant %+v", name, link, g, w)
			}
		}
	}
	// Line 1001 starts after 1000 lines: check one selection by hand too.
	res := selects(t, streamed, "page.md", "big.txt#line=1000,1001", "big.txt", "line 1001: caf\u00e9 \U0001F600\r\n")
	if res != nil && (res.Selection.First != rfc5147.Point{Line: 1001, Column: 1} || res.Selection.Last != rfc5147.Point{Line: 1001, Column: 18}) {
		t.Errorf("First %v, Last %v", res.Selection.First, res.Selection.Last)
	}
	// The cached resolver read each file once; the streaming one reads
	// large UTF-8 files once per link, and caches the rest.
	n := int64(0)
	for _, l := range links {
		if strings.HasPrefix(l, "big.txt#") {
			n++
		}
	}
	if got := cached.ReadsOf("big.txt"); got != 1 {
		t.Errorf("cached ReadsOf(big.txt) = %d, want 1", got)
	}
	if got := streamed.ReadsOf("big.txt"); got != n+1 {
		t.Errorf("streamed ReadsOf(big.txt) = %d, want %d", got, n+1)
	}
	if got := streamed.ReadsOf("big.latin1"); got != 1 {
		t.Errorf("a large Latin-1 file is read whole, once: ReadsOf = %d", got)
	}
	if got := never.ReadsOf("small.txt"); got != 1 {
		t.Errorf("CacheLimit -1: ReadsOf(small.txt) = %d, want 1", got)
	}
}

func TestWarnings(t *testing.T) {
	root, _ := project(t, files)
	r := newResolver(t, target.Options{Root: root})
	res, err := r.Resolve("page.md", "src/a.txt#line=1,9;sha256=abc;length=13")
	if err != nil {
		t.Fatal(err)
	}
	ws := target.Warnings(res)
	if len(ws) != 2 {
		t.Fatalf("warnings %q, want two", ws)
	}
	if want := "goes past the end of src/a.txt (2 lines); selected line 2"; !strings.HasPrefix(ws[0], "line=1,9") || !strings.Contains(ws[0], want) {
		t.Errorf("warning %q, want line=1,9 … %q", ws[0], want)
	}
	if !strings.Contains(ws[1], `unknown integrity check "sha256" ignored`) {
		t.Errorf("warning %q", ws[1])
	}
	res, err = r.Resolve("page.md", "src/a.txt#char=20")
	if err != nil {
		t.Fatal(err)
	}
	if ws := target.Warnings(res); len(ws) != 1 || !strings.Contains(ws[0], "(13 characters); selected end of file") {
		t.Errorf("warnings %q", ws)
	}
	res, err = r.Resolve("page.md", "src/a.txt#line=1,2")
	if err != nil {
		t.Fatal(err)
	}
	if ws := target.Warnings(res); len(ws) != 0 {
		t.Errorf("warnings %q, want none", ws)
	}
}

// A number too large for an int64 clamps, and the warning shows it as the
// link writes it, not as the largest int64 it was read as.
func TestClampWarningShowsNumbersAsWritten(t *testing.T) {
	root, _ := project(t, files)
	r := newResolver(t, target.Options{Root: root})
	for dest, want := range map[string]string{
		"src/a.txt#line=1,99999999999999999999999":          "line=1,99999999999999999999999 goes past the end of src/a.txt (2 lines)",
		"src/a.txt#char=000099999999999999999999;length=13": "char=000099999999999999999999 goes past the end of src/a.txt (13 characters)",
		"docs/c.txt#line=0,99999999999999999999":            "line=0,99999999999999999999 goes past the end of docs/c.txt (1 line);",
	} {
		res, err := r.Resolve("page.md", dest)
		if err != nil {
			t.Fatalf("%s: %v", dest, err)
		}
		ws := target.Warnings(res)
		if len(ws) != 1 || !strings.HasPrefix(ws[0], want) || strings.Contains(ws[0], "9223372036854775807") {
			t.Errorf("%s: warnings %q, want one starting %q", dest, ws, want)
		}
	}
}

func TestKindExplainLenient(t *testing.T) {
	wrap := func(err error) error {
		return &target.Error{Doc: "d.md", Link: "x", Err: fmt.Errorf("wrapped: %w", err)}
	}
	tests := []struct {
		err     error
		kind    string
		lenient bool
		advice  string
	}{
		{rfc5147.ErrSyntax, "syntax", true, "line=10,20"},
		{rfc5147.ErrMisordered, "misordered", true, "line=10,20"},
		{rfc5147.ErrIntegrity, "integrity", false, "re-pin"},
		{target.ErrNotFound, "missing", false, "check the path"},
		{target.ErrBadPath, "missing", false, "percent-encoding"},
		{target.ErrOutsideRoot, "outside", false, "allowed roots"},
		{target.ErrIsDirectory, "directory", false, "not a directory"},
		{rfc5147.ErrNotText, "not-text", false, "text files only"},
		{errors.New("other"), "", false, ""},
	}
	for _, tt := range tests {
		err := wrap(tt.err)
		if got := target.Kind(err); got != tt.kind {
			t.Errorf("Kind(%v) = %q, want %q", tt.err, got, tt.kind)
		}
		if got := target.Lenient(err); got != tt.lenient {
			t.Errorf("Lenient(%v) = %v", tt.err, got)
		}
		if msg := target.Explain(err, "d.md"); !strings.HasPrefix(msg, err.Error()) || !strings.Contains(msg, tt.advice) {
			t.Errorf("Explain(%v) = %q, want advice %q", tt.err, msg, tt.advice)
		}
	}
}

func TestSplitLink(t *testing.T) {
	tests := []struct {
		in   string
		want target.Link
	}{
		{"a.txt#line=1", target.Link{Scheme: "", RawPath: "a.txt", Fragment: "line=1", HasFragment: true}},
		{"a%23b.txt#line=1#x", target.Link{RawPath: "a%23b.txt", Fragment: "line=1#x", HasFragment: true}},
		{"a.txt?q=1#line%3D1", target.Link{RawPath: "a.txt", Fragment: "line%3D1", HasFragment: true}},
		{"a.txt", target.Link{RawPath: "a.txt"}},
		{"a.txt#", target.Link{RawPath: "a.txt", HasFragment: true}},
		{"HTTPS://x.org/a#b", target.Link{Scheme: "https", RawPath: "//x.org/a", Fragment: "b", HasFragment: true}},
		{"file:///etc/passwd#line=1", target.Link{Scheme: "file", RawPath: "/etc/passwd", Fragment: "line=1", HasFragment: true}},
		{"file://localhost/etc/passwd", target.Link{Scheme: "file", RawPath: "/etc/passwd"}},
		{"file://host/etc/passwd", target.Link{Scheme: "file", RawPath: "//host/etc/passwd"}},
		{"c:x", target.Link{Scheme: "c", RawPath: "x"}},
		{"./c:x", target.Link{RawPath: "./c:x"}},
		{"1a:x", target.Link{RawPath: "1a:x"}},
	}
	for _, tt := range tests {
		tt.want.Written = tt.in
		if got := target.SplitLink(tt.in); got != tt.want {
			t.Errorf("SplitLink(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// An absolute symlink is judged by where it really leads: inside the root it
// is followed (os.Root alone would refuse it), outside it is refused.
func TestAbsoluteSymlinks(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	for name, data := range map[string]string{"src/a.txt": "inside\n"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "src", "a.txt"), filepath.Join(root, "abs-in.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "abs-out.txt")); err != nil {
		t.Fatal(err)
	}
	r, err := target.New(target.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Resolve("page.md", "abs-in.txt#line=0,1")
	if err != nil || string(res.Selection.Text) != "inside\n" {
		t.Errorf("absolute symlink inside the root: %v", err)
	}
	if _, err := r.Resolve("page.md", "abs-out.txt#line=0,1"); !errors.Is(err, target.ErrOutsideRoot) {
		t.Errorf("absolute symlink outside the root: err = %v, want ErrOutsideRoot", err)
	}
}

// A file URI is compared with the root after percent-decoding, so a root
// whose path has a space is matched by its encoded form.
func TestFileURIWithEncodedRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "My Docs")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a b.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := target.New(target.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	uri := "file://" + strings.ReplaceAll(filepath.ToSlash(root), " ", "%20") + "/a%20b.txt#line=0,1"
	res, err := r.Resolve("page.md", uri)
	if err != nil || res.Path != "a b.txt" || string(res.Selection.Text) != "x\n" {
		t.Errorf("%s: res %+v, err %v", uri, res, err)
	}
}

// TestForgetAndFresh: a Resolver quotes a file as it first read it, until
// Forget; Fresh starts with nothing read. Either way the next build quotes
// the file as it is now, and the old md5 fails.
func TestForgetAndFresh(t *testing.T) {
	root, _ := project(t, map[string]string{"a.txt": "old text\n"})
	r := newResolver(t, target.Options{Root: root})
	selects(t, r, "page.md", "a.txt#line=0,1", "a.txt", "old text\n")
	filetest.RewriteSameStamp(t, filepath.Join(root, "a.txt"), "new text\n")
	selects(t, r, "page.md", "a.txt#line=0,1", "a.txt", "old text\n") // one build: one snapshot
	fresh := r.Fresh()
	selects(t, fresh, "page.md", "a.txt#line=0,1", "a.txt", "new text\n")
	r.Forget()
	selects(t, r, "page.md", "a.txt#line=0,1", "a.txt", "new text\n")
	if n := r.ReadsOf("a.txt"); n != 1 {
		t.Errorf("after Forget, a.txt read %d times, want 1", n)
	}
	oldSum := fmt.Sprintf("%x", md5.Sum([]byte("old text\n")))
	fails(t, r, "page.md", "a.txt#line=0,1;md5="+oldSum, rfc5147.ErrIntegrity, "integrity")
}

// An overlay (an editor's unsaved buffers) replaces the bytes of a file the
// realm allows, and only of such a file: a secret, a symlink out of the
// root and a file missing on disk stay refused whatever the overlay holds.
func TestOverlay(t *testing.T) {
	root, outside := project(t, map[string]string{"a.txt": "on disk\n", ".env": "TOKEN=1\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "out.txt")); err != nil {
		t.Fatal(err)
	}
	buffers := map[string]string{"a.txt": "in the editor\n", ".env": "TOKEN=2\n", "out.txt": "x\n", "new.txt": "unsaved\n"}
	var mu sync.Mutex
	asked := map[string]int{}
	r := newResolver(t, target.Options{Root: root, Overlay: func(p string) ([]byte, bool) {
		mu.Lock()
		asked[p]++
		mu.Unlock()
		s, ok := buffers[p]
		return []byte(s), ok
	}})
	selects(t, r, "page.md", "a.txt#line=0,1", "a.txt", "in the editor\n")
	selects(t, r, "page.md", "a.txt#line=0,1", "a.txt", "in the editor\n")
	fails(t, r, "page.md", ".env#line=0,1", target.ErrSecret, "outside")
	fails(t, r, "page.md", "out.txt#line=0,1", target.ErrOutsideRoot, "outside")
	fails(t, r, "page.md", "new.txt#line=0,1", target.ErrNotFound, "missing")
	sum := fmt.Sprintf("%x", md5.Sum([]byte("in the editor\n")))
	selects(t, r, "page.md", "a.txt#line=0,1;md5="+sum, "a.txt", "in the editor\n")
	if asked["a.txt"] != 1 || asked[".env"] != 0 || asked["out.txt"] != 0 || asked["new.txt"] != 0 {
		t.Errorf("overlay asked %v, want a.txt once and nothing else", asked)
	}
	fresh := r.Fresh()
	buffers["a.txt"] = "edited again\n"
	selects(t, fresh, "page.md", "a.txt#line=0,1", "a.txt", "edited again\n")
}

// Stored gives the bytes a file's quotes were taken from, as stored (BOM and
// charset included), and keeps them when the file changes on disk after;
// nothing for a file not read yet, one that failed, or one streamed past
// CacheLimit.
func TestStored(t *testing.T) {
	root, _ := project(t, map[string]string{
		"x.latin1": "caf\xe9\n",
		"bom.txt":  "\ufeffa\nb\n",
		"big.txt":  strings.Repeat("line\n", 100),
	})
	r := newResolver(t, target.Options{Root: root, CacheLimit: 64, Charsets: []target.CharsetRule{{Glob: "*.latin1", Charset: "latin1"}}})
	if b, ok := r.Stored("x.latin1"); ok {
		t.Errorf("Stored before any read = %q", b)
	}
	selects(t, r, "page.md", "x.latin1#char=3,4", "x.latin1", "\u00e9")
	selects(t, r, "page.md", "bom.txt#line=0,1", "bom.txt", "a\n")
	selects(t, r, "page.md", "big.txt#line=0,1", "big.txt", "line\n")
	write(t, root, map[string]string{"x.latin1": "changed\n"})
	selects(t, r, "page.md", "x.latin1#char=3,4", "x.latin1", "\u00e9")
	for p, want := range map[string]string{"x.latin1": "caf\xe9\n", "bom.txt": "\ufeffa\nb\n"} {
		if b, ok := r.Stored(p); !ok || string(b) != want {
			t.Errorf("Stored(%s) = %q, %v; want %q", p, b, ok, want)
		}
	}
	if b, ok := r.Stored("big.txt"); ok {
		t.Errorf("Stored of a streamed file = %d bytes", len(b))
	}
	if _, err := r.Resolve("page.md", "missing.txt#line=0,1"); err == nil {
		t.Fatal("a missing file resolved")
	}
	if b, ok := r.Stored("missing.txt"); ok {
		t.Errorf("Stored of a missing file = %q", b)
	}
}
