package lsp

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"unicode/utf8"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// lines returns d's line index.
func (s *Server) lines(d *document) *lineIndex {
	if d.index == nil {
		d.index = newLineIndex(d.text, s.enc)
	}
	return d.index
}

// linksOf returns d's RFC 5147 links (and shortcodes), as check and pin
// find them.
func (s *Server) linksOf(d *document) []mdlink.Link {
	if !d.scanned {
		d.links, d.scanned = mdlink.Page(d.text), true
	}
	return d.links
}

// resolver returns a Resolver that reads every file afresh, open buffers
// in place of files on disk.
func (s *Server) resolver() *target.Resolver { return s.base.Fresh() }

// docPath returns the path a page's links resolve against: its project
// path, or its OS path when it lies outside the root.
func (s *Server) docPath(d *document) string {
	if d.proj != "" {
		return d.proj
	}
	return s.base.DocPath(d.path)
}

// publish checks the page d as check does and sends its diagnostics.
func (s *Server) publish(d *document) {
	r := s.resolver()
	var problems []*textfrag.Problem
	if d.path == "" || d.proj == "" {
		problems = s.notChecked(d)
	} else {
		p, err := page.Check(s.cfg.Markdown(r), r, s.pageName(d.path), d.text, page.CheckOptions{Lenient: s.cfg.Lenient, Unpinned: s.cfg.Unpinned})
		if err != nil {
			problems = []*textfrag.Problem{{Severity: textfrag.Error, Line: 1, Column: 1, Kind: "read", Message: err.Error()}}
		} else {
			problems = p.Problems
			if s.cfg.Advise != nil {
				s.cfg.Advise(problems)
			}
		}
	}
	// What the page quotes, for refreshing it when one of those changes.
	quoted := map[string]bool{}
	doc := s.docPath(d)
	for _, l := range s.linksOf(d) {
		if l.Dest == "" {
			continue
		}
		res, err := r.Resolve(doc, l.Dest)
		var te *target.Error
		switch {
		case err == nil && res.Path != "" && !target.IsRemote(res.Path):
			quoted[res.Path] = true
		case errors.As(err, &te) && te.Path != "" && !target.IsRemote(te.Path):
			quoted[te.Path] = true
		}
	}
	for p := range quoted {
		if _, ok := s.stamps[p]; !ok {
			s.stamps[p] = statOf(filepath.Join(s.cfg.Root, filepath.FromSlash(p)))
		}
	}
	located := s.locate(d, problems)
	s.mu.Lock()
	d.quoted, d.problems = quoted, located
	s.mu.Unlock()
	x := s.lines(d)
	diags := make([]Diagnostic, 0, len(located))
	for _, l := range located {
		sev := severityError
		if l.p.Severity == textfrag.Warning {
			sev = severityWarning
		}
		diags = append(diags, Diagnostic{
			Range: x.span(l.start, l.end), Severity: sev, Code: l.p.Kind, Source: "textfrag", Message: shown(l.p.Message),
		})
	}
	version := d.version
	if err := s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Version: &version, Diagnostics: diags}); err != nil {
		s.logf("publishing diagnostics: %v", err)
	}
}

// notChecked is the one problem of a page the server does not check: a
// buffer never saved (untitled:, no directory for its relative links to
// resolve against), or a page outside the project root (a second
// workspace folder: its links would all resolve outside this project's
// root, or against the wrong one). It is reported on the page's first link
// rather than each link failing with a false error and a wrong remedy;
// none for a page without links.
func (s *Server) notChecked(d *document) []*textfrag.Problem {
	links := s.linksOf(d)
	if len(links) == 0 {
		return nil
	}
	l := links[0]
	n, they := fmt.Sprintf("its %d textfrag links are", len(links)), "they are"
	if len(links) == 1 {
		n, they = "its textfrag link is", "it is"
	}
	msg := fmt.Sprintf("not checked: the page is not saved, so %s not verified; save it inside the project (%s) and %s checked", n, s.cfg.Root, they)
	if d.path != "" {
		msg = fmt.Sprintf("not checked: the page is outside the project root %s that this language server checks (found from the folder the editor opened first), so %s not verified here; open the page's own folder in an editor window of its own, or run `textfrag check` there", s.cfg.Root, n)
	}
	return []*textfrag.Problem{{Severity: textfrag.Warning, Line: l.Line, Column: l.Column, Link: l.Dest, Kind: "unchecked", Message: msg}}
}

// shown is text for the editor to show (a title, a label, a file name):
// control characters, bidirectional controls and bytes that are not
// UTF-8, which a file name may hold, written as Go escapes (\x1b), as
// check writes them.
func shown(s string) string { return termsafe.Escape(s, "") }

// locate finds the bytes each problem is about: its link's destination
// (for a reference link, the definition's), else the link as written
// where it is found in the page, else from the position the problem names
// to the end of that line. The links are indexed once (by position, and by
// destination in source order), so that a page of many links, each with a
// problem, costs time linear in them, not their square (locateVisits
// counts the links looked at, for the tests).
func (s *Server) locate(d *document, problems []*textfrag.Problem) []located {
	links := s.linksOf(d)
	x := s.lines(d)
	type at struct {
		line, col int
		dest      string
	}
	byPos := make(map[at]mdlink.Link, len(links))
	byDest := map[string][]mdlink.Link{}
	for _, l := range links {
		if l.Start < 0 {
			continue
		}
		if k := (at{l.Line, l.Column, l.Dest}); !hasKey(byPos, k) {
			byPos[k] = l
		}
		byDest[l.Dest] = append(byDest[l.Dest], l)
	}
	visits := len(links)
	for _, ls := range byDest {
		slices.SortStableFunc(ls, func(a, b mdlink.Link) int { return cmp.Compare(a.Start, b.Start) })
	}
	out := make([]located, 0, len(problems))
	for _, p := range problems {
		off := charOffset(x, p.Line, p.Column)
		start, end := off, x.lineEnd(x.position(off).Line)
		visits++
		if l, ok := byPos[at{p.Line, p.Column, p.Link}]; ok {
			out = append(out, located{p, l.Start, l.End})
			continue
		}
		// The first link to the same destination at or after the
		// position; else the last before it.
		if ls := byDest[p.Link]; len(ls) > 0 {
			i, _ := slices.BinarySearchFunc(ls, off, func(l mdlink.Link, off int) int { return cmp.Compare(l.Start, off) })
			visits += bits.Len(uint(len(ls)))
			l := ls[max(0, min(i, len(ls)-1))]
			out = append(out, located{p, l.Start, l.End})
			continue
		}
		if p.Link != "" {
			// Written after its position, near it: a link's destination
			// follows its text. The window is bounded, so that many
			// problems about links written otherwise (with escapes or
			// entities) do not each search the whole page.
			near := d.text[off:min(len(d.text), off+len(p.Link)+locateWindow)]
			if i := bytes.Index(near, []byte(p.Link)); i >= 0 {
				start, end = off+i, off+i+len(p.Link)
			}
		}
		out = append(out, located{p, start, end})
	}
	locateVisits.Add(int64(visits))
	return out
}

// locateWindow is how far after a problem's position locate looks for
// its link as written, when the page's links do not hold it.
const locateWindow = 4096

// locateVisits counts the links locate has looked at.
var locateVisits atomic.Int64

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

// charOffset returns the byte offset of 1-based line and character column
// col (counted in code points), clamped to the line.
func charOffset(x *lineIndex, line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(x.starts) {
		return len(x.text)
	}
	off, end := x.starts[line-1], x.lineEnd(line-1)
	for n := 1; n < col && off < end; n++ {
		_, size := utf8.DecodeRune(x.text[off:])
		off += size
	}
	return off
}

// linkAt returns the link of d whose destination holds the position.
func (s *Server) linkAt(d *document, pos Position) (mdlink.Link, bool) {
	off := s.lines(d).offset(pos)
	for _, l := range s.linksOf(d) {
		if l.Start >= 0 && l.Start <= off && off <= l.End {
			return l, true
		}
	}
	return mdlink.Link{}, false
}

// problemsOf returns the messages of d's last check about link l.
func (s *Server) problemsOf(d *document, l mdlink.Link) []*textfrag.Problem {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var ps []*textfrag.Problem
	for _, p := range d.problems {
		if p.start == l.Start && p.end == l.End {
			ps = append(ps, p.p)
		}
	}
	return ps
}

// pageName names a page as check names it: relative to the working
// directory when it lies below it, else by its path.
func (s *Server) pageName(path string) string {
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, path); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return path
}

// doc returns the open document of uri, or an error for the client.
func (s *Server) doc(uri string) (*document, *rpcError) {
	s.mu.RLock()
	d := s.docs[uri]
	s.mu.RUnlock()
	if d == nil {
		return nil, &rpcError{codeRequestFailed, fmt.Sprintf("%s is not open", uri)}
	}
	return d, nil
}
