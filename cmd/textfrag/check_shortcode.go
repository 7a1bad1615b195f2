package main

import (
	"errors"
	"path/filepath"
	"sort"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// pageShortcodeLinks returns the textfrag shortcodes of a page, skipping its
// front matter (Hugo expands none there), with offsets in src.
func pageShortcodeLinks(src []byte) []shortcodeLink {
	// The body has the front matter's lines left empty: positions are those
	// of src, offsets are off by what the blanking removed.
	_, body, _ := splitFrontMatter(src)
	delta := len(src) - len(body)
	links := findShortcodeLinks(body)
	for i := range links {
		if links[i].start >= 0 {
			links[i].start += delta
			links[i].end += delta
		}
	}
	return links
}

// checkShortcodes verifies the textfrag shortcodes of the page name, whose
// contents are src, as check verifies links: each is counted as a link, and
// its errors and warnings are added to the page's problems in document
// order. A shortcode Hugo would refuse (no path, no RFC 5147 fragment, a
// remote host not allowed) is an error, as it fails the Hugo build.
func checkShortcodes(p *page, lf *linkFlags, r *target.Resolver, name string, src []byte) {
	scs := pageShortcodeLinks(src)
	if len(scs) == 0 {
		return
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return
	}
	doc := r.DocPath(abs)
	for _, sc := range scs {
		p.Links++
		prob := &textfrag.Problem{Severity: textfrag.Error, Document: name, Line: sc.line, Column: sc.col, Link: sc.dest, Kind: "shortcode"}
		if sc.err != "" && sc.dest == "" {
			prob.Message, prob.Err = sc.err, errors.New(sc.err)
			p.Problems = append(p.Problems, prob)
			continue
		}
		res, err := r.Resolve(doc, sc.dest)
		switch {
		case errors.Is(err, target.ErrNotOurs):
			prob.Message = "the textfrag shortcode quotes only RFC 5147 fragments (#line=…, #char=…) of files inside the project, or of remote hosts allowed with --allow-host"
			prob.Err = err
		case err != nil:
			prob.Kind, prob.Message, prob.Err = target.Kind(err), target.Explain(err, name), err
			if lf.lenient && target.Lenient(err) {
				prob.Severity = textfrag.Warning
				prob.Message += " (a warning in lenient mode)"
			}
		default:
			for _, w := range target.Warnings(res) {
				wp := *prob
				wp.Severity, wp.Kind, wp.Message = textfrag.Warning, "warning", w
				p.Problems = append(p.Problems, &wp)
			}
			continue
		}
		p.Problems = append(p.Problems, prob)
	}
	sort.SliceStable(p.Problems, func(i, j int) bool {
		a, b := p.Problems[i], p.Problems[j]
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
}
