package page

import (
	"bytes"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v3"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
)

// fragmentInText finds text that may hold an RFC 5147 link, before any
// Markdown is parsed.
var fragmentInText = regexp.MustCompile(`(?i)#(?:line|char)=`)

// frontString is one string of the front matter, where it starts in the
// page (1-based; the column counts characters).
type frontString struct {
	text         string
	line, column int
}

// CheckFrontMatter verifies the RFC 5147 links in the strings of the page's
// YAML front matter, as check verifies the body's: Hugo renders a
// front-matter summary as Markdown, through the page's render hooks, and
// themes render description and title with markdownify, on list pages,
// in feeds and meta tags; pin pins every link there. Each string holding
// an RFC 5147 fragment is read as Markdown of its own, resolved from the
// page's directory; the links are counted, and their problems, placed
// where pin finds the link in the page (else at the string's start), added
// to the page's in document order.
func CheckFrontMatter(md goldmark.Markdown, p *Page, r *target.Resolver, name string, src []byte) {
	yamlStart, yamlEnd, bodyStart, ok := mdlink.FrontMatter(src)
	if !ok || !fragmentInText.Match(src[yamlStart:yamlEnd]) {
		return
	}
	var root yaml.Node
	if err := unmarshalYAML(src[yamlStart:yamlEnd], &root); err != nil {
		return // SplitFrontMatter reported it
	}
	firstLine := bytes.Count(src[:yamlStart], []byte("\n")) // lines before the YAML
	var strs []frontString
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode, yaml.MappingNode:
			for _, c := range n.Content { // aliases are not followed: each string once
				walk(c)
			}
		case yaml.ScalarNode:
			if n.Tag == "!!str" && fragmentInText.MatchString(n.Value) {
				strs = append(strs, frontString{text: n.Value, line: firstLine + n.Line, column: n.Column})
			}
		}
	}
	walk(&root)
	if len(strs) == 0 {
		return
	}
	// Where pin finds each link of the front matter, to place problems.
	located := mdlink.Find(src[:bodyStart])
	used := make([]bool, len(located))
	abs, err := filepath.Abs(name)
	if err != nil {
		return
	}
	for _, s := range strs {
		pc := parser.NewContext()
		textfrag.SetDocument(pc, abs)
		textfrag.SetDocumentName(pc, name)
		doc := md.Parser().Parse(text.NewReader([]byte(s.text)), parser.WithContext(pc))
		n, _ := linkTargets(doc, r, r.DocPath(abs), false)
		p.Links += n
		for _, prob := range textfrag.Problems(pc) {
			prob.Line, prob.Column = s.line, s.column
			for i, l := range located {
				if !used[i] && l.Dest == prob.Link && l.Line >= s.line {
					used[i] = true
					prob.Line, prob.Column = l.Line, l.Column
					break
				}
			}
			p.Problems = append(p.Problems, prob)
		}
	}
	sort.SliceStable(p.Problems, func(i, j int) bool {
		a, b := p.Problems[i], p.Problems[j]
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
}
