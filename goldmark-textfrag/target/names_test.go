package target_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

const serverGo = `package server

// Server serves.
type Server struct{ addr string }

// Handle handles.
func (s *Server) Handle() {
	_ = s.addr
}

// textfrag:begin setup
var ready = true
// textfrag:end setup
`

// countingParser finds "def NAME" lines and counts how often it parsed.
type countingParser struct{ parses *atomic.Int64 }

func (countingParser) Language() string { return "Python" }
func (p countingParser) Decls(src []byte) ([]symbol.Decl, error) {
	p.parses.Add(1)
	var ds []symbol.Decl
	off := 0
	for _, line := range strings.SplitAfter(string(src), "\n") {
		if name, ok := strings.CutPrefix(line, "def "); ok {
			name = strings.TrimRight(name, ":\n")
			ds = append(ds, symbol.Decl{Name: name, Kind: "func", Start: off, End: off + len(line), DocStart: off})
		}
		off += len(line)
	}
	return ds, nil
}

func TestFindName(t *testing.T) {
	root, _ := project(t, map[string]string{"src/server.go": serverGo, "src/a.py": "x = 1\ndef f:\n    pass\ndef g:\n"})
	var parses atomic.Int64
	r := newResolver(t, target.Options{Root: root, Symbols: symbol.Set{"python": countingParser{&parses}}})
	for _, c := range []struct {
		path string
		sel  symbol.Selector
		want symbol.Span
	}{
		{"src/server.go", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"}, symbol.Span{Start: 6, End: 9, Name: "Server.Handle", Kind: "method"}},
		{"src/server.go", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle", Doc: true}, symbol.Span{Start: 5, End: 9, Name: "Server.Handle", Kind: "method"}},
		{"src/server.go", symbol.Selector{Kind: symbol.Symbol, Name: "Server.addr"}, symbol.Span{Start: 3, End: 4, Name: "Server.addr", Kind: "field"}},
		{"src/server.go", symbol.Selector{Kind: symbol.Region, Name: "setup"}, symbol.Span{Start: 11, End: 12, Name: "setup", Kind: "region"}},
		// Options.Symbols is merged over the default: Go and Python both.
		{"src/a.py", symbol.Selector{Kind: symbol.Symbol, Name: "g"}, symbol.Span{Start: 3, End: 4, Name: "g", Kind: "func"}},
	} {
		got, err := r.FindName(c.path, "", c.sel)
		if err != nil || got != c.want {
			t.Errorf("%s in %s = %+v, %v; want %+v", c.sel, c.path, got, err, c.want)
		}
	}
	// One parse per file, however many lookups and goroutines.
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.FindName("src/a.py", "", symbol.Selector{Kind: symbol.Symbol, Name: "f"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := parses.Load(); n != 1 {
		t.Errorf("a.py parsed %d times, want once", n)
	}
	if n := r.ReadsOf("src/a.py"); n != 1 {
		t.Errorf("a.py read %d times, want once", n)
	}
	// Forget drops the parse with the text.
	r.Forget()
	if _, err := r.FindName("src/a.py", "", symbol.Selector{Kind: symbol.Symbol, Name: "f"}); err != nil {
		t.Fatal(err)
	}
	if n := parses.Load(); n != 2 {
		t.Errorf("after Forget: %d parses, want 2", n)
	}
	// A Fresh resolver keeps the parsers.
	if _, err := r.Fresh().FindName("src/a.py", "", symbol.Selector{Kind: symbol.Symbol, Name: "g"}); err != nil {
		t.Errorf("Fresh: %v", err)
	}
	// Errors of the file come first.
	if _, err := r.FindName("src/none.go", "", symbol.Selector{Kind: symbol.Symbol, Name: "F"}); !errors.Is(err, target.ErrNotFound) {
		t.Errorf("missing file: %v", err)
	}
}

func TestFindNameTooLarge(t *testing.T) {
	root, _ := project(t, map[string]string{"src/server.go": serverGo})
	r := newResolver(t, target.Options{Root: root, CacheLimit: 64})
	// The link itself resolves, streamed …
	if _, err := r.Resolve("page.md", "src/server.go#line=6,9"); err != nil {
		t.Fatal(err)
	}
	// … but its name is not looked up in part of a file.
	_, err := r.FindName("src/server.go", "", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"})
	want := "src/server.go is too large to look names up in (over 64 bytes, the most the resolver holds in memory); quote by lines without sym="
	if !errors.Is(err, symbol.ErrTooLarge) || err.Error() != want || target.Kind(err) != "symbol" || symbol.ErrorKind(err) != "unsupported" {
		t.Errorf("%v\nwant\n%s", err, want)
	}
}

func TestCheckName(t *testing.T) {
	root, _ := project(t, map[string]string{"src/server.go": serverGo})
	r := newResolver(t, target.Options{Root: root})
	check := func(link string, sel symbol.Selector) error {
		t.Helper()
		res, err := r.Resolve("docs/guide.md", link)
		if err != nil {
			t.Fatal(err)
		}
		return r.CheckName("docs/guide.md", res, "", sel)
	}
	handle := symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"}
	if err := check("../src/server.go#line=6,9", handle); err != nil {
		t.Errorf("matching link: %v", err)
	}
	if err := check("../src/server.go#line=11,12", symbol.Selector{Kind: symbol.Region, Name: "setup"}); err != nil {
		t.Errorf("matching region: %v", err)
	}
	err := check("../src/server.go#line=6,8", handle)
	want := "sym=Server.Handle spans lines 7–9 of src/server.go now (#line=6,9); the link quotes lines 7–8"
	var te *target.Error
	if !errors.As(err, &te) || te.Result == nil || te.Doc != "docs/guide.md" || te.Link != "../src/server.go#line=6,8" || err.Error() != want {
		t.Fatalf("mismatch: %v\nwant\n%s", err, want)
	}
	if got := target.Explain(err, "docs/guide.md"); got != want+"; run `textfrag pin --write docs/guide.md` to re-pin it" {
		t.Errorf("Explain: %s", got)
	}
	if got := target.Explain(err, ""); !strings.Contains(got, "write #line=6,9 in the link") {
		t.Errorf("Explain without a document: %s", got)
	}
	if target.Kind(err) != "symbol" || symbol.ErrorKind(err) != "mismatch" {
		t.Errorf("kinds %q %q", target.Kind(err), symbol.ErrorKind(err))
	}
	// A clamped range does not match, even when it selects the name's lines.
	if err := check("../src/server.go#line=11,99", symbol.Selector{Kind: symbol.Region, Name: "setup"}); symbol.ErrorKind(err) != "mismatch" {
		t.Errorf("clamped: %v", err)
	}
	// With doc, the doc comment belongs to the span.
	if err := check("../src/server.go#line=5,9", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle", Doc: true}); err != nil {
		t.Errorf("doc: %v", err)
	}
	if err := check("../src/server.go#line=6,9", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle", Doc: true}); symbol.ErrorKind(err) != "mismatch" {
		t.Errorf("doc left out of the link: %v", err)
	}
	for _, link := range []string{"../src/server.go#char=0,10", "../src/server.go#line=6"} {
		err := check(link, handle)
		if symbol.ErrorKind(err) != "options" || target.Kind(err) != "symbol" || !strings.Contains(err.Error(), "needs a line range") {
			t.Errorf("%s: %v, want an options error", link, err)
		}
	}
	err = check("../src/server.go#line=6,9", symbol.Selector{Kind: symbol.Symbol, Name: "Server.handle"})
	if symbol.ErrorKind(err) != "not-found" || !strings.Contains(err.Error(), "close names: Server.Handle") || target.Explain(err, "docs/guide.md") != err.Error() {
		t.Errorf("not found: %v", err)
	}
}

// A remote target's names are looked up in the text fetched for the link,
// fetched once; a host that is not allowed has no names.
func TestCheckNameRemote(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{"/server.go": serve("text/x-go", serverGo)})
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}})
	link := s.URL + "/server.go#line=6,9;md5=" + md5hex(serverGo)
	res, err := r.Resolve("page.md", link)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.CheckName("page.md", res, "", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"}); err != nil {
		t.Errorf("remote sym=: %v", err)
	}
	err = r.CheckName("page.md", res, "", symbol.Selector{Kind: symbol.Region, Name: "setup"})
	if symbol.ErrorKind(err) != "mismatch" || !strings.Contains(err.Error(), "of "+s.URL+"/server.go now (#line=11,12)") {
		t.Errorf("remote region=: %v", err)
	}
	if n := s.requests("/server.go"); n != 1 {
		t.Errorf("%d fetches, want 1", n)
	}
	if _, err := remoteResolver(t, target.RemoteOptions{}).FindName(s.URL+"/server.go", "", symbol.Selector{Kind: symbol.Symbol, Name: "Server"}); !errors.Is(err, target.ErrNotOurs) {
		t.Errorf("host not allowed: %v", err)
	}
}

// With an Overlay (an editor's unsaved buffer), names are looked up in the
// overlay's bytes, the text Resolve quotes, not in the file on disk.
func TestFindNameOverlay(t *testing.T) {
	root, _ := project(t, map[string]string{"src/server.go": serverGo})
	edited := strings.Replace(serverGo, "package server\n", "package server\n\nimport \"log\"\n", 1)
	r := newResolver(t, target.Options{Root: root, Overlay: func(p string) ([]byte, bool) {
		return []byte(edited), p == "src/server.go"
	}})
	got, err := r.FindName("src/server.go", "", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"})
	if err != nil || got.Start != 8 || got.End != 11 {
		t.Errorf("Server.Handle in the overlay = %+v, %v; want lines 9–11", got, err)
	}
}
