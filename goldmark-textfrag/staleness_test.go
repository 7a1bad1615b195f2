package textfrag_test

import (
	"crypto/md5"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/filetest"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// TestLongLivedInstanceQuotesFilesAsTheyAreNow: a goldmark instance that
// lives on (a server rendering on demand) quotes the file as it is at each
// conversion, even when the file changed without changing size or
// modification time, and the md5 of the old text no longer passes.
func TestLongLivedInstanceQuotesFilesAsTheyAreNow(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/a.txt": "version one\n"})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	oldSum := fmt.Sprintf("%x", md5.Sum([]byte("version one\n")))
	page := "[a](../src/a.txt#line=0,1;md5=" + oldSum + ")\n"

	out, _, err := convert(t, md, "docs/p.md", page)
	if err != nil || !strings.Contains(out, "version one") {
		t.Fatalf("first conversion: %v\n%s", err, out)
	}
	filetest.RewriteSameStamp(t, filepath.Join(root, "src", "a.txt"), "version two\n")

	out, _, err = convert(t, md, "docs/p.md", page)
	if !errors.Is(err, rfc5147.ErrIntegrity) {
		t.Errorf("the old md5 passed after the file changed: err %v\n%s", err, out)
	}
	out, _, err = convert(t, md, "docs/p.md", "[a](../src/a.txt#line=0,1)\n")
	if err != nil || !strings.Contains(out, "version two") || strings.Contains(out, "version one") {
		t.Errorf("second conversion does not quote the file as it is: %v\n%s", err, out)
	}
}

// TestSharedResolverIsOneSnapshotUntilForget: with WithResolver, the
// Resolver is the unit: it reads each file once for all the documents it
// serves, keeps that text, and reads again after Forget.
func TestSharedResolverIsOneSnapshotUntilForget(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/a.txt": "version one\n"})
	r, err := target.New(target.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithResolver(r))))
	page := "[a](../src/a.txt#line=0,1)\n"
	if out, _, err := convert(t, md, "docs/p.md", page); err != nil || !strings.Contains(out, "version one") {
		t.Fatalf("first conversion: %v\n%s", err, out)
	}
	filetest.RewriteSameStamp(t, filepath.Join(root, "src", "a.txt"), "version two\n")
	if out, _, err := convert(t, md, "docs/q.md", page); err != nil || !strings.Contains(out, "version one") {
		t.Errorf("a shared Resolver read the file again within a build: %v\n%s", err, out)
	}
	r.Forget()
	if out, _, err := convert(t, md, "docs/p.md", page); err != nil || !strings.Contains(out, "version two") {
		t.Errorf("after Forget: %v\n%s", err, out)
	}
	if n := r.ReadsOf("src/a.txt"); n != 1 {
		t.Errorf("src/a.txt read %d times since Forget, want 1", n)
	}
}

// TestSecretsOptionReachesTheResolver: WithAllowSecrets is the extension's
// spelling of target.Options.AllowSecrets; without it .env is refused.
func TestSecretsOptionReachesTheResolver(t *testing.T) {
	root := writeFiles(t, map[string]string{".env.example": "PORT=8080\n"})
	page := "[e](.env.example#line=0,1)\n"
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	if _, _, err := convert(t, md, "p.md", page); !errors.Is(err, target.ErrSecret) {
		t.Errorf("without WithAllowSecrets: %v, want ErrSecret", err)
	}
	md = goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithAllowSecrets(".env.example"))))
	if out, _, err := convert(t, md, "p.md", page); err != nil || !strings.Contains(out, "PORT=8080") {
		t.Errorf("with WithAllowSecrets: %v\n%s", err, out)
	}
}
