package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Neovim's built-in LSP client (Debian's neovim, headless) starts the
// built textfrag lsp for a page, shows its diagnostic at the destination's
// byte columns (converted from the server's UTF-16 across CJK and an
// emoji), and gets hover there (testdata/lspnvim/init.lua).
func TestLSPNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim is not installed: run %s", lspInstaller)
	}
	config, _ := filepath.Abs("testdata/lspnvim/init.lua")
	dir := lspNodeProject(t)
	out := filepath.Join(t.TempDir(), "result.json")
	bin := e2eBin(t) // built before the clock starts: a cold build may take a minute
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", config, "docs/page.md")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TEXTFRAG="+bin, "OUT="+out, "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir())
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v", err)
	}
	var res struct {
		Error       string
		Hover       string
		Diagnostics []struct {
			Lnum, Col, EndCol, Severity int
			Source, Message             string
		}
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), `"end_col"`, `"endcol"`)), &res); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if res.Error != "" || len(res.Diagnostics) != 1 {
		t.Fatalf("result: %s", b)
	}
	d := res.Diagnostics[0]
	prefix, dest := "日本 😀 [a](", "../src/a.go#line=1,2"
	if d.Lnum != 2 || d.Col != len(prefix) || d.EndCol != len(prefix)+len(dest) || d.Source != "textfrag" || d.Severity != 2 || !strings.HasPrefix(d.Message, "unpinned: ") {
		t.Errorf("diagnostic %+v, want line 2, bytes %d–%d, a textfrag warning about the unpinned link", d, len(prefix), len(prefix)+len(dest))
	}
	if !strings.Contains(res.Hover, "line 2 of 3") || !strings.Contains(res.Hover, "```go\n// 日本語 😀 emoji\n```") {
		t.Errorf("hover %q", res.Hover)
	}
}
