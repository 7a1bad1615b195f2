package textfrag_test

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/yuin/goldmark"

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
