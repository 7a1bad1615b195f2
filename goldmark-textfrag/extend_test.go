package textfrag_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"golang.org/x/tools/txtar"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// TestCases runs testdata/*.txtar. Each archive holds doc.md, the files it
// links to, an optional "options" section (space-separated key=value), and
// what to expect: want.html (exact output), want.error and want.error2
// (substrings of Convert's error), want.problems (one substring per line, in
// order, of the Problems recorded). In target files {CR}, {LF} and {NEL}
// stand for those characters; a file holding {LF} loses its final newline.
func TestCases(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			runCase(t, p)
		})
	}
}

func runCase(t *testing.T, archive string) {
	a, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	sections := map[string]string{}
	for _, f := range a.Files {
		sections[f.Name] = string(f.Data)
		if f.Name == "options" || strings.HasPrefix(f.Name, "want.") {
			continue
		}
		data := f.Data
		if bytes.Contains(data, []byte("{LF}")) {
			data = expandControls(bytes.TrimSuffix(data, []byte("\n")))
		}
		full := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := []textfrag.Option{textfrag.WithRoot(root)}
	for _, kv := range strings.Fields(sections["options"]) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "highlight":
			opts = append(opts, textfrag.WithHighlighting(v == "true"))
		case "maxlines":
			n, _ := strconv.Atoi(v)
			opts = append(opts, textfrag.WithMaxLines(n))
		case "truncate":
			opts = append(opts, textfrag.WithTruncation(v == "true"))
		case "lenient":
			opts = append(opts, textfrag.WithLenient(v == "true"))
		case "sourceurl":
			opts = append(opts, textfrag.WithSourceURL(v))
		default:
			t.Fatalf("unknown option %q", k)
		}
	}
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(opts...)))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "doc.md")
	var out bytes.Buffer
	err = md.Convert([]byte(sections["doc.md"]), &out, parser.WithContext(pc))

	wantErr, hasWantErr := sections["want.error"]
	switch {
	case hasWantErr:
		if err == nil {
			t.Fatalf("Convert succeeded, want error containing %q", strings.TrimSpace(wantErr))
		}
		for _, key := range []string{"want.error", "want.error2"} {
			if w := strings.TrimSpace(sections[key]); w != "" && !strings.Contains(err.Error(), w) {
				t.Errorf("error\n%s\ndoes not contain\n%s", err, w)
			}
		}
		var p *textfrag.Problem
		if !errors.As(err, &p) {
			t.Errorf("error is %T, want *textfrag.Problem", err)
		}
	case err != nil:
		t.Fatalf("Convert: %v", err)
	}
	if want, ok := sections["want.html"]; ok && out.String() != want {
		t.Errorf("HTML:\n%s\nwant:\n%s", out.String(), want)
	}
	if want, ok := sections["want.problems"]; ok {
		lines := strings.Split(strings.TrimSpace(want), "\n")
		got := textfrag.Problems(pc)
		if len(got) != len(lines) {
			t.Fatalf("%d problems %v, want %d", len(got), got, len(lines))
		}
		for i, w := range lines {
			if !strings.Contains(got[i].Error(), w) {
				t.Errorf("problem %d:\n%s\ndoes not contain\n%s", i, got[i], w)
			}
		}
	}
}

// expandControls writes the {CR}, {LF} and {NEL} of target files as those characters.
func expandControls(b []byte) []byte {
	return []byte(strings.NewReplacer("{CR}", "\r", "{LF}", "\n", "{NEL}", "\u0085").Replace(string(b)))
}
