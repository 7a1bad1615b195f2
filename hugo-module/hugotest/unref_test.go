package hugotest

import (
	"encoding/json"
	"html"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark/util"
)

// The references textfrag/escaped hands to textfrag/unref, as it writes them.
const (
	numericRefs = "&#(?:[0-9]+|[xX][0-9A-Fa-f]+);"
	namedRefs   = "&[A-Za-z0-9]+;"
	anyRefs     = "&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z0-9]+);"
)

// textfrag/unref decodes as Markdown reads, judged by readings that share
// no code with it: goldmark's own decoding of numeric references (what
// Hugo publishes) and Go's html.UnescapeString of each reference
// (CommonMark's reading), over strings dense in references, near-references
// and the edges (leading zeros, 8 digits, surrogates, beyond U+10FFFF,
// C1 code points, names with and without the semicolon).
func TestUnrefAsMarkdownReads(t *testing.T) {
	toks := []string{
		"&#", "&#x", "&#X", "&#0", "&amp;", "&#35;", "&#x80;", "&#150;", "&#x9F;", "&#043;", "&#0128;", "&#089;",
		"&#x110000;", "&#xD800;", "&#x00000041;", "&#x1234567;", "&#XFFFFFFFFF;", "&#x0000;", "&#00000000043;", "&#0000043;", "&#xdfff;", "&#x10FFFF;", "&#55296;", "&#0;", "&#x0;", "&#1114111;", "&#12345678;", "&#1234567;",
		"&notin;", "&ampx;", "&lt;", "&num;", "&NotANamE;", "&amp", "&", "&", "&",
		"#", ";", ";", "x", "X", "0", "00", "1", "7", "8", "9", "a", "F", "amp", "num", "150", "\\", "line=", "ä", "%", " ",
	}
	r := rand.New(rand.NewPCG(24, 1))
	inputs := []string{"", "plain", "&", "&&;", "&#;", "&#x;", "&amp;amp;", "&#38;#35;"}
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(10) {
			b.WriteString(toks[r.IntN(len(toks))])
		}
		inputs = append(inputs, b.String())
	}
	goldmarkNumeric := func(s string) string {
		return regexp.MustCompile(numericRefs).ReplaceAllStringFunc(s, func(m string) string {
			return string(util.ResolveNumericReferences([]byte(m)))
		})
	}
	htmlOf := func(re string) func(string) string {
		return func(s string) string { return regexp.MustCompile(re).ReplaceAllStringFunc(s, html.UnescapeString) }
	}
	modes := []struct {
		re, mode string
		want     func(string) string
	}{
		{numericRefs, "goldmark", goldmarkNumeric},
		{namedRefs, "html", htmlOf(namedRefs)},
		{anyRefs, "html", htmlOf(anyRefs)},
	}
	root := t.TempDir()
	var layout strings.Builder
	layout.WriteString("{{- $out := newScratch -}}\n{{- range $i, $s := .Params.inputs -}}\n{{- $row := slice -}}\n")
	for _, m := range modes {
		layout.WriteString(`{{- $row = $row | append (partial "textfrag/unref.txt" (dict "s" $s "re" ` + jsonString(m.re) + ` "mode" ` + jsonString(m.mode) + `)) -}}` + "\n")
	}
	layout.WriteString("{{- $out.SetInMap \"r\" (printf \"%06d\" $i) $row -}}\n{{- end -}}\n{{- $out.GetSortedMapValues \"r\" | jsonify -}}")
	write(t, filepath.Join(root, "_layouts", "single.html"), layout.String())
	fm, err := json.Marshal(map[string]any{"title": "t", "inputs": inputs})
	if err != nil {
		t.Fatal(err)
	}
	res := site{Root: root, keepLayout: true, Docs: map[string]string{"p.md": string(fm) + "\n\nx\n"}}.build(t)
	if res.Err != nil {
		t.Fatal(res.Err, res.Log)
	}
	var rows [][]string
	if err := json.Unmarshal([]byte(res.Pages["p.md"]), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(inputs) {
		t.Fatalf("%d rows for %d inputs", len(rows), len(inputs))
	}
	decoded, bad := 0, 0
	for i, in := range inputs {
		for k, m := range modes {
			want := m.want(in)
			if want != in {
				decoded++
			}
			if got := rows[i][k]; got != want && bad < 20 {
				bad++
				t.Errorf("%s %s of %q: the module reads %q, Markdown %q", m.mode, m.re, in, got, want)
			}
		}
	}
	// The inputs exercise the decoding: most hold a reference.
	if decoded < len(inputs) {
		t.Fatalf("only %d decodings in %d inputs × %d modes", decoded, len(inputs), len(modes))
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
