package fieldtest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	meta "github.com/yuin/goldmark-meta"
	"go.abhg.dev/goldmark/toc"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// A transformer that runs after textfrag's and puts blocks first in the
// document (toc's table of contents, goldmark-meta's table) does not make
// Convert write them before it fails: a page of many headings has a table
// of contents longer than the 4 KiB goldmark buffers before writing.
func TestNothingWrittenBeforeTheError(t *testing.T) {
	root := project(t)
	var doc strings.Builder
	doc.WriteString("---\ntitle: Guide\n---\n")
	for i := range 200 {
		fmt.Fprintf(&doc, "## Section %d\n\nText.\n\n", i)
	}
	doc.WriteString("[main](../src/hello.go#line=4,7;md5=" + stale + ")\n")
	line := strings.Count(doc.String(), "\n")
	for _, c := range []combination{
		{name: "toc", exts: with(&toc.Extender{}), options: ids()},
		{name: "meta table", exts: with(meta.New(meta.WithTable()))},
	} {
		for _, o := range orders() {
			md := newMarkdown(c, o.first, textfrag.WithRoot(root))
			out, _, err := convert(md, doc.String())
			var p *textfrag.Problem
			if !errors.As(err, &p) || p.Line != line || p.Kind != "integrity" {
				t.Errorf("%s, %s: Convert returned %v, want the integrity error at line %d", c.name, o.name, err, line)
			}
			if out != "" {
				t.Errorf("%s, %s: Convert wrote %d bytes before failing: %.200s…", c.name, o.name, len(out), out)
			}
		}
	}
}
