package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hostile workspace: committed symbolic links inside the root that lead
// to .git, to .ssh, to the root itself and out of the root. Completion lists
// nothing behind them, and hover and definition show none of their text.
func TestLSPCompletionThroughLinks(t *testing.T) {
	root, _, _ := lspProject(t)
	outside := t.TempDir()
	e2eWrite(t, outside, map[string]string{"id_rsa": "PRIVATE KEY\n", ".ssh/id_ed25519": "PRIVATE KEY\n"})
	e2eWrite(t, root, map[string]string{
		".git/config":   "[remote]\ntoken = SECRET-GIT\n",
		".ssh/id_rsa":   "# textfrag:begin key\nSECRET-SSH\n# textfrag:end key\n",
		"docs/page.md":  "[a](k/\n[b](g/\n[c](up/\n[d](out/\n[e](./\n[f](up/.ssh/\n[g](k/id_rsa#line=0,1 \"region=\n[h](../src/r.go#line=0,1 \"region=\n",
		"src/r.go":      "package a\n// textfrag:begin ok\nvar x = 1\n// textfrag:end ok\n",
		"docs/quote.md": "[h](g/config#line=0,1)\n[i](out/id_rsa#line=0,1)\n[j](k/id_rsa#line=0,1)\n",
	})
	for link, to := range map[string]string{
		"docs/k":   "../.ssh",
		"docs/g":   "../.git",
		"docs/up":  "..",
		"docs/out": outside,
		"docs/cfg": "../.git/config",
	} {
		if err := os.Symlink(to, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	complete := func(line, char int) []string {
		var list struct {
			Items []struct{ Label, Detail string }
		}
		c.result("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{line, char}}, &list)
		var labels []string
		for _, it := range list.Items {
			labels = append(labels, it.Label)
		}
		return labels
	}
	for line, typed := range map[int]string{0: "[a](k/", 1: "[b](g/", 3: "[d](out/", 5: "[f](up/.ssh/"} {
		if got := complete(line, len(typed)); len(got) != 0 {
			t.Errorf("after %q: %v, want nothing (a secret directory, or out of the root)", typed, got)
		}
	}
	// The names in a title: none of a file behind a link to a secret.
	if got := complete(6, len(`[g](k/id_rsa#line=0,1 "region=`)); len(got) != 0 {
		t.Errorf("region names through k/: %v, want none", got)
	}
	if got := complete(7, len(`[h](../src/r.go#line=0,1 "region=`)); strings.Join(got, " ") != "ok" {
		t.Errorf("region names of src/r.go: %v, want ok", got)
	}
	// Through the link to the root: the root's files, never .git or .ssh.
	if got := strings.Join(complete(2, len("[c](up/")), " "); got != "docs/ src/ textfrag.toml" {
		t.Errorf("after up/: %q, want the root's files but .git and .ssh", got)
	}
	// In docs/: the pages and the link to the root; not the links to
	// .git, .ssh, .git/config or out of the root.
	if got := strings.Join(complete(4, len("[e](./")), " "); got != "page.md quote.md up/" {
		t.Errorf("after ./: %q, want page.md quote.md up/", got)
	}

	quote := c.open(filepath.Join(root, "docs/quote.md"), "markdown")
	for line := range 3 {
		for _, method := range []string{"textDocument/hover", "textDocument/definition"} {
			m := c.call(method, map[string]any{"textDocument": map[string]any{"uri": quote}, "position": lspPos{line, 5}})
			b, _ := json.Marshal(m)
			s := string(b)
			for _, secret := range []string{"SECRET", "PRIVATE KEY", outside} {
				if strings.Contains(s, secret) {
					t.Errorf("%s on line %d shows %q: %s", method, line, secret, s)
				}
			}
			if method == "textDocument/definition" && m["result"] != nil {
				t.Errorf("definition on line %d goes somewhere: %s", line, s)
			}
		}
	}
	c.shutdown()
}
