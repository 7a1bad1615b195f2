package main

import (
	"bytes"
	"unicode/utf8"

	"context"
	"flag"
	"fmt"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"io"
	"os"
	"path/filepath"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/lsp"
)

func init() {
	register(command{name: "lsp", summary: "language server for Markdown pages over stdio, for editors: textfrag lsp", run: runLSP})
}

const lspHelp = `Usage: textfrag lsp [flags]

Runs a language server (LSP 3.17) on standard input and output, for an
editor to start. For the Markdown pages the editor opens it reports what
check reports, as you type (with the range of each link's destination and
source "textfrag"), and again when a quoted file changes on disk or in the
editor; it shows the quoted lines on hover, goes to them (definition), makes
links clickable, completes paths after "](" and ranges after "#line=", and
from a source file finds the links that quote the line under the cursor
(references).

The project is found as every command finds it, from the directory the
editor starts the server in: the nearest textfrag.toml at or above it, else
the top of the git work tree, else that directory; --root overrides it.
textfrag.toml sets defaults for the flags below, as for check.

Flags:`

// runLSP is the lsp command.
func runLSP(e *env, args []string) int {
	fset := flag.NewFlagSet("lsp", flag.ContinueOnError)
	lf := linkFlags{unpinned: true}
	lf.register(fset)
	fset.Usage = func() {
		fmt.Fprintln(fset.Output(), lspHelp)
		fset.PrintDefaults()
	}
	paths, ok := e.parseFlags(fset, args)
	if !ok {
		return exitUsage
	}
	if len(paths) > 0 {
		fset.Usage()
		return exitUsage
	}
	if !lf.find(e, fset) {
		return exitError
	}
	cfg, err := lspConfig(&lf)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	cfg.Log = e.stderr
	if err := lsp.Serve(context.Background(), cfg, e.stdin, e.stdout); err != nil {
		e.errorf("lsp: %v", err)
		return exitError
	}
	return exitOK
}

// lspConfig is the language server's view of the project lf found: check's
// conversion, pin's link scanner, and the pages check would check.
func lspConfig(lf *linkFlags) (lsp.Config, error) {
	ro, err := lf.remote.options()
	if err != nil {
		return lsp.Config{}, err
	}
	opts := target.Options{Root: lf.root, Charsets: lf.charsets, Remote: ro, AllowSecrets: lf.secrets}
	return lsp.Config{
		Root:     lf.root,
		Resolver: opts,
		Check: func(r *target.Resolver, path string, src []byte) ([]*textfrag.Problem, error) {
			// Named as check names it: relative to the working directory.
			name := path
			if cwd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(cwd, path); err == nil && filepath.IsLocal(rel) {
					name = rel
				}
			}
			p, err := convert(lf.markdown(r), r, name, src, false, false)
			if err != nil {
				return nil, err
			}
			adviseRoot(lf.proj, p.Problems)
			return p.Problems, nil
		},
		FindLinks: func(src []byte) []lsp.Link {
			found := pinFindLinks(src)
			links := make([]lsp.Link, len(found))
			for i, l := range found {
				links[i] = lsp.Link{Line: l.line, Col: l.col, Dest: l.dest, Start: l.start, End: l.end}
			}
			return links
		},
		CodeActions: func(r *target.Resolver, path string, src []byte, start, end int) []lsp.Action {
			return append(lspPinActions(r, opts, path, src, start, end), lspBoxActions(src, start, end)...)
		},
		MarkdownFiles: func() ([]string, error) {
			files, err := markdownFiles(defaultPaths(lf.proj))
			for i, f := range files {
				if abs, err := filepath.Abs(f); err == nil {
					files[i] = abs
				}
			}
			return files, err
		},
	}, nil
}

// lspPinActions offers what pin --accept-changed would do to each link
// of the page at path whose destination overlaps bytes [start, end): add
// the md5, refresh a stale length, move a range whose text moved (found
// through git history), or re-pin a quote whose text changed, which the
// title asks to review first. Every edit verifies before it is offered,
// as pin checks what it writes.
func lspPinActions(r *target.Resolver, ro target.Options, path string, src []byte, start, end int) []lsp.Action {
	quiet := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	p := &pinner{e: quiet, opt: pinOptions{acceptChanged: true}, res: r, resOptions: ro, hist: newPinHistory(r.Root()),
		current: map[string]*pinCurrentTarget{}, quotes: map[string]map[string]bool{}, reported: map[string]bool{}, curFile: path}
	doc := r.DocPath(path)
	var actions []lsp.Action
	for _, l := range pinFindLinks(src) {
		if l.start < 0 || l.end < start || l.start > end {
			continue
		}
		out := p.link(doc, l.dest)
		if !out.apply || out.newDest == "" || out.newDest == l.dest {
			continue
		}
		a := lsp.Action{Kind: "quickfix", Preferred: true, Edits: []lsp.ByteEdit{{Start: l.start, End: l.end, New: out.newDest}}}
		switch out.class {
		case "pinned":
			a.Title = "Pin: add md5= (textfrag pin)"
		case "refreshed":
			a.Title = "Refresh the integrity checks: " + out.msg
		case "moved":
			a.Title = "Relocate the moved text: " + out.msg
		case "changed":
			a.Title = "Re-pin the changed quote (review the change first): " + strings.TrimSuffix(out.msg, "; re-pinned (--accept-changed)")
			a.Preferred = false
		default:
			continue
		}
		actions = append(actions, a)
	}
	return actions
}

// lspBoxActions offers to turn an inline quote (a link inside running
// text) into a box, by giving it a paragraph of its own, and a box back
// into an inline quote, by joining it to the paragraph before (or else
// after) it. Only paragraphs at the top level or in list items are
// changed, where a blank line and the item's indentation are all it takes.
func lspBoxActions(src []byte, start, end int) []lsp.Action {
	doc := pinMarkdown.Parser().Parse(text.NewReader(src))
	var actions []lsp.Action
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindParagraph && n.Kind() != ast.KindTextBlock {
			return ast.WalkContinue, nil
		}
		para := n
		indent, ok := lspParagraphIndent(src, para)
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
			if dest == nil || !isPinCandidate(string(dest)) {
				continue
			}
			ls := c.Pos()
			le := lspParagraphEnd(src, para)
			if next := c.NextSibling(); next != nil {
				le = next.Pos()
			}
			if ls < 0 || le <= ls || le > len(src) || le < start || ls > end {
				continue
			}
			if c.PreviousSibling() == nil && c.NextSibling() == nil {
				if a, ok := lspJoin(src, para, ls, le); ok {
					actions = append(actions, a)
				}
				continue
			}
			// Inline: a blank line before and after it, spaces around it dropped.
			var edits []lsp.ByteEdit
			sep := "\n\n" + indent
			if c.PreviousSibling() != nil {
				b := ls
				for b > 0 && (src[b-1] == ' ' || src[b-1] == '\t') {
					b--
				}
				edits = append(edits, lsp.ByteEdit{Start: b, End: ls, New: sep})
			}
			if c.NextSibling() != nil {
				e := le
				for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
					e++
				}
				edits = append(edits, lsp.ByteEdit{Start: le, End: e, New: sep})
			}
			actions = append(actions, lsp.Action{Title: "Make this quote a box: give it a paragraph of its own", Kind: "refactor.rewrite", Edits: edits})
		}
		return ast.WalkSkipChildren, nil
	})
	return actions
}

// lspJoin joins the box at [ls, le), the only content of para, to the
// paragraph before it, else to the one after.
func lspJoin(src []byte, para ast.Node, ls, le int) (lsp.Action, bool) {
	a := lsp.Action{Title: "Make this quote inline: join it to the paragraph before", Kind: "refactor.rewrite"}
	if prev := para.PreviousSibling(); prev != nil && prev.Kind() == ast.KindParagraph {
		a.Edits = []lsp.ByteEdit{{Start: lspParagraphEnd(src, prev), End: ls, New: " "}}
		return a, true
	}
	if next := para.NextSibling(); next != nil && next.Kind() == ast.KindParagraph && next.Lines().Len() > 0 {
		a.Title = "Make this quote inline: join it to the paragraph after"
		a.Edits = []lsp.ByteEdit{{Start: le, End: next.Lines().At(0).Start, New: " "}}
		return a, true
	}
	return a, false
}

// lspParagraphEnd returns the offset after the last non-space byte of a
// paragraph.
func lspParagraphEnd(src []byte, para ast.Node) int {
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

// lspParagraphIndent returns the indentation a new paragraph next to para
// needs: none at the top level, the item's content column in a list item.
// ok is false elsewhere (block quotes, tables…).
func lspParagraphIndent(src []byte, para ast.Node) (string, bool) {
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
