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
		what := dest
		if te != nil && te.Path != "" {
			what = te.Path
		}
		return failure("gone", fmt.Sprintf("%s: the target file no longer exists (%s); fix the link by hand", what, oneLine(err.Error())))
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
		out := Change{Class: "changed", NewDest: rewriteDest(dest, "", values, md5), Apply: p.AcceptChanged,
			Message: fmt.Sprintf("%s: %s; without an md5 the version it was written for cannot be found, so the quoted text cannot be compared: it now quotes the text below", label, strings.Join(changes, ", ")),
			Detail:  quoteNow(sel.Text, 40)}
		return p.verified(doc, p.acceptance(out))
	}
	if res.Remote != nil {
		// No history to find the pinned version in: the text may have
		// changed anywhere.
		out := Change{Class: "changed", NewDest: rewriteDest(dest, "", values, ""), Apply: p.AcceptChanged,
			Message: fmt.Sprintf("%s: %s; the remote file changed since it was pinned, and pin cannot compare a remote file with its pinned version", label, strings.Join(changes, ", "))}
		return p.verified(doc, p.acceptance(out))
	}
	return p.relocate(doc, dest, res, values)
}

// withValue returns c with its value replaced by got (an md5 or a length).
func withValue(c rfc5147.Check, got string) rfc5147.Check {
	if f, err := rfc5147.Parse("char=0;" + c.Name + "=" + got); err == nil && len(f.Checks) == 1 {
		f.Checks[0].Charset = c.Charset
		return f.Checks[0]
	}
	return c
}

// acceptance finishes a "changed" outcome: applied with --accept-changed,
// otherwise reported and left for a person.
func (p *Planner) acceptance(out Change) Change {
	if p.AcceptChanged {
		out.Message += "; re-pinned (--accept-changed)"
		return out
	}
	out.Message += fmt.Sprintf("; review it, then re-pin with `%s`, or fix the link by hand", p.acceptCommand())
	out.Failed = true
	return out
}

// gone finishes an outcome for a link whose pinned md5 is in no version pin
// can find, or whose quoted text was deleted, when the range as written
// still fits the file: with --accept-changed, the range is re-pinned as
// written to the file as it is now; otherwise what it quotes now is shown
// for review.
func (p *Planner) gone(doc, dest string, res *target.Result, values map[int]string, msg string) Change {
	if res.Selection.Clamped {
		return failure("gone", msg+"; the range now runs past the end of the file: fix the link by hand")
	}
	out := Change{Class: "gone", NewDest: rewriteDest(dest, "", values, ""), Apply: p.AcceptChanged}
	if p.AcceptChanged {
		out.Message = msg + "; re-pinned the range as written to the file as it is now (--accept-changed)"
		return p.verified(doc, out)
	}
	out.Message = fmt.Sprintf("%s; the range as written now quotes the text below: if that is right, re-pin it with `%s`, or fix the link by hand", msg, p.acceptCommand())
	out.Detail = quoteNow(res.Selection.Text, 40)
	out.Failed = true
	return p.verified(doc, out)
}

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
	c := &currentFile{osPath: filepath.Join(p.Resolver.Root(), filepath.FromSlash(res.Path))}
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

// relocate handles a link whose md5 no longer matches: it finds the pinned
// version in git history and where its quoted text went.
func (p *Planner) relocate(doc, dest string, res *target.Result, values map[int]string) Change {
	f, sel := res.Fragment, res.Selection
	label := res.Path + " " + sel.Label()
	pinnedMD5 := describeChecks(f, rfc5147.MD5)
	cur := p.currentText(res)
	if cur.err != nil {
		return failure("error", fmt.Sprintf("%s: the md5 no longer matches, and the file cannot be read to look for the quoted text: %v", label, cur.err))
	}
	md5Only, bare := f, f
	md5Only.Checks, bare.Checks = nil, nil
	for _, c := range f.Checks {
		if c.Kind == rfc5147.MD5 {
			md5Only.Checks = append(md5Only.Checks, c)
		}
	}
	old, rem, ver, err := p.pinnedVersion(cur, md5Only)
	switch {
	case err != nil:
		why := strings.TrimPrefix(err.Error(), errNoHistory.Error()+": ")
		return p.gone(doc, dest, res, values, fmt.Sprintf("%s: the file no longer has %s, and no history is available to find the version that had it (%s)", label, pinnedMD5, why))
	case ver == nil:
		return p.gone(doc, dest, res, values, fmt.Sprintf("%s: no version of the file in git history has %s", label, pinnedMD5))
	}
	oldSel, err := old.Select(bare)
	if err != nil {
		return failure("error", fmt.Sprintf("%s: %v", label, err))
	}
	where := ver.describe()
	var r relocation
	if rem != nil && rem.text != nil {
		m := rem.maps[cur]
		if m == nil {
			m = newLineMap(rem.lines, cur.lines)
			rem.maps[cur] = m
		}
		r = relocateWith(f, oldSel, rem.lines, cur.lines, m)
	} else {
		r = relocateQuote(f, oldSel, newRFCText(old.Bytes()), cur.lines)
	}
	switch {
	case r.ambiguous:
		return failure("error", fmt.Sprintf("%s: the quoted text (%s in %s) moved: %s; fix the link by hand", label, oldSel.Label(), where, r.note))
	case r.deleted:
		return p.gone(doc, dest, res, values, fmt.Sprintf("%s: the quoted text (%s in %s) was deleted", label, oldSel.Label(), where))
	}
	start, end := r.start, r.end
	if !r.moved && !r.located {
		// The region cannot be found by the lines around it: fall back on the
		// same numbers, if they still fit the file.
		if sel.Clamped && !oldSel.Clamped {
			return failure("gone", fmt.Sprintf("%s: the quoted text (%s in %s) changed and its place cannot be found; the range now runs past the end of the file", label, oldSel.Label(), where))
		}
		start, end = f.Start, f.End
	}
	newDest := rewriteDest(dest, positionsText(f, start, end), values, "")
	newRes, err := p.Resolver.Resolve(doc, newDest)
	if err != nil {
		return failure("error", fmt.Sprintf("internal error: the relocated link %s does not verify (%s); the link was left as it is", newDest, oneLine(err.Error())))
	}
	newLabel := newRes.Selection.Label()
	if r.moved {
		if !sameQuote(oldSel.Text, newRes.Selection.Text) {
			return failure("error", fmt.Sprintf("internal error: the relocated link %s does not quote the pinned text; the link was left as it is", newDest))
		}
		out := Change{NewDest: newDest, Apply: true}
		if positionsText(f, start, end) == "" {
			out.Class = "refreshed"
			out.Message = fmt.Sprintf("%s: the quoted text is unchanged in place; the file changed elsewhere since it was pinned (the md5 is of %s)", label, where)
		} else {
			out.Class = "moved"
			out.Message = fmt.Sprintf("%s %s → %s", res.Path, oldSel.Label(), newLabel)
		}
		if r.note != "" {
			out.Message += " (" + r.note + ")"
		}
		return out
	}
	how := ""
	if !r.located {
		how = "; its place could not be found by the lines around it, so the range is kept"
	}
	out := Change{Class: "changed", NewDest: newDest, Apply: p.AcceptChanged,
		Message: fmt.Sprintf("%s %s → %s: the quoted text changed since it was pinned (the md5 is of %s)%s", res.Path, oldSel.Label(), newLabel, where, how),
		Detail:  quoteDiff(oldSel.Text, newRes.Selection.Text, 40)}
	return p.acceptance(out)
}

// pinnedVersion finds the version of the file cur that passes md5Only (a
// fragment whose checks are the link's md5= alone): pin's own earlier
// writes first, then git history. ver is nil when none has it; err says
// why no history could be searched.
func (p *Planner) pinnedVersion(cur *currentFile, md5Only rfc5147.Fragment) (old *rfc5147.Text, rem *rememberedVersion, ver *oldVersion, err error) {
	cs := configuredCharset(cur.text.Facts().Charset)
	ver, err = p.History.find(cur.osPath, func(raw []byte) bool {
		r := p.rememberedText(cur.osPath, raw, cs)
		t := r.text
		if t == nil {
			var err error
			if t, err = rfc5147.NewText(raw, cs); err != nil {
				return false
			}
		}
		if _, err := t.Select(md5Only); err != nil {
			return false
		}
		old, rem = t, r
		return true
	})
	return old, rem, ver, err
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

// rememberedText returns the decoded form of raw, kept for the Planner's
// life, when raw is a version given to History.Remember (whose bytes live
// as long); otherwise an entry with no text: the caller decodes raw itself.
func (p *Planner) rememberedText(osPath string, raw []byte, cs rfc5147.Charset) *rememberedVersion {
	if len(raw) == 0 || !p.History.remembers(osPath, raw) {
		return &rememberedVersion{}
	}
	if p.remembered == nil {
		p.remembered = map[*byte]*rememberedVersion{}
	}
	if r, ok := p.remembered[&raw[0]]; ok {
		return r
	}
	r := &rememberedVersion{maps: map[*currentFile]*lineMap{}}
	if t, err := rfc5147.NewText(raw, cs); err == nil {
		r.text, r.lines = t, newRFCText(t.Bytes())
	}
	p.remembered[&raw[0]] = r
	return r
}
