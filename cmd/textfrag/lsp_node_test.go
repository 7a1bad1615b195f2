package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lspInstaller is what installs the editors and client libraries the
// language server's tests drive.
const lspInstaller = "scripts/install-test-deps (as root: apt-get install nodejs npm neovim; npm ci in cmd/textfrag/testdata/lspclient)"

// lspNodeProject writes the project the real clients open: src/a.go (CJK
// and an emoji on the quoted line) and docs/page.md quoting it unpinned.
func lspNodeProject(t *testing.T) string {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "",
		"src/a.go":      lspSource,
		"docs/page.md":  "# Page\n\n日本 😀 [a](../src/a.go#line=1,2)\n",
	})
	return dir
}

// Microsoft's reference client library (vscode-languageserver-protocol,
// the one VS Code's client is built on) drives the built textfrag lsp
// through initialize, didOpen of a page with a stale link (its text moved
// since it was pinned and committed), diagnostics, hover, definition, the
// code action that relocates it and its edit, didChange, the same for a
// link that quotes func A by name (sym=A: the action re-pins it at the
// name's lines), didChangeWatchedFiles and shutdown
// (testdata/lspclient/client.mjs).
func TestLSPNodeClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: run %s", lspInstaller)
	}
	dir, _ := filepath.Abs("testdata/lspclient")
	if _, err := os.Stat(filepath.Join(dir, "node_modules/vscode-languageserver-protocol/package.json")); err != nil {
		t.Fatalf("vscode-languageserver-protocol is not installed in %s: run %s", dir, lspInstaller)
	}
	project := lspNodeProject(t)
	// Pinned to the committed version; then a line is inserted above.
	e2eWrite(t, project, map[string]string{
		"docs/page.md":  "# Page\n\n日本 😀 [a](../src/a.go#line=1,2;md5=" + e2eMD5(lspSource) + ")\n",
		"docs/named.md": "# Named\n\n[func A](../src/a.go#line=2,3;md5=" + e2eMD5(lspSource) + " \"sym=A\")\n",
	})
	lspGit(t, project, "init", "-q")
	lspGit(t, project, "add", "-A")
	lspGit(t, project, "commit", "-q", "-m", "pinned")
	e2eWrite(t, project, map[string]string{"src/a.go": "// a line inserted above\n" + lspSource})
	cmd := exec.Command(node, "client.mjs", e2eBin(t), project)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, out)
	}
	if got := strings.Count(string(out), "ok: "); got != 11 {
		t.Errorf("%d steps passed, want 11:\n%s", got, out)
	}
}
