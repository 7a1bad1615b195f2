package textfrag_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// WithRemote quotes allowed remote targets in boxes captioned with their
// URL; other hosts' links stay links; failures fail the conversion.
func TestWithRemote(t *testing.T) {
	const src = "package a\n\nfunc A() {}\n"
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/a.go" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, src)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	root := writeFiles(t, map[string]string{"x.txt": "x\n"})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(
		textfrag.WithRoot(root),
		textfrag.WithRemote(target.RemoteOptions{AllowHosts: []string{host}}),
		textfrag.WithSourceURL("https://example.org/{path}#L{start}"),
	)))
	link := srv.URL + "/a.go?raw=1#line=2,3;md5=" + md5hex(src)
	out, problems, err := convert(t, md, "doc.md", "[A]("+link+")\n")
	if err != nil || len(problems) != 0 {
		t.Fatalf("err %v, problems %v", err, problems)
	}
	for _, want := range []string{
		`<a class="textfrag-source" href="` + srv.URL + `/a.go?raw=1#line=2,3;md5=`, // the link itself, not WithSourceURL
		`>` + srv.URL + `/a.go?raw=1</a>`,                                           // the caption names the URL
		`data-lang="go"`,                                                            // the language from the URL's path
		`<span class="kd">func</span>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}

	// A host not allowed: left alone, not fetched.
	before := hits.Load()
	out, _, err = convert(t, md, "doc.md", "[A](http://localhost:1/a.go#line=2,3)\n")
	if err != nil || !strings.Contains(out, `<a href="http://localhost:1/a.go#line=2,3">A</a>`) {
		t.Errorf("host not allowed: err %v, out %s", err, out)
	}
	// An allowed host that fails, fails the conversion, lenient or not.
	lenient := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithLenient(true),
		textfrag.WithRemote(target.RemoteOptions{AllowHosts: []string{host}}))))
	_, problems, err = convert(t, lenient, "doc.md", "[A]("+srv.URL+"/gone.go#line=1)\n")
	if !errors.Is(err, target.ErrRemote) || len(problems) != 1 || problems[0].Kind != "remote" {
		t.Errorf("404: err %v, problems %v", err, problems)
	}
	_, _, err = convert(t, lenient, "doc.md", "[A]("+srv.URL+"/a.go#line=1;md5="+strings.Repeat("0", 32)+")\n")
	if !errors.Is(err, rfc5147.ErrIntegrity) || !strings.Contains(err.Error(), md5hex(src)) {
		t.Errorf("md5 mismatch: err %v", err)
	}
	if n := hits.Load() - before; n != 2 {
		t.Errorf("%d requests, want 2 (one per URL of an allowed host)", n)
	}
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// A bare URL that GFM's linkify makes a link is named at its own first
// character, not at the space, "(", "*", "_" or "~" before it, which goldmark
// takes as where the link starts. A host name with a top-level domain, as
// linkify links no IP address: the client dials the test server for it.
func TestLinkifiedURLNamedAtItsFirstCharacter(t *testing.T) {
	const src = "package a\n\nfunc A() {}\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, src)
	}))
	defer srv.Close()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, textfrag.New(
		textfrag.WithRoot(writeFiles(t, map[string]string{"x.txt": "x\n"})),
		textfrag.WithRemote(target.RemoteOptions{AllowHosts: []string{"code.example.com"}, Client: &http.Client{Transport: tr}}),
	)))
	const url = "http://code.example.com/a.go#line=2,3;md5=" + staleMD5
	for _, tt := range []struct {
		doc       string
		line, col int
	}{
		{"URL\n", 1, 1},
		{"See URL here.\n", 1, 5},
		{"Ünïcode (URL) here.\n", 1, 10},
		{"*URL*\n", 1, 2},
		{"_URL_\n", 1, 2},
		{"~~URL~~\n", 1, 3},
		{"one\ntwo URL\n", 2, 5},
		{"| a |\n|---|\n| x URL |\n", 3, 5},
	} {
		doc := strings.ReplaceAll(tt.doc, "URL", url)
		out, _, err := convert(t, md, "doc.md", doc)
		var p *textfrag.Problem
		if !errors.As(err, &p) || p.Kind != "integrity" {
			t.Errorf("%q: Convert returned %v, want the integrity error; output %s", doc, err, out)
			continue
		}
		if p.Line != tt.line || p.Column != tt.col || p.Link != url {
			t.Errorf("%q: error at %d:%d for %s, want at %d:%d", doc, p.Line, p.Column, p.Link, tt.line, tt.col)
		}
	}
}
