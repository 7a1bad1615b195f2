package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
)

// action is one code action on a page: its edits, as byte ranges of the
// page's source.
type action struct {
	title     string
	kind      string // "quickfix" or "refactor.rewrite"
	preferred bool
	edits     []pin.Edit
}

func (s *Server) codeActions(params json.RawMessage) (any, *rpcError) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, rerr := s.doc(p.TextDocument.URI)
	if rerr != nil {
		return nil, rerr
	}
	actions := []CodeAction{}
	if !d.markdown || d.proj == "" { // not checked: nothing to pin (notChecked)
		return actions, nil
	}
	x := s.lines(d)
	start, end := x.offset(p.Range.Start), x.offset(p.Range.End)
	for _, a := range append(s.pinActions(d, start, end), boxActions(d.text, start, end)...) {
		edits := make([]TextEdit, 0, len(a.edits))
		for _, e := range a.edits {
			edits = append(edits, TextEdit{Range: x.span(e.Start, e.End), NewText: e.Text})
		}
		ca := CodeAction{Title: shown(a.title), Kind: a.kind, IsPreferred: a.preferred, Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.uri: edits}}}
		for _, diag := range p.Context.Diagnostics {
			if a.kind == "quickfix" && diag.Source == "textfrag" {
				ca.Diagnostics = append(ca.Diagnostics, diag)
			}
		}
		actions = append(actions, ca)
	}
	return actions, nil
}

// pinActions offers, per quote, what pin would write for each link of d
// whose destination overlaps bytes [start, end): add the md5, refresh a
// stale length, move a range to where its text went (found through git
// history), or re-pin a quote whose text changed at a known new place,
// which the title asks to review first (choosing the action is accepting
// that one quote, as pin --accept does). A gone or review quote, or a
// changed one whose new place is not known, is offered nothing: the
// diagnostic says what a person must do (pin.Decide). pin offers only
// destinations that verify, and nothing for a link whose title the build
// refuses. Each action also keeps the link consistent (pin.Consistency:
// hl= and a caption stating the range follow the new lines).
func (s *Server) pinActions(d *document, start, end int) []action {
	r := s.resolver()
	planner := &pin.Planner{Resolver: r, History: pin.NewHistory(s.cfg.Root), AcceptChanged: true, Explain: s.cfg.Explain}
	doc := s.docPath(d)
	var actions []action
	for _, l := range s.linksOf(d) {
		if l.Start < 0 || l.End < start || l.Start > end {
			continue
		}
		// A title the build refuses is the author's to fix first: no
		// re-pin, by name or by lines (pin refuses it too).
		if textfrag.CheckTitle(l.Title) != nil {
			continue
		}
		c, _ := pin.Decide(planner.PlanLink(doc, l), true)
		if !c.Apply || c.NewDest == "" || c.NewDest == l.Dest {
			continue
		}
		a := action{kind: "quickfix", preferred: true, edits: []pin.Edit{{Start: l.Start, End: l.End, Text: c.NewDest}}}
		more, _ := pin.Consistency(d.text, c)
		a.edits = append(a.edits, more...)
		msg := strings.TrimSuffix(c.Message, "; re-pinned (--accept-changed)")
		if title, ok := namedActionTitle(l, c); ok {
			a.title = title
			a.preferred = c.Class != pin.Changed
			actions = append(actions, a)
			continue
		}
		switch c.Class {
		case pin.Pinned:
			// No old text to compare with: the lines are pinned as they
			// read now, which only the person who reads them can vouch
			// for; never preferred, so no "fix all" applies it unread.
			a.title = "Pin: add md5= to the lines as they read now; read them first (textfrag pin)"
			a.preferred = false
		case pin.Refreshed:
			a.title = "Refresh the integrity checks: " + msg
		case pin.Moved:
			a.title = "Relocate the moved text: " + msg
		case pin.Changed:
			a.title = "Re-pin the changed quote (review the change first): " + msg
			a.preferred = false
		default:
			continue
		}
		actions = append(actions, a)
	}
	return actions
}

// boxMarkdown parses pages as check does (GitHub-flavoured Markdown), to
// find which links stand alone in their paragraph.
var boxMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// boxActions offers to turn an inline quote (a link inside running text)
// into a box, by giving it a paragraph of its own, and a box back into an
// inline quote, by joining it to the paragraph before (or else after) it.
// Only paragraphs at the top level or in list items are changed, where a
// blank line and the item's indentation are all it takes.
func boxActions(src []byte, start, end int) []action {
	doc := boxMarkdown.Parser().Parse(text.NewReader(src))
	var actions []action
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindParagraph && n.Kind() != ast.KindTextBlock {
			return ast.WalkContinue, nil
		}
		para := n
		indent, ok := paragraphIndent(src, para)
		if !ok {
			return ast.WalkSkipChildren, nil
		}
		for c := para.FirstChild(); c != nil; c = c.NextSibling() {
			var dest []byte
			switch l := c.(type) {
			case *ast.Link:
				if l.Reference == nil {
					dest = l.Destination
				}
			case *ast.Image:
				if l.Reference == nil {
					dest = l.Destination
				}
			}
			if dest == nil || !mdlink.IsCandidate(string(dest)) {
				continue
			}
			ls := c.Pos()
			le := paragraphEnd(src, para)
			if next := c.NextSibling(); next != nil {
				le = next.Pos()
			}
			if ls < 0 || le <= ls || le > len(src) || le < start || ls > end {
				continue
			}
			if c.PreviousSibling() == nil && c.NextSibling() == nil {
				if a, ok := joinBox(src, para, ls, le); ok {
					actions = append(actions, a)
				}
				continue
			}
			// Inline: a blank line before and after it, spaces around it dropped.
			var edits []pin.Edit
			sep := "\n\n" + indent
			if c.PreviousSibling() != nil {
				b := ls
				for b > 0 && (src[b-1] == ' ' || src[b-1] == '\t') {
					b--
				}
				edits = append(edits, pin.Edit{Start: b, End: ls, Text: sep})
			}
			if c.NextSibling() != nil {
				e := le
				for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
					e++
				}
				edits = append(edits, pin.Edit{Start: le, End: e, Text: sep})
			}
			actions = append(actions, action{title: "Make this quote a box: give it a paragraph of its own", kind: "refactor.rewrite", edits: edits})
		}
		return ast.WalkSkipChildren, nil
	})
	return actions
}

// joinBox joins the box at [ls, le), the only content of para, to the
// paragraph before it, else to the one after.
func joinBox(src []byte, para ast.Node, ls, le int) (action, bool) {
	a := action{title: "Make this quote inline: join it to the paragraph before", kind: "refactor.rewrite"}
	if prev := para.PreviousSibling(); prev != nil && prev.Kind() == ast.KindParagraph {
		a.edits = []pin.Edit{{Start: paragraphEnd(src, prev), End: ls, Text: " "}}
		return a, true
	}
	if next := para.NextSibling(); next != nil && next.Kind() == ast.KindParagraph && next.Lines().Len() > 0 {
		a.title = "Make this quote inline: join it to the paragraph after"
		a.edits = []pin.Edit{{Start: le, End: next.Lines().At(0).Start, Text: " "}}
		return a, true
	}
	return a, false
}

// paragraphEnd returns the offset after the last non-space byte of a
// paragraph.
func paragraphEnd(src []byte, para ast.Node) int {
	lines := para.Lines()
	if lines.Len() == 0 {
		return para.Pos()
	}
	e := lines.At(lines.Len() - 1).Stop
	for e > 0 && (src[e-1] == '\n' || src[e-1] == '\r' || src[e-1] == ' ' || src[e-1] == '\t') {
		e--
	}
	return e
}

// paragraphIndent returns the indentation a new paragraph next to para
// needs: none at the top level, the item's content column in a list item.
// ok is false elsewhere (block quotes, tables…).
func paragraphIndent(src []byte, para ast.Node) (string, bool) {
	switch para.Parent().Kind() {
	case ast.KindDocument:
		return "", true
	case ast.KindListItem:
		if para.Lines().Len() == 0 {
			return "", false
		}
		s := para.Lines().At(0).Start
		ls := bytes.LastIndexByte(src[:s], '\n') + 1
		return strings.Repeat(" ", utf8.RuneCount(src[ls:s])), true
	}
	return "", false
}

// namedActionTitle titles the action that re-pins a link quoting by name
// (sym=, region=) at the lines the name spans now, as pin follows it:
// "Move to sym=Server.Handle's lines 12–30" (or "line 12"). A changed body asks for a
// review first. ok is false for a link without a name, or when the new
// destination quotes the same lines (only its checks change).
func namedActionTitle(l mdlink.Link, c pin.Change) (string, bool) {
	sel, _, named := nameOf(l)
	if !named {
		return "", false
	}
	now, err := rfc5147.Parse(target.SplitLink(c.NewDest).Fragment)
	if err != nil || now.Scheme != rfc5147.Line {
		return "", false
	}
	if was, err := rfc5147.Parse(target.SplitLink(l.Dest).Fragment); err == nil && was.Scheme == now.Scheme && was.Start == now.Start && was.End == now.End {
		return "", false
	}
	lines := symbol.Span{Start: int(now.Start), End: int(now.End)}.Lines()
	switch c.Class {
	case pin.Changed:
		return fmt.Sprintf("Re-pin at %s's %s (the quoted text changes: review it first)", sel, lines), true
	}
	return fmt.Sprintf("Move to %s's %s", sel, lines), true
}
