package pin

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// currentFile is a target file as it is now.
type currentFile struct {
	osPath string
	text   *rfc5147.Text
	lines  *rfcText
	err    error
	decls  map[string]*declarations // by lang, parsed once
}

func failure(class Class, msg string) Change {
	return Change{Class: class, Message: msg, Failed: true}
}

// link decides what to do with one link destination of the document at
// project path doc.
func (p *Planner) link(doc, dest, title string) Change {
	sym, lang, named, err := quotelink.TitleName(title)
	if err != nil {
		return failure(Error, fmt.Sprintf("%s: the title %q: %v; fix the title", dest, title, err))
	}
	res, err := p.Resolver.Resolve(doc, dest)
	if errors.Is(err, target.ErrNotOurs) {
		return Change{} // a remote host not allowed, or not a file: not pinned
	}
	// A title builds refuse is refused here first, with the build's
	// message: pinning such a link would write a link that still fails.
	if err := textfrag.CheckTitle(title); err != nil {
		return failure(Error, fmt.Sprintf("%s: the title %q: %v; fix the title", dest, title, err))
	}
	var te *target.Error
	switch {
	case err == nil:
	case errors.As(err, &te) && te.Result != nil && errors.Is(err, rfc5147.ErrIntegrity):
		res = te.Result
	case errors.Is(err, target.ErrNotFound):
		what, why := dest, "the target file does not exist ("+oneLine(err.Error())+")"
		if te != nil && te.Path != "" {
			what, why = te.Path, p.missingFile(te.Path)
		}
		c := failure(Gone, what+": "+why)
		c.Remedy = "fix the link by hand"
		return c
	default:
		return failure("error", fmt.Sprintf("%s: %s", dest, oneLine(p.explain(err))))
	}
	p.quoted = res.Path
	sel := res.Selection
	label := res.Path + " " + sel.Label()

	values := map[int]string{} // new values of the checks that failed
	var hasMD5, md5Failed, lengthFailed bool
	var changes []string
	for i, c := range sel.Checks {
		if c.Check.Kind == rfc5147.Unknown {
			continue
		}
		hasMD5 = hasMD5 || c.Check.Kind == rfc5147.MD5
		if c.Status != rfc5147.Failed {
			continue
		}
		if c.Got == "" {
			return failure("error", fmt.Sprintf("%s: %s", label, c.Reason))
		}
		values[i] = c.Got
		changes = append(changes, fmt.Sprintf("%s → %s", c.Check.String(), withValue(c.Check, c.Got).String()))
		if c.Check.Kind == rfc5147.MD5 {
			md5Failed = true
		} else {
			lengthFailed = true
		}
	}
	if named {
		return p.named(doc, dest, res, name{sym, lang}, values, hasMD5, md5Failed)
	}
	md5 := sel.Entity.MD5Hex()
	switch {
	case !md5Failed && !lengthFailed && hasMD5:
		return Change{Class: "ok", Message: label}
	case !md5Failed && !lengthFailed:
		return p.verified(doc, Change{Class: "pinned", Message: fmt.Sprintf("%s md5=%s", label, md5),
			NewDest: rewriteDest(dest, "", nil, md5), Apply: true})
	case !md5Failed && hasMD5:
		return p.verified(doc, Change{Class: "refreshed",
			Message: fmt.Sprintf("%s: %s (the md5 matches: the text is as pinned)", label, strings.Join(changes, ", ")),
			NewDest: rewriteDest(dest, "", values, ""), Apply: true})
	case !hasMD5:
		// A length names no version: pin cannot tell whether the quoted
		// text moved or changed, so it shows what the range quotes now.
		return Change{Class: Review, Failed: true, Detail: quoteNow(sel.Text, 40),
			Message: fmt.Sprintf("%s: %s; without an md5 the version it was written for cannot be found, so pin cannot tell whether the quoted text moved or changed; the range now quotes the text below", label, strings.Join(changes, ", ")),
			Remedy:  fmt.Sprintf("if that is the right text, remove the link's length= and run `%s`, which pins it as it is (where the file differs from HEAD, it shows the text and asks you to accept it); otherwise fix the range by hand", p.pinCommand())}
	}
	if res.Remote != nil {
		// No history to find the pinned version in: the text may have
		// changed anywhere.
		return Change{Class: Review, Failed: true, Detail: quoteNow(sel.Text, 40),
			Message: fmt.Sprintf("%s: %s; the remote file changed since it was pinned, and pin cannot compare a remote file with its pinned version; the range now quotes the text below", label, strings.Join(changes, ", ")),
			Remedy:  fmt.Sprintf("if that is the right text, remove the link's md5= and run `%s`, which pins it as it is (where the file differs from HEAD, it shows the text and asks you to accept it); otherwise fix the range by hand", p.pinCommand())}
	}
	return p.relocate(doc, dest, lang, res, values)
}

// withValue returns c with its value replaced by got (an md5 or a length).
func withValue(c rfc5147.Check, got string) rfc5147.Check {
	if f, err := rfc5147.Parse("char=0;" + c.Name + "=" + got); err == nil && len(f.Checks) == 1 {
		f.Checks[0].Charset = c.Charset
		return f.Checks[0]
	}
	return c
}

// acceptance finishes a "changed" outcome: applied when accepted (with
// --accept-changed), otherwise reported with the command that accepts it.
func acceptance(out Change, accepted bool, acceptCommand string) Change {
	if accepted {
		out.Apply = true
		out.Message += "; re-pinned (--accept-changed)"
		return out
	}
	out.Remedy = fmt.Sprintf("review the diff below, then re-pin with `%s`", acceptCommand)
	out.Failed = true
	return out
}

// QuoteNow shows quoted text for review as a Change's Detail does ("| "
// before each line), at most 40 lines: for a front end that turns a
// planned change into one a person must read.
func QuoteNow(text []byte) []string { return quoteNow(text, 40) }

// quoteNow shows quoted text for review, at most maxLines lines.
func quoteNow(text []byte, maxLines int) []string {
	if len(text) == 0 {
		return []string{"(nothing)"}
	}
	lines := newRFCText(text).contents()
	var out []string
	for i, l := range lines {
		if i == maxLines {
			out = append(out, fmt.Sprintf("| … %d more lines", len(lines)-maxLines))
			break
		}
		out = append(out, "| "+l)
	}
	return out
}

// verified checks that a rewritten destination resolves with every check
// passing before it is offered; pin never writes a link that fails.
func (p *Planner) verified(doc string, out Change) Change {
	if out.NewDest == "" {
		return out
	}
	if _, err := p.Resolver.Resolve(doc, out.NewDest); err != nil {
		return failure("error", fmt.Sprintf("internal error: the re-pinned link %s does not verify (%s); the link was left as it is", out.NewDest, oneLine(err.Error())))
	}
	return out
}

// currentText reads the target of res as it is now, for relocation.
func (p *Planner) currentText(res *target.Result) *currentFile {
	if p.current == nil || p.currentOf != p.Resolver {
		// A new resolver reads files afresh: so does relocation.
		p.current, p.currentOf = map[string]*currentFile{}, p.Resolver
	}
	if c, ok := p.current[res.Path]; ok {
		return c
	}
	c := &currentFile{osPath: filepath.Join(p.Resolver.Root(), filepath.FromSlash(res.Path)), decls: map[string]*declarations{}}
	p.current[res.Path] = c
	raw, err := os.ReadFile(c.osPath)
	if err != nil {
		c.err = err
		return c
	}
	c.text, c.err = rfc5147.NewText(raw, configuredCharset(res.Selection.Entity.Charset))
	if c.err == nil && c.text.Facts().MD5 != res.Selection.Entity.MD5 {
		c.err = fmt.Errorf("%s changed while pin was reading it", res.Path)
	}
	if c.err == nil {
		c.lines = newRFCText(c.text.Bytes())
	}
	return c
}

// configuredCharset guesses the configured charset from the charset a file
// was read in: a UTF-16 byte order comes from the file's BOM, not from
// configuration, so old versions are read as UTF-8 unless they have one too.
func configuredCharset(cs rfc5147.Charset) rfc5147.Charset {
	if strings.HasPrefix(cs.Name, "UTF-16") {
		return rfc5147.UTF8
	}
	return cs
}

// relocate handles a link whose md5 no longer matches, in four steps:
// find the version it was pinned to (history.go), map that version's
// lines onto the file now (linemap.go), carry the quote through the map
// (quotemap.go), decide its class (decide.go); then describe it.
func (p *Planner) relocate(doc, dest, lang string, res *target.Result, values map[int]string) Change {
	f, sel := res.Fragment, res.Selection
	label := res.Path + " " + sel.Label()
	cur := p.currentText(res)
	if cur.err != nil {
		return failure(Error, fmt.Sprintf("%s: the md5 no longer matches, and the file cannot be read to look for the quoted text: %v", label, cur.err))
	}
	pv := p.pinnedVersion(res.Path, cur, f)
	if pv.ver == nil {
		return p.notFound(label, f, sel, pv.err)
	}
	bare := f
	bare.Checks = nil
	oldSel, err := pv.text.Select(bare)
	if err != nil {
		return failure(Error, fmt.Sprintf("%s: %v", label, err))
	}
	m := pv.lineMap(cur)
	mp := mapQuote(f, oldSel, pv.lines, cur.lines, m)
	v, what := declUnknown, ""
	if mp.fate == quoteIntact || mp.fate == quoteEdited {
		v, what = sameDeclaration(p.declsOf(pv.decls, res.Path, lang, pv.text.Bytes()), p.declsOf(cur.decls, res.Path, lang, cur.text.Bytes()), mp.oldLines, mp.newLines, m, pv.distinctive)
		if v == declUnknown {
			v, what = sameSection(outlineFormatOf(res.Path), pv.lines, cur.lines, oldSel.Text, mp, m)
		}
	}
	d := decide(mp, v, what, positionsText(f, mp.start, mp.end) == "")
	c := p.describe(doc, dest, res, values, quoteFacts{old: oldSel, ver: pv.ver, mapping: mp, decision: d, decl: what, cur: cur, lang: lang, lines: m})
	if c.Class != Error {
		c.Version = pv.ver.describe()
	}
	return c
}

// quoteFacts is what the steps found about one quote, for describe.
type quoteFacts struct {
	old      *rfc5147.Selection // the quote in the pinned version
	ver      *oldVersion
	mapping  quoteMapping
	decision decision
	decl     string // the declaration(s) around it, as sameDeclaration names them
	cur      *currentFile
	lang     string
	lines    *lineMap // the pinned version's lines onto cur's
}

// describe turns a decision into the Change pin reports and writes: it
// resolves what the message shows (the new place, the place the diff
// leads to, identical text elsewhere), then words it (describeQuote).
func (p *Planner) describe(doc, dest string, res *target.Result, values map[int]string, q quoteFacts) Change {
	f, mp := res.Fragment, q.mapping
	s := situation{
		class: q.decision.class, why: q.decision.why,
		path: res.Path, label: res.Path + " " + res.Selection.Label(),
		oldLabel: q.old.Label(), oldText: q.old.Text, where: q.ver.describe(),
		elsewhereVersion: q.ver.where != "" && q.ver.where != sources[0].where,
		decl:             q.decl, block: mp.block,
		acceptChanged: p.AcceptChanged, pinCommand: p.pinCommand(), acceptCommand: p.acceptCommand(),
	}
	switch s.class {
	case Gone:
		s.hints = p.hints(res.Path, q)
		return describeQuote(s)
	case Review:
		if (mp.fate == quoteIntact || mp.fate == quoteEdited) && mp.end >= mp.start {
			if r, err := p.Resolver.Resolve(doc, rewriteDest(dest, positionsText(f, mp.start, mp.end), values, "")); err == nil {
				s.leadsTo, s.leadsToText = r.Selection.Label(), r.Selection.Text
			}
		} else {
			s.hints = p.hints(res.Path, q)
		}
		return describeQuote(s)
	}
	s.newDest = rewriteDest(dest, positionsText(f, mp.start, mp.end), values, "")
	newRes, err := p.Resolver.Resolve(doc, s.newDest)
	if err != nil {
		return failure(Error, fmt.Sprintf("internal error: the relocated link %s does not verify (%s); the link was left as it is", s.newDest, oneLine(err.Error())))
	}
	s.newLabel, s.newText = newRes.Selection.Label(), newRes.Selection.Text
	c := describeQuote(s)
	if c.NewDest != "" {
		c.Lines = lineMove(q.old, newRes.Selection, q.lines, c.Class != Changed)
	}
	return c
}

// situation is everything describeQuote words about one relocated quote.
type situation struct {
	class Class  // the decision
	why   string // why pin cannot tell, for review
	path  string // the quoted file's project path
	label string // the link's range as written, read now: "a.go lines 3–4"

	oldLabel string // the quote's range in the pinned version
	oldText  []byte
	where    string // the pinned version, as people name it
	// elsewhereVersion: the pinned version was found elsewhere than in
	// HEAD's history, which a moved quote's message says.
	elsewhereVersion bool
	decl             string // the declaration(s) around it
	block            bool   // moved as a block (quoteMapping.block)
	hints            string // where identical text still is: a hint

	// newDest, newLabel and newText are the quote at its new place
	// (refreshed, moved, changed): the destination, resolved.
	newDest, newLabel string
	newText           []byte
	// leadsTo and leadsToText are where the line diff leads a review
	// quote, shown as a hint; "" when nowhere.
	leadsTo     string
	leadsToText []byte

	acceptChanged             bool
	pinCommand, acceptCommand string
}

// describeQuote words a relocated quote's Change: the facts in its
// Message, the one thing to do in its Remedy. Pure.
func describeQuote(s situation) Change {
	quoted := fmt.Sprintf("the quoted text (%s in %s)", s.oldLabel, s.where)
	switch s.class {
	case Gone:
		msg := fmt.Sprintf("%s: %s was deleted", s.label, quoted)
		if s.hints != "" {
			msg += "; " + s.hints
		}
		return Change{Class: Gone, Failed: true, Detail: quoteLines("- ", s.oldText, 40), Message: msg,
			Remedy: "quote what replaced it, or remove the link, by hand (pin never re-pins a deleted quote)"}
	case Review:
		out := Change{Class: Review, Failed: true,
			Message: fmt.Sprintf("%s: pin cannot tell where %s is now: %s", s.label, quoted, s.why),
			Remedy:  fmt.Sprintf("read the file and fix the link by hand: when its range quotes the right text, remove its md5= and run `%s`, which pins the text as it is", s.pinCommand)}
		switch {
		case s.leadsTo != "":
			out.Message += fmt.Sprintf(" (the diff leads to %s, shown below as a hint)", s.leadsTo)
			out.Detail = quoteDiff(s.oldText, s.leadsToText, 40)
		case s.hints != "":
			out.Message += "; " + s.hints
		}
		if out.Detail == nil {
			out.Detail = quoteLines("| ", s.oldText, 40)
		}
		return out
	case Refreshed, Moved:
		if !sameQuote(s.oldText, s.newText) {
			return failure(Error, fmt.Sprintf("internal error: the relocated link %s does not quote the pinned text; the link was left as it is", s.newDest))
		}
		out := Change{Class: s.class, NewDest: s.newDest, Apply: true}
		if s.class == Refreshed {
			out.Message = fmt.Sprintf("%s: the quoted text is unchanged in place; the file changed elsewhere since it was pinned (the md5 is of %s)", s.label, s.where)
			return out
		}
		out.Message = fmt.Sprintf("%s %s → %s", s.path, s.oldLabel, s.newLabel)
		var notes []string
		if s.decl != "" {
			notes = append(notes, "in "+s.decl)
		}
		if s.block {
			notes = append(notes, "moved as a block")
		}
		if s.elsewhereVersion {
			notes = append(notes, "pinned version: "+s.where)
		}
		if len(notes) > 0 {
			out.Message += " (" + strings.Join(notes, "; ") + ")"
		}
		return out
	case Changed:
		in := ""
		if s.decl != "" {
			in = ", in " + s.decl
		}
		return acceptance(Change{Class: Changed, NewDest: s.newDest,
			Message: fmt.Sprintf("%s %s → %s: the quoted text changed since it was pinned (the md5 is of %s)%s", s.path, s.oldLabel, s.newLabel, s.where, in),
			Detail:  quoteDiff(s.oldText, s.newText, 40)}, s.acceptChanged, s.acceptCommand)
	}
	return failure(Error, fmt.Sprintf("internal error: %s: no description for the class %q; the link was left as it is", s.label, s.class))
}

// lineMove says where the lines of the quote old (in the pinned version)
// went at now, through m: every line by one offset when the text is the
// same, else each kept or edited line to its new line when that is still
// quoted.
func lineMove(old, now *rfc5147.Selection, m *lineMap, same bool) *LineMove {
	lm := &LineMove{Was: old.Label(), Now: now.Label(), First: old.Lines.Start + 1, Same: same}
	delta := now.Lines.Start - old.Lines.Start
	for i := old.Lines.Start; i < old.Lines.End; i++ {
		to := int64(0)
		switch {
		case same:
			to = i + delta + 1
		case m != nil && int(i) < len(m.toNew) && m.toNew[i] >= 0 && (m.fate[i] == lineKept || m.fate[i] == lineEdited):
			if n := int64(m.toNew[i]); now.Lines.Start <= n && n < now.Lines.End {
				to = n + 1
			}
		}
		lm.To = append(lm.To, to)
	}
	return lm
}

// hints says where the quoted text still occurs verbatim, as a hint.
func (p *Planner) hints(path string, q quoteFacts) string {
	if len(q.mapping.elsewhere) == 0 {
		return ""
	}
	cd := p.declsOf(q.cur.decls, path, q.lang, q.cur.text.Bytes())
	var at []string
	for _, r := range q.mapping.elsewhere {
		s := "lines " + humanLines(r)
		if cd.err == nil {
			if i := cd.enclosing(r[0], r[1]); i >= 0 {
				s += " (" + cd.spans[i].Kind + " " + cd.spans[i].Name + ")"
			}
		}
		at = append(at, s)
	}
	more := ""
	if len(q.mapping.elsewhere) == maxHints {
		more = " and maybe more"
	}
	return fmt.Sprintf("the same text is still at %s%s: a hint, not the quote's new place", strings.Join(at, ", "), more)
}

func humanLines(r [2]int) string {
	if r[1]-r[0] <= 1 {
		return fmt.Sprint(r[0] + 1)
	}
	return fmt.Sprintf("%d–%d", r[0]+1, r[1])
}

// quoteLines shows text, each line after prefix, at most maxLines lines.
func quoteLines(prefix string, text []byte, maxLines int) []string {
	out := quoteNow(text, maxLines)
	for i, l := range out {
		if strings.HasPrefix(l, "| ") {
			out[i] = prefix + l[2:]
		}
	}
	return out
}

// notFound describes a link whose pinned version pin cannot find: review.
func (p *Planner) notFound(label string, f rfc5147.Fragment, sel *rfc5147.Selection, err error) Change {
	md5s := describeChecks(f, rfc5147.MD5)
	var why string
	switch {
	case errors.Is(err, ErrHistoryLimit):
		why = fmt.Sprintf("the history search stopped before finding it (%s)", strings.TrimPrefix(err.Error(), errNoHistory.Error()+": "+ErrHistoryLimit.Error()+": "))
	case err != nil:
		why = fmt.Sprintf("no history is available to find the version that had it (%s)", strings.TrimPrefix(err.Error(), errNoHistory.Error()+": "))
	default:
		why = "no version of the file git still has (HEAD's history, the index, other refs, ORIG_HEAD, the reflog) has it"
	}
	msg := fmt.Sprintf("%s: the file no longer has %s, and %s, so pin cannot tell whether the quoted text moved or changed; the range as written now quotes the text below", label, md5s, why)
	remedy := fmt.Sprintf("if that is the right text, remove the link's md5= and run `%s`, which pins it as it is (where the file differs from HEAD, it shows the text and asks you to accept it); otherwise fix the range by hand", p.pinCommand())
	if sel.Clamped {
		msg = fmt.Sprintf("%s: the file no longer has %s, and %s; the range now runs past the end of the file", label, md5s, why)
		remedy = "fix the link by hand"
	}
	return Change{Class: Review, Failed: true, Message: msg, Remedy: remedy, Detail: quoteNow(sel.Text, 40)}
}

// pinCommand is the command that pins a page's unpinned links: the
// accept command (which repeats the caller's flags) without
// --accept-changed.
func (p *Planner) pinCommand() string {
	if p.PinCommand != nil {
		return p.PinCommand(p.page)
	}
	return strings.Replace(p.acceptCommand(), " --accept-changed", "", 1)
}

// distinctive reports whether line i of the pinned version says something
// no other line of it says: the lines that can show a declaration renamed.
func (pv *pinnedVersion) distinctive(i int) bool {
	if pv.counts == nil {
		pv.counts = map[string]int{}
		for _, l := range pv.lines.contents() {
			pv.counts[strings.TrimSpace(l)]++
		}
	}
	l := pv.lines.content(i)
	return substantive(l) && pv.counts[strings.TrimSpace(l)] == 1
}

// pinnedVersion finds, once per Planner, the version of the file cur
// (project path path) that the link with fragment f was pinned to.
func (p *Planner) pinnedVersion(path string, cur *currentFile, f rfc5147.Fragment) *pinnedVersion {
	var sum [16]byte
	for _, c := range f.Checks {
		if c.Kind == rfc5147.MD5 {
			sum = c.Sum
			break
		}
	}
	key := pinnedKey{path, sum}
	if p.pinned == nil {
		p.pinned = map[pinnedKey]*pinnedVersion{}
	}
	if pv, ok := p.pinned[key]; ok {
		return pv
	}
	pv := &pinnedVersion{maps: map[*currentFile]*lineMap{}, decls: map[string]*declarations{}}
	// Every md5 the link writes must pass, as the build would check them.
	md5Only := f
	md5Only.Checks = nil
	charset := false
	for _, c := range f.Checks {
		if c.Kind == rfc5147.MD5 {
			md5Only.Checks = append(md5Only.Checks, c)
			charset = charset || c.Charset != ""
		}
	}
	cs := configuredCharset(cur.text.Facts().Charset)
	decode := func(raw []byte) *rfc5147.Text {
		t, err := rfc5147.NewText(raw, cs)
		if err != nil {
			return nil
		}
		if _, err := t.Select(md5Only); err != nil {
			return nil
		}
		return t
	}
	var match func([]byte) bool
	if charset {
		match = func(raw []byte) bool { return decode(raw) != nil }
	}
	ver, err := p.History.find(cur.osPath, sum, match)
	if ver == nil {
		pv.err = err
		return pv
	}
	t := decode(ver.raw)
	if t == nil {
		return pv
	}
	pv.ver, pv.text, pv.lines = ver, t, newRFCText(t.Bytes())
	// Kept once found; a version not found is looked for again (History
	// remembers what it read, and pin may Remember a page it rewrote).
	p.pinned[key] = pv
	return pv
}

// lineMap returns the line map of the pinned version onto cur, made once.
func (pv *pinnedVersion) lineMap(cur *currentFile) *lineMap {
	m := pv.maps[cur]
	if m == nil {
		m = newLineMap(pv.lines, cur.lines)
		pv.maps[cur] = m
	}
	return m
}

// declsOf returns the declarations of src (a version of the file at
// project path path) in the cache, parsing it once per language.
func (p *Planner) declsOf(cache map[string]*declarations, path, lang string, src []byte) *declarations {
	if d, ok := cache[lang]; ok {
		return d
	}
	d := &declarations{}
	set := p.Resolver.SymbolSet()
	d.spans, d.err = set.Symbols(path, lang, src, true)
	cache[lang] = d
	return d
}

// sameQuote reports whether relocated text is the pinned text: equal, or
// differing only in a final line ending present on one side.
func sameQuote(old, cur []byte) bool {
	if bytes.Equal(old, cur) {
		return true
	}
	a, b := old, cur
	if len(a) > len(b) {
		a, b = b, a
	}
	if !bytes.HasPrefix(b, a) || bytes.HasSuffix(a, []byte("\r")) {
		return false
	}
	rest := b[len(a):]
	return len(rest) > 0 && rfc5147.EndingAt(rest, 0) == len(rest)
}
