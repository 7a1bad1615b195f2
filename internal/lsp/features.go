package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// hoverMaxLines and hoverMaxBytes bound the quoted text a hover shows:
// a quote of one 200 MB line (minified code, a data file) must not become
// a 200 MB message to the editor.
const (
	hoverMaxLines = 200
	hoverMaxBytes = 64 << 10
)

// hoverCut returns the start of text a hover shows, at most hoverMaxLines
// lines and hoverMaxBytes bytes (cut at a character's start), and when it
// is shorter than text, what it holds ("first 200 lines").
func hoverCut(text []byte) (shown []byte, cut string) {
	n := 0
	for i, c := range text {
		if i == hoverMaxBytes {
			for i > 0 && !utf8.RuneStart(text[i]) {
				i--
			}
			return text[:i], fmt.Sprintf("first %d KiB", hoverMaxBytes>>10)
		}
		if c == '\n' {
			if n++; n == hoverMaxLines && i+1 < len(text) {
				return text[:i+1], fmt.Sprintf("first %d lines", hoverMaxLines)
			}
		}
	}
	return text, ""
}

// resolveLink resolves l in d: the result (also for an integrity
// mismatch, which carries the selection) and the error, or ok false when
// the link is not an RFC 5147 link to a local file, or d is a page the
// server does not check (notChecked): a link resolved against another
// project's root would go to, complete and pin that project's file.
func (s *Server) resolveLink(r *target.Resolver, d *document, l mdlink.Link) (*target.Result, error, bool) {
	if l.Dest == "" || d.proj == "" {
		return nil, nil, false
	}
	res, err := r.Resolve(s.docPath(d), l.Dest)
	if errors.Is(err, target.ErrNotOurs) {
		return nil, nil, false
	}
	var te *target.Error
	if errors.As(err, &te) && te.Result != nil {
		res = te.Result
	}
	if res != nil && target.IsRemote(res.Path) {
		return nil, nil, false
	}
	return res, err, true
}

// humanRange describes a selection in human line numbers.
func humanRange(sel *rfc5147.Selection) string {
	first, last := sel.Lines.Start+1, sel.Lines.End
	var lines string
	switch {
	case sel.Empty():
		lines = fmt.Sprintf("the position before line %d", first)
	case first == last || last < first:
		lines = fmt.Sprintf("line %d", first)
	default:
		lines = fmt.Sprintf("lines %d–%d", first, last)
	}
	if sel.Fragment.Scheme == rfc5147.Char && !sel.Empty() {
		return fmt.Sprintf("characters %d–%d (%s)", sel.Chars.Start+1, sel.Chars.End, lines)
	}
	return lines
}

// fence returns a code fence longer than any run of backticks in text.
func fence(text []byte) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// linkParams decodes a request about a position and finds the open
// document and the link at that position; ok is false when there is none.
func (s *Server) linkParams(params json.RawMessage) (d *document, l mdlink.Link, ok bool, rerr *rpcError) {
	var p positionParams
	if rerr = decode(params, &p); rerr != nil {
		return nil, l, false, rerr
	}
	if d, rerr = s.doc(p.TextDocument.URI); rerr != nil {
		return nil, l, false, rerr
	}
	l, ok = s.linkAt(d, p.Position)
	return d, l, ok, nil
}

func (s *Server) hover(params json.RawMessage) (any, *rpcError) {
	d, l, ok, rerr := s.linkParams(params)
	if rerr != nil || !ok {
		return nil, rerr
	}
	if d.proj == "" {
		// Not resolved against a root the page is not in (notChecked).
		rng := s.lines(d).span(l.Start, l.End)
		msg := fmt.Sprintf("**textfrag** `%s`\n\n- %s\n", strings.ReplaceAll(l.Dest, "`", "'"), s.notChecked(d)[0].Message)
		return Hover{Contents: MarkupContent{Kind: "markdown", Value: termsafe.Escape(msg, "\r\n")}, Range: &rng}, nil
	}
	r := s.resolver()
	res, err, ok := s.resolveLink(r, d, l)
	if !ok {
		return nil, nil
	}
	var b strings.Builder
	var status []string
	problems := s.problemsOf(d, l)
	for _, p := range problems {
		status = append(status, fmt.Sprintf("%s: %s", p.Severity, p.Message))
	}
	if len(status) == 0 && err != nil {
		status = append(status, "error: "+target.Explain(err, ""))
	}
	// A refused title is reported even behind an error the build reports
	// first (a failed integrity check), and its name is not looked up.
	status = append(status, titleRefused(l.Title, problems)...)
	if sel, lang, named := nameOf(l); named && res != nil {
		status = append(status, nameHover(r, res, sel, lang))
	}
	if res == nil || res.Selection == nil {
		fmt.Fprintf(&b, "**textfrag** `%s`\n\n", strings.ReplaceAll(l.Dest, "`", "'"))
	} else {
		sel := res.Selection
		fmt.Fprintf(&b, "**%s** %s of %d", shown(res.Path), humanRange(sel), sel.TotalLines)
		if len(status) == 0 {
			b.WriteString(" · " + integrity(sel))
		}
		b.WriteString("\n\n")
	}
	for _, st := range status {
		b.WriteString("- " + shown(st) + "\n")
	}
	if res != nil && res.Selection != nil && !res.Selection.Empty() {
		text := res.Selection.Text
		if err != nil {
			b.WriteString("\nThe lines as they are now (they no longer match the link):\n")
		}
		text, cut := hoverCut(text)
		f := fence(text)
		lang := strings.TrimPrefix(path.Ext(res.Path), ".")
		fmt.Fprintf(&b, "\n%s%s\n%s", f, lang, text)
		if len(text) > 0 && text[len(text)-1] != '\n' {
			b.WriteString("\n")
		}
		b.WriteString(f + "\n")
		if cut != "" {
			fmt.Fprintf(&b, "\n(%s shown)\n", cut)
		}
	}
	x := s.lines(d)
	rng := x.span(l.Start, l.End)
	return Hover{Contents: MarkupContent{Kind: "markdown", Value: termsafe.Escape(b.String(), "\r\n")}, Range: &rng}, nil
}

// integrity describes the integrity checks of a selection that passed.
func integrity(sel *rfc5147.Selection) string {
	var parts []string
	pinned := false
	for _, c := range sel.Checks {
		switch {
		case c.Status == rfc5147.Passed && c.Check.Kind == rfc5147.MD5:
			parts, pinned = append(parts, "md5 matches"), true
		case c.Status == rfc5147.Passed:
			parts = append(parts, c.Check.Name+" matches")
		case c.Status == rfc5147.Ignored:
			parts = append(parts, c.Check.Name+" ignored")
		}
	}
	if !pinned {
		parts = append(parts, "unpinned (no md5=): it quotes whatever the lines hold now")
	}
	return strings.Join(parts, ", ")
}

// targetText returns the bytes of the file at project path p: the open
// buffer, else the file read inside the root.
func (s *Server) targetText(p string) ([]byte, bool) {
	if b, ok := s.overlay(p); ok {
		return b, true
	}
	root, err := openRoot(s.cfg.Root)
	if err != nil {
		return nil, false
	}
	defer root.Close()
	b, err := realm.ReadFile(root, p, 64<<20)
	return b, err == nil
}

// targetRange returns the range of a selection in its file, in the
// client's position encoding: exact for a UTF-8 file, whole lines else.
func (s *Server) targetRange(p string, sel *rfc5147.Selection) Range {
	lines := Range{Start: Position{Line: int(sel.Lines.Start)}, End: Position{Line: int(sel.Lines.End)}}
	if !sel.Entity.Charset.IsUTF8() {
		return lines
	}
	raw, ok := s.targetText(p)
	if !ok {
		return lines
	}
	bom := 0
	if strings.HasPrefix(string(raw[:min(3, len(raw))]), "\uFEFF") {
		bom = 3
	}
	x := newLineIndex(raw, s.enc)
	return x.span(bom+int(sel.Bytes.Start), bom+int(sel.Bytes.End))
}

func (s *Server) definition(params json.RawMessage) (any, *rpcError) {
	d, l, ok, rerr := s.linkParams(params)
	if rerr != nil || !ok {
		return nil, rerr
	}
	// A link whose title the build refuses quotes nothing, by name or by
	// lines: no location (hover says why).
	if textfrag.CheckTitle(l.Title) != nil {
		return nil, nil
	}
	r := s.resolver()
	res, _, ok := s.resolveLink(r, d, l)
	if !ok || res == nil || res.Selection == nil {
		return nil, nil
	}
	uri := fileURI(filepath.Join(s.cfg.Root, filepath.FromSlash(res.Path)))
	sel := res.Selection
	if name, lang, named := nameOf(l); named {
		// A named link goes to the lines the name spans now, which the
		// link may no longer quote.
		if span, err := nameSpan(r, res, name, lang); err == nil {
			rawPath, _, _ := strings.Cut(l.Dest, "#")
			if at, err, _ := s.resolveLink(r, d, mdlink.Link{Dest: rawPath + "#" + span.Fragment()}); err == nil && at != nil && at.Selection != nil {
				sel = at.Selection
			}
		}
	}
	return []Location{{URI: uri, Range: s.targetRange(res.Path, sel)}}, nil
}

func (s *Server) documentLinks(params json.RawMessage) (any, *rpcError) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, rerr := s.doc(p.TextDocument.URI)
	if rerr != nil {
		return nil, rerr
	}
	r := s.resolver()
	x := s.lines(d)
	links := []DocumentLink{}
	for _, l := range s.linksOf(d) {
		if l.Start < 0 {
			continue
		}
		res, _, ok := s.resolveLink(r, d, l)
		if !ok || res == nil || res.Path == "" {
			continue
		}
		dl := DocumentLink{Range: x.span(l.Start, l.End), Target: fileURI(filepath.Join(s.cfg.Root, filepath.FromSlash(res.Path)))}
		if res.Selection != nil {
			dl.Tooltip = shown(res.Path + " " + humanRange(res.Selection))
		}
		links = append(links, dl)
	}
	return links, nil
}

// references lists the links of the project's pages that quote the line
// under the cursor of a source file.
func (s *Server) references(params json.RawMessage) (any, *rpcError) {
	var p positionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	src, rerr := s.doc(p.TextDocument.URI)
	if rerr != nil {
		return nil, rerr
	}
	if src.proj == "" {
		return []Location{}, nil
	}
	sx := s.lines(src)
	line := sx.position(sx.offset(p.Position)).Line
	bom := 0
	if strings.HasPrefix(string(src.text), "\uFEFF") {
		bom = 3
	}
	lineStart, lineEnd := sx.starts[line]-bom, sx.lineEnd(line)-bom

	files, err := project.MarkdownFiles(s.cfg.Sources)
	if err != nil {
		return nil, &rpcError{codeRequestFailed, err.Error()}
	}
	for i, f := range files {
		if abs, err := filepath.Abs(f); err == nil {
			files[i] = abs
		}
	}
	open := map[string]*document{}
	for _, d := range s.openPages() {
		if d.path != "" {
			open[d.path] = d
		}
	}
	for p := range open {
		files = append(files, p)
	}
	sort.Strings(files)
	root, err := openRoot(s.cfg.Root)
	if err != nil {
		return nil, &rpcError{codeRequestFailed, err.Error()}
	}
	defer root.Close()
	r := s.resolver()
	srcBase := norm.NFC.String(path.Base(src.proj))
	locs := []Location{}
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f] {
			continue
		}
		seen[f] = true
		page := open[f]
		var links []mdlink.Link
		if page != nil {
			links = s.linksOf(page)
		} else {
			rel := s.projectPath(f)
			if rel == "" {
				continue
			}
			var text []byte
			if links, text = s.pageLinks(root, f, rel); links == nil {
				continue
			}
			page = &document{uri: fileURI(f), path: f, proj: rel, text: text, markdown: true}
		}
		var px *lineIndex
		for _, l := range links {
			if l.Start < 0 || !mayName(l.Dest, srcBase) {
				continue
			}
			res, _, ok := s.resolveLink(r, page, l)
			if !ok || res == nil || res.Path != src.proj || res.Selection == nil {
				continue
			}
			// Bytes of the text without BOM; lines for another charset.
			sel := res.Selection
			a, b, from, to := int(sel.Bytes.Start), int(sel.Bytes.End), lineStart, lineEnd
			if !sel.Entity.Charset.IsUTF8() {
				a, b, from, to = int(sel.Lines.Start), int(sel.Lines.End), line, line+1
			}
			quotes := a < to && b > from || a == b && a >= from && a <= to
			if from == to { // an empty line: a range that covers its line ending
				quotes = a <= from && b > from || a == from
			}
			if !quotes {
				continue
			}
			if px == nil {
				if page.text == nil {
					page.text, _ = realm.ReadFile(root, page.proj, 16<<20)
				}
				px = newLineIndex(page.text, s.enc)
			}
			locs = append(locs, Location{URI: page.uri, Range: px.span(l.Start, l.End)})
		}
	}
	return locs, nil
}

// completion proposes paths after "](", after "#line=" the range of the
// whole file, from its line count, and in a title after "sym=" or
// "region=" the names of the file (completeName).
func (s *Server) completion(params json.RawMessage) (any, *rpcError) {
	var p positionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, rerr := s.doc(p.TextDocument.URI)
	if rerr != nil {
		return nil, rerr
	}
	empty := completionList{Items: []CompletionItem{}}
	if !d.markdown || d.path == "" {
		return empty, nil
	}
	x := s.lines(d)
	off := x.offset(p.Position)
	line := x.position(off).Line
	before := string(d.text[x.starts[line]:off])
	// After "](" of an inline link, or "]: " of a link reference
	// definition at the start of its line.
	typed := ""
	if i := strings.LastIndex(before, "]("); i >= 0 {
		typed = before[i+2:]
	} else if label, rest, ok := strings.Cut(strings.TrimLeft(before, " "), "]:"); ok && strings.HasPrefix(label, "[") {
		typed = strings.TrimLeft(rest, " \t")
	} else {
		return empty, nil
	}
	if dest, title, ok := titleTyped(typed); ok {
		return s.completeName(d, dest, title, off), nil
	}
	if strings.ContainsAny(typed, " \t)<>\"") {
		return empty, nil
	}
	pagePath := s.docPath(d)
	if hash := strings.IndexByte(typed, '#'); hash >= 0 {
		return s.completeFragment(d, typed[:hash], typed[hash+1:], off), nil
	}
	slash := strings.LastIndexByte(typed, '/')
	dirPart, prefix := typed[:slash+1], typed[slash+1:]
	var dir string
	if strings.HasPrefix(dirPart, "/") {
		dir = path.Clean("." + dirPart)
	} else {
		decoded, err := url.PathUnescape(dirPart)
		if err != nil {
			return empty, nil
		}
		dir = path.Join(path.Dir(pagePath), decoded)
	}
	if s.projectPath(filepath.Join(s.cfg.Root, filepath.FromSlash(dir))) == "" && dir != "." {
		return empty, nil // outside the root
	}
	// The directory as it really is: a committed symbolic link on the way
	// (docs/k -> ../.ssh) must not list a secret directory, nor one out
	// of the root, under a name that looks harmless.
	rootDir := realm.NewDir(s.cfg.Root)
	realDir, ok := rootDir.Inside(dir)
	if !ok || s.base.CheckSecret(path.Join(realDir, "x")) != nil {
		return empty, nil
	}
	root, err := openRoot(s.cfg.Root)
	if err != nil {
		return empty, nil
	}
	defer root.Close()
	entries, err := fs.ReadDir(root.FS(), realDir)
	if err != nil {
		return empty, nil
	}
	replace := x.span(off-len(prefix), off)
	list := completionList{Items: []CompletionItem{}}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) && prefix != "" {
			continue
		}
		p, at := path.Join(dir, name), path.Join(realDir, name)
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			// Offered only when it leads inside the root, to a file or
			// directory that is no secret, judged by where it leads.
			if at, ok = rootDir.Inside(at); !ok {
				continue
			}
			info, err := root.Stat(at)
			if err != nil {
				continue
			}
			isDir = info.IsDir()
		}
		probe, atProbe := p, at
		if isDir {
			probe, atProbe = p+"/x", at+"/x"
		}
		if s.base.CheckSecret(probe) != nil || s.base.CheckSecret(atProbe) != nil {
			continue
		}
		insert := url.PathEscape(name)
		item := CompletionItem{Label: shown(name), Kind: completionFile, Detail: shown(p)}
		if isDir {
			item.Label, item.Kind, insert = shown(name)+"/", completionFolder, insert+"/"
			item.Command = &command{Title: "more", Command: "editor.action.triggerSuggest"}
		}
		item.TextEdit = &TextEdit{Range: replace, NewText: insert}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

// completeFragment proposes "line=0,N" (the whole file) and, after
// "line=", the whole range "0,N", N being the file's line count.
func (s *Server) completeFragment(d *document, rawPath, frag string, off int) completionList {
	list := completionList{Items: []CompletionItem{}}
	res, err, ok := s.resolveLink(s.resolver(), d, mdlink.Link{Dest: rawPath + "#line=0"})
	if !ok || res == nil || res.Selection == nil {
		if err != nil {
			s.logf("completion: %v", err)
		}
		return list
	}
	n := res.Selection.TotalLines
	x := s.lines(d)
	detail := fmt.Sprintf("%s has %d lines", res.Path, n)
	switch {
	case strings.HasPrefix(frag, "line="):
		typed := strings.TrimPrefix(frag, "line=")
		whole := "0," + strconv.FormatInt(n, 10)
		list.Items = append(list.Items, CompletionItem{
			Label: whole, Kind: completionText, Detail: shown(detail + " (the whole file)"),
			TextEdit: &TextEdit{Range: x.span(off-len(typed), off), NewText: whole},
		})
		if c := strings.IndexByte(typed, ','); c >= 0 {
			end := strconv.FormatInt(n, 10)
			list.Items = append(list.Items, CompletionItem{
				Label: end, Kind: completionText, Detail: shown(detail + " (to the end)"),
				TextEdit: &TextEdit{Range: x.span(off-len(typed)+c+1, off), NewText: end},
			})
		}
	case strings.HasPrefix("line=", frag):
		whole := "line=0," + strconv.FormatInt(n, 10)
		list.Items = append(list.Items, CompletionItem{
			Label: whole, Kind: completionText, Detail: shown(detail + " (the whole file)"),
			TextEdit: &TextEdit{Range: x.span(off-len(frag), off), NewText: whole},
		})
	}
	return list
}

// pageCache holds the links of a page on disk, as long as its size and
// modification time are those it was scanned at.
type pageCache struct {
	stamp stamp
	links []mdlink.Link
}

// pageLinks returns the links of the page at OS path f (project path rel)
// on disk, scanning it only when it changed since the last call; text is
// the page's bytes when it was read now, else nil. links is nil when the
// page cannot be read.
func (s *Server) pageLinks(root *os.Root, f, rel string) (links []mdlink.Link, text []byte) {
	st := statOf(f)
	if c, ok := s.pages[f]; ok && st.ok && c.stamp == st {
		return c.links, nil
	}
	b, err := realm.ReadFile(root, rel, 16<<20)
	if err != nil {
		delete(s.pages, f)
		return nil, nil
	}
	links = mdlink.Page(b)
	if links == nil {
		links = []mdlink.Link{}
	}
	s.pages[f] = pageCache{st, links}
	return links, b
}

// mayName reports whether a link destination may name a file of base name
// base (in NFC): false only when its last path segment, decoded, is
// certainly another name.
func mayName(dest, base string) bool {
	l := target.SplitLink(dest)
	seg := l.RawPath[strings.LastIndexByte(l.RawPath, '/')+1:]
	dec, err := url.PathUnescape(seg)
	if err != nil {
		return true
	}
	return norm.NFC.String(dec) == base
}

// warm scans the project's pages once, in the background, so that the
// first references request finds their links scanned. The main loop takes
// what it found; a page changed since is scanned again then, as its stamp
// tells.
func (s *Server) warm() {
	files, err := project.MarkdownFiles(s.cfg.Sources)
	if err != nil {
		return
	}
	root, err := openRoot(s.cfg.Root)
	if err != nil {
		return
	}
	defer root.Close()
	found := map[string]pageCache{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		rel := s.projectPath(abs)
		if err != nil || rel == "" {
			continue
		}
		st := statOf(abs)
		b, err := realm.ReadFile(root, rel, 16<<20)
		if err != nil {
			continue
		}
		links := mdlink.Page(b)
		if links == nil {
			links = []mdlink.Link{}
		}
		found[abs] = pageCache{st, links}
	}
	s.warmed <- found
}
