package target_test

import (
	"errors"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// fuzzDocs are the documents a fuzzed link is resolved in.
var fuzzDocs = []string{"page.md", "docs/page.md", "docs/deep/er/p.md", "src/a.txt"}

// FuzzResolve resolves arbitrary destinations against the realm: a root
// beside an outside directory, with symlinks inside, escaping, chained and
// looping. It must never panic; every failure is ErrNotOurs or a
// *target.Error; every success selects from a file whose real path is
// inside the root, and never the secret. testdata/fuzz/FuzzResolve holds
// the committed corpus.
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"src/a.txt#line=,1", "../outside/secret.txt#line=,1", "%2e%2e/outside/secret.txt#char=0,3",
		"..%2Foutside%2Fsecret.txt#line=1", "%252e%252e/x.txt#line=,1", "file:///etc/passwd#line=1",
		"file://localhost/etc/passwd#line=,1", "file://otherhost/x#line=1", "/../outside/secret.txt#line=,1",
		"%C0%AE%C0%AE/outside/secret.txt#line=1", `..\..\etc\passwd#line=1`, "C:/x#line=1", "a%00.txt#line=1",
		"out-abs.txt#line=,1", "dir-out/secret.txt#line=,1", "dloop-up/outside/secret.txt#line=,1",
		"dloop/dloop/src/a.txt#char=1,3;md5=00000000000000000000000000000000", "c1#line=0,1;length=13",
		"\u00e9xt/secret.txt#line=,1", "caf\u00e9/ok.txt#line=,1", "ok\u202e.txt#line=1", "dev-zero#char=0,1",
		"dir-out/back.txt#line=,1", "in-abs.txt#line=1,", "#line=,1", "?x#char=0", "//host/a#line=1",
	} {
		f.Add(uint8(0), seed)
	}
	root, _ := realm(f)
	r, err := target.New(target.Options{Root: root, CacheLimit: 64})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, docIndex uint8, dest string) {
		doc := fuzzDocs[int(docIndex)%len(fuzzDocs)]
		res, err := r.Resolve(doc, dest)
		if err != nil {
			if res != nil {
				t.Fatalf("Resolve(%q, %q): a result with the error %v", doc, dest, err)
			}
			var te *target.Error
			if !errors.Is(err, target.ErrNotOurs) && !errors.As(err, &te) {
				t.Fatalf("Resolve(%q, %q): %T %v is neither ErrNotOurs nor a *target.Error", doc, dest, err, err)
			}
			return
		}
		assertInside(t, root, res, dest)
	})
}
