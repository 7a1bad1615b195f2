package page

import (
	"errors"
	"path/filepath"
	"sort"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/yuin/goldmark"
)

// CheckOptions are check's settings for what its goldmark instance does not
// see, the textfrag shortcodes of a page (the instance has its own
// options for links). The zero value checks strictly and warns about
// nothing more than the files' own warnings.
type CheckOptions struct {
	// Lenient is check's --lenient: syntax errors a lenient build passes
	// are warnings.
	Lenient bool
	// Unpinned warns about each shortcode without md5=, as
	// textfrag.WithUnpinnedWarnings does about links: `pin --write`
	// pins shortcodes as it pins links.
	Unpinned bool
}

// CheckShortcodes verifies the textfrag shortcodes of the page name, whose
// contents are src, as check verifies links: each is counted as a link, and
// its errors and warnings are added to the page's problems in document
// order. A shortcode Hugo would refuse (no path, no RFC 5147 fragment, a
// remote host not allowed) is an error, as it fails the Hugo build.
func CheckShortcodes(p *Page, o CheckOptions, r *target.Resolver, name string, src []byte) {
	scs := mdlink.PageShortcodes(src)
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
		prob := &textfrag.Problem{Severity: textfrag.Error, Document: name, Line: sc.Line, Column: sc.Column, Link: sc.Dest, Kind: "shortcode"}
		if sc.Err != "" && sc.Dest == "" {
			prob.Message, prob.Err = sc.Err, errors.New(sc.Err)
			p.Problems = append(p.Problems, prob)
			continue
		}
		res, err := r.Resolve(doc, sc.Dest)
		switch {
		case errors.Is(err, target.ErrNotOurs):
			prob.Message = "the textfrag shortcode quotes only RFC 5147 fragments (#line=…, #char=…) of files inside the project, or of remote hosts allowed with --allow-host"
			prob.Err = err
		case err != nil:
			prob.Kind, prob.Message, prob.Err = target.Kind(err), target.Explain(err, name), err
			if o.Lenient && target.Lenient(err) {
				prob.Severity = textfrag.Warning
				prob.Message += " (a warning in lenient mode)"
			}
		default:
			for _, w := range target.Warnings(res) {
				wp := *prob
				wp.Severity, wp.Kind, wp.Message = textfrag.Warning, "warning", w
				p.Problems = append(p.Problems, &wp)
			}
			if o.Unpinned && !pinned(res.Fragment) {
				wp := *prob
				wp.Severity, wp.Kind, wp.Message = textfrag.Warning, "unpinned", textfrag.UnpinnedWarning(name)
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

// Check does check's work for one page, whose contents are src: it
// converts the page without rendering it, and verifies its textfrag
// shortcodes (with o) and the links of its front matter (CheckFrontMatter). The page's Problems are every
// error and warning check reports for it, in document order, and Links
// counts what was checked. err is set only when the page cannot be
// converted at all (a panic is turned into one).
func Check(md goldmark.Markdown, r *target.Resolver, name string, src []byte, o CheckOptions) (_ *Page, err error) {
	defer Recover(&err, name)
	p, err := Convert(md, r, name, src, false, false)
	if err != nil {
		return nil, err
	}
	CheckShortcodes(p, o, r, name, src)
	CheckFrontMatter(md, p, r, name, src)
	return p, nil
}

// pinned reports whether f carries an md5= check.
func pinned(f rfc5147.Fragment) bool {
	for _, c := range f.Checks {
		if c.Kind == rfc5147.MD5 {
			return true
		}
	}
	return false
}
