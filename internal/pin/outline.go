package pin

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// This file is the fallback of step 4 for files no symbol parser reads
// (Markdown, YAML, TOML, plain text, shell, a language without a parser,
// a version that does not parse): the "declaration" around a quote is its
// section — the Markdown heading, the TOML table, the indented block or
// paragraph — and a section is the same one when the line diff carries
// the first line that says something of one to the other's. Pure: no file
// is read.
//
// Without a parser the line diff is all the evidence, so the fallback
// takes only lines whose place the diff knows rather than guesses among
// copies: a kept line tied to a line each version has once (tiedAt), an
// edited line like no other changed line and not like a line the file
// already had, a moved block the pinned version had once. Where that
// fails — the quoted lines lie among repeated lines it could pair either
// way (slides, the diff read backwards disagreeing, a copy next to the
// quote), an edge of the new range was inserted, a block moved while a
// twin stays — the fallback says so (declUnknown), and the quote is
// review, never moved or changed.

// outlineFormat is how a file's sections are found.
type outlineFormat uint8

const (
	// outlineIndent: indented blocks (a line and the more indented lines
	// after it: YAML, Python, shell, most code) and paragraphs (runs of
	// non-blank lines).
	outlineIndent outlineFormat = iota
	// outlineMarkdown: sections under ATX and setext headings, fenced
	// code aside.
	outlineMarkdown
	// outlineTables: [table] and [[array]] sections (TOML, INI).
	outlineTables
)

// outlineFormatOf returns the format of the file at path, by its
// extension; outlineIndent for every other.
func outlineFormatOf(p string) outlineFormat {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdown", ".mkd", ".mdx":
		return outlineMarkdown
	case ".toml", ".ini", ".cfg", ".conf", ".editorconfig":
		return outlineTables
	}
	return outlineIndent
}

// outline returns the sections of lines (a file's lines without line
// endings) in format f, in order of their first line. Each starts at its
// header line (Start) and ends before the next section of its level (End);
// Name is the header's text (a heading's without its marks), Kind says
// what it is ("h2", "table", "block", "paragraph"). Sections nest; a line
// may lie in none.
func outline(f outlineFormat, lines []string) []symbol.Span {
	switch f {
	case outlineMarkdown:
		return markdownOutline(lines)
	case outlineTables:
		return tableOutline(lines)
	}
	return indentOutline(lines)
}

// markdownOutline finds ATX headings (up to three spaces, one to six #,
// then a space or the end) and setext headings (a text line underlined
// with = or -), outside fenced code; a section runs to the next heading of
// its level or a higher one.
func markdownOutline(lines []string) []symbol.Span {
	type heading struct{ line, level int }
	var hs []heading
	fence := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) <= 3 {
			if fence != "" {
				if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "" {
					fence = ""
				}
				continue
			}
			if m := fenceOpen(t); m != "" {
				fence = m
				continue
			}
			if n := atxLevel(t); n > 0 {
				hs = append(hs, heading{i, n})
				continue
			}
		}
		if fence == "" && i+1 < len(lines) && setextText(l) {
			if n := setextLevel(lines[i+1]); n > 0 {
				hs = append(hs, heading{i, n})
				i++
			}
		}
	}
	out := make([]symbol.Span, len(hs))
	for k, h := range hs {
		end := len(lines)
		for _, n := range hs[k+1:] {
			if n.level <= h.level {
				end = n.line
				break
			}
		}
		out[k] = symbol.Span{Start: h.line, End: end, Kind: fmt.Sprintf("h%d", h.level), Name: headingText(lines[h.line])}
	}
	return out
}

// fenceOpen returns the fence a line opens (``` or ~~~, three or more), or "".
func fenceOpen(t string) string {
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 && (c == "~" || !strings.Contains(t[n:], "`")) {
			return t[:n]
		}
	}
	return ""
}

// atxLevel returns the level of an ATX heading line (indentation removed), or 0.
func atxLevel(t string) int {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n < 1 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return 0
	}
	return n
}

// setextText reports whether a line can be a setext heading's text: not
// blank, not indented code, not a list item, quote or ATX heading.
func setextText(l string) bool {
	t := strings.TrimLeft(l, " ")
	if strings.TrimSpace(l) == "" || len(l)-len(t) > 3 || atxLevel(t) > 0 {
		return false
	}
	for _, p := range []string{"- ", "* ", "+ ", ">", "|"} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return true
}

// setextLevel returns 1 for a line of =, 2 for a line of -, else 0.
func setextLevel(l string) int {
	t := strings.TrimSpace(l)
	switch {
	case len(l)-len(strings.TrimLeft(l, " ")) > 3 || t == "":
		return 0
	case strings.Trim(t, "=") == "":
		return 1
	case strings.Trim(t, "-") == "":
		return 2
	}
	return 0
}

// headingText is an ATX heading's text without its marks, or a setext
// heading's text.
func headingText(l string) string {
	t := strings.TrimSpace(l)
	if atxLevel(t) > 0 {
		t = strings.TrimSpace(strings.TrimLeft(t, "#"))
		if c := strings.TrimRight(t, "#"); c == "" || strings.HasSuffix(c, " ") {
			t = strings.TrimSpace(c)
		}
	}
	return t
}

// tableOutline finds [table] and [[array]] headers; a section runs to the
// next header.
func tableOutline(lines []string) []symbol.Span {
	var out []symbol.Span
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if c := strings.IndexByte(t, '#'); c > 0 && strings.Contains(t[:c], "]") {
			t = strings.TrimSpace(t[:c])
		}
		if len(t) < 3 || t[0] != '[' || t[len(t)-1] != ']' {
			continue
		}
		if n := len(out); n > 0 {
			out[n-1].End = i
		}
		out = append(out, symbol.Span{Start: i, End: len(lines), Kind: "table", Name: t})
	}
	return out
}

// indentOutline finds indented blocks — a non-blank line and the more
// indented lines after it, up to the last of them — and paragraphs of
// two lines or more.
func indentOutline(lines []string) []symbol.Span {
	var out []symbol.Span
	ind := make([]int, len(lines))
	for i, l := range lines {
		ind[i] = indentOf(l)
	}
	// Blocks: a stack of open headers, closed by a line indented no more.
	var open []int
	closeTo := func(level, at int) {
		for len(open) > 0 && ind[open[len(open)-1]] >= level {
			h := open[len(open)-1]
			open = open[:len(open)-1]
			if at > h+1 {
				out = append(out, symbol.Span{Start: h, End: at, Kind: "block", Name: strings.TrimSpace(lines[h])})
			}
		}
	}
	last := -1 // the last non-blank line
	for i := range lines {
		if ind[i] < 0 {
			continue
		}
		closeTo(ind[i], last+1)
		open = append(open, i)
		last = i
	}
	closeTo(0, last+1)
	// Paragraphs.
	for i := 0; i < len(lines); {
		if ind[i] < 0 {
			i++
			continue
		}
		j := i
		for j < len(lines) && ind[j] >= 0 {
			j++
		}
		if j-i >= 2 {
			out = append(out, symbol.Span{Start: i, End: j, Kind: "paragraph", Name: strings.TrimSpace(lines[i])})
		}
		i = j
	}
	sortSpans(out)
	return out
}

// indentOf is a line's indentation in columns (a tab to the next multiple
// of 8), or -1 for a blank line.
func indentOf(l string) int {
	n := 0
	for _, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n = n/8*8 + 8
		default:
			return n
		}
	}
	return -1
}

func sortSpans(s []symbol.Span) {
	// By start, the larger first.
	slices.SortStableFunc(s, func(a, b symbol.Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
}

// sameSection is sameDeclaration's fallback (see the top of this file):
// whether the lines a quote spans now (mp.newLines of cur) lie in the
// section its lines lay in (mp.oldLines of old), as far as the line map m
// shows it without doubt; quoted is the quoted text. what says why the
// fallback cannot tell, or names the sections that differ; for the same
// section it is "" (a section named by its first line reads as noise).
func sameSection(f outlineFormat, old, cur *rfcText, quoted []byte, mp quoteMapping, m *lineMap) (v declVerdict, what string) {
	a, b := old.contents(), cur.contents()
	s, e := clampRange(mp.oldLines, len(a))
	ns, ne := clampRange(mp.newLines, len(b))
	z := m.slides(a, b, old.regions(f))
	cannot := func(why string) (declVerdict, string) {
		return declUnknown, "no symbol parser reads the file, and " + why
	}
	const repeated = "the quoted lines lie among repeated lines the diff could pair either way"
	if mp.block {
		if old.occursTwice(quoted) {
			return cannot("the quoted text, deleted from its place and found among inserted lines, occurred twice in the pinned version: which of the two moved cannot be told")
		}
		// Each region of the quote must say something of its own: a line
		// of a region the block only grazes may not have moved with it.
		region := old.regions(f)
		for i := s; i < e; {
			j, own, says := i, false, false
			for j < e && region[j] == region[i] {
				own, says = own || m.distinct[j], says || substantive(a[j])
				j++
			}
			if says && !own {
				return cannot("the quoted lines, deleted from their place and found among inserted lines, say nothing the file does not say elsewhere in each section they lie in: they may have been written anew, or not moved together")
			}
			i = j
		}
	} else {
		tied := 0
		for i := s; i < e; i++ {
			switch {
			case !substantive(a[i]), m.fate[i] == lineDeleted:
			case z.old[i]:
				return cannot(repeated)
			case m.fate[i] == lineEdited && !pairedAlone(i, a, b, m):
				return cannot(fmt.Sprintf("quoted line %d was edited, and it is as like other changed lines as the one it was paired with", i+1))
			case m.fate[i] == lineEdited && z.had[b[m.toNew[i]]]:
				return cannot(fmt.Sprintf("quoted line %d was edited into a line the pinned version already had elsewhere: it may have been deleted, and that line moved in", i+1))
			case m.fate[i] == lineKept && !z.tiedAt(i, a, m):
				return cannot(fmt.Sprintf("quoted line %d is among lines the file repeats, with no line the file has once kept next to it to tell which copy it is", i+1))
			case m.fate[i] == lineKept:
				tied++
			}
		}
		if tied == 0 {
			return cannot("none of the quoted lines was kept next to a line the file has once, to tell where the edited ones went")
		}
		// The same lines again near the quote, then or now (in a run of
		// "A b A b A b" that gained an "A b", which three are the quoted?).
		if mp.fate == quoteIntact && e > s && (occursNear(a, s, e, a[s:e]) || occursNear(b, ns, ne, a[s:e])) {
			return cannot("the quoted lines occur again next to them, where copies were added or removed: which copy is the quoted one cannot be told")
		}
		// The new range's first and last lines that say something must be
		// quoted lines carried there: lines inserted at its edges may have
		// replaced quoted lines, or come from elsewhere.
		// (From arrays made once: the new range is as long as lines
		// inserted into the quote make it.)
		r := m.runs(a, b)
		first, last := -1, -1
		if ns < ne && int(r.newNext[ns]) < ne {
			j := int(r.newNext[ns])
			first, last = j, int(r.newPrev[ne-1])
		}
		for k, j := range []int{first, last} {
			o := m.fromNew[j]
			if o < s || o >= e {
				if rewrittenInQuote(j, s, e, k == 1, a, b, m, z) {
					continue
				}
				return cannot(fmt.Sprintf("line %d, at the edge of where the quote would be now, was inserted: whether it replaced quoted lines or came from elsewhere cannot be told", j+1))
			}
			// An edited line at an edge is paired by likeness alone unless
			// the line that says something beyond it was kept beyond it.
			if m.fate[o] == lineEdited && likeDeleted(b[j], s, e, a, m) {
				return cannot(fmt.Sprintf("quoted line %d, at the edge of the quote, was edited into line %d, which is as like a line deleted elsewhere: that line may have moved in", o+1, j+1))
			}
			if m.fate[o] == lineEdited && !keptBeyond(o, j, k == 1, a, b, m) {
				return cannot(fmt.Sprintf("quoted line %d, at the edge of the quote, was edited, and the lines beyond it changed: it may have been deleted, and line %d written elsewhere", o+1, j+1))
			}
		}
		if j, zone := m.firstStray(ns, ne, s, e, a, b, z); zone {
			return cannot(repeated)
		} else if j >= 0 {
			return declOther, fmt.Sprintf("line %d now was line %d, which the quote did not hold", j+1, m.fromNew[j]+1)
		}
	}
	os, cs := old.outline(f), cur.outline(f)
	io, in := old.enclosingSection(f, s, e), cur.enclosingSection(f, ns, ne)
	switch {
	case io < 0 && in < 0:
		if !mp.block {
			return declSame, "" // its lines are tied to lines the file has once
		}
		return cannot("the quoted lines moved as a block and lie in no section (heading, table, indented block or paragraph) to tell where they belong")
	case io < 0:
		return declOther, "outside any section → " + sectionName(cs[in])
	case in < 0:
		return declOther, sectionName(os[io]) + " → outside any section"
	}
	d, n := os[io], cs[in]
	// The first line each section has in common: the first of d's lines
	// that says something the diff kept or edited, and the first such of
	// n's it did not insert.
	// (From arrays made once: a walk per quote would cost the section's
	// deleted or inserted lines each time.)
	r := m.runs(a, b)
	h := firstFrom(d.Start, min(d.End, s), r.oldCarried)
	nh := firstFrom(n.Start, min(n.End, ns), r.newCarried)
	switch {
	case z.old[h] && substantive(a[h]):
		return cannot("the first line of its " + sectionName(d) + " is one of repeated lines the diff could pair either way")
	case m.fate[h] == lineKept && !z.tiedAt(h, a, m):
		return cannot("the first line of its " + sectionName(d) + " is among lines the file repeats, with no line the file has once kept next to it")
	case m.fate[h] == lineEdited && !pairedAlone(h, a, b, m):
		return cannot("the first line of its " + sectionName(d) + " was edited, and it is as like other changed lines as the one it was paired with")
	case (m.fate[h] == lineKept || m.fate[h] == lineEdited) && m.toNew[h] == nh:
		return declSame, "" // (a section named by its first line would read as noise)
	case mp.block && m.fate[d.Start] == lineDeleted && movedWith(a, b, d.Start, e, n.Start, ne, m):
		return declSame, ""
	}
	return declOther, sectionName(d) + " → " + sectionName(n)
}

// occursNear reports whether pat occurs in lines within tieWindow lines of
// [s, e) at another place than s. One pass over those lines with the
// pattern's failure table (Knuth–Morris–Pratt): O(len(pat) + window)
// comparisons, not their product, which a long quote would square.
func occursNear(lines []string, s, e int, pat []string) bool {
	from, to := max(0, s-tieWindow-len(pat)), min(len(lines), e+tieWindow+len(pat))
	if len(pat) == 0 {
		return to > from || from != s // the empty run occurs at every place from..to
	}
	fail := make([]int, len(pat)) // fail[i]: the longest proper border of pat[:i+1]
	for i, k := 1, 0; i < len(pat); i++ {
		for k > 0 && pat[i] != pat[k] {
			k = fail[k-1]
		}
		if pat[i] == pat[k] {
			k++
		}
		fail[i] = k
	}
	for i, k := from, 0; i < to; i++ {
		for k > 0 && lines[i] != pat[k] {
			k = fail[k-1]
		}
		if lines[i] == pat[k] {
			k++
		}
		if k == len(pat) {
			if i+1-len(pat) != s {
				return true
			}
			k = fail[k-1]
		}
	}
	return false
}

// reversed returns lines in reverse order.
func reversed(lines []string) []string {
	out := slices.Clone(lines)
	slices.Reverse(out)
	return out
}

// rewrittenInQuote reports whether new line j, at the quote's last edge
// when last, else its first, was written in place of quoted lines: its
// run of changes replaced old lines of the quote [s, e) only, none of its
// new lines says what a line of the pinned version said or is like a line
// deleted elsewhere (lines moved in, maybe edited), and the line that
// says something beyond the run was kept beyond it, where the diff knows
// its place (tiedAt).
//
// The run that holds j is found by binary search (hunkAtNew), not by a
// look at every run, and its new lines are looked at once for all quotes
// (strayInRun): each quote with an inserted edge asks, and a file with
// many runs of changes, or one long run, would cost quotes × runs or
// quotes × its lines.
func rewrittenInQuote(j, s, e int, last bool, a, b []string, m *lineMap, z *slideZones) bool {
	if n := m.hunkAtNew(j); n >= 0 {
		h := m.hunks[n]
		if h.oldStart < s || h.oldEnd > e || h.oldEnd == h.oldStart {
			return false
		}
		if m.strayInRun(n, s, e, a, b, z) {
			return false
		}
		o, j, step := h.oldStart, h.newStart, -1
		if last {
			o, j, step = h.oldEnd-1, h.newEnd-1, 1
		}
		if !keptBeyond(o, j, last, a, b, m) {
			return false
		}
		// And that line's place is known, not guessed among copies.
		r := m.runs(a, b)
		o = sayingBeyond(o, step, r.oldNext, r.oldPrev)
		return o < 0 || o >= len(a) || z.tiedAt(o, a, m)
	}
	return false
}

// hunkAtNew returns the index of the run of changes whose new lines hold
// new line j, or -1. Runs follow each other on both sides (hunksOf), so
// their ends are increasing and the first that ends after j is the only
// one that can hold it: O(log runs).
func (m *lineMap) hunkAtNew(j int) int {
	steps := int64(0)
	n := sort.Search(len(m.hunks), func(n int) bool { steps++; return m.hunks[n].newEnd > j })
	questionWork.Add(steps)
	if n < len(m.hunks) && m.hunks[n].newStart <= j {
		return n
	}
	return -1
}

// likeDeleted reports whether line is like (as an edited line is like
// what it was) a line the diff deleted outside old lines [s, e): it may be
// that line, moved and edited.
//
// Past maxLikeCells comparisons in one line map (each new line compared
// with each deleted one, in a hostile history a square), it says true:
// what cannot be told is review.
func likeDeleted(line string, s, e int, a []string, m *lineMap) bool {
	lo, hi, ok := m.likeDeletedAt(line, a)
	return !ok || (lo >= 0 && (lo < s || hi >= e))
}

// maxLikeCells bounds the comparisons likeDeleted makes with one line
// map, as maxPairCells bounds a pairing's.
const maxLikeCells = 1 << 18

// likeDeletedAt returns the first and last old line (of a) deleted, that
// says something and that line is like, or -1, -1; each line once, from
// the deleted lines' character pairs made once; false past maxLikeCells.
func (m *lineMap) likeDeletedAt(line string, a []string) (lo, hi int, ok bool) {
	if r, ok := m.like[line]; ok {
		return r[0], r[1], true
	}
	if m.like == nil {
		m.like = map[string][2]int{}
		for i, l := range a {
			if m.fate[i] == lineDeleted && substantive(l) {
				m.deleted = append(m.deleted, deletedLine{i, charPairs(l)})
			}
		}
	}
	if m.likeCells += len(m.deleted); m.likeCells > maxLikeCells {
		return -1, -1, false
	}
	lo, hi = -1, -1
	p := charPairs(line)
	for _, d := range m.deleted {
		if dice(p, d.pairs) >= editedSimilarity {
			if lo < 0 {
				lo = d.line
			}
			hi = d.line
		}
	}
	m.like[line] = [2]int{lo, hi}
	return lo, hi, true
}

// deletedLine is a deleted old line that says something, and its
// character pairs (likeDeletedAt).
type deletedLine struct {
	line  int
	pairs []uint32
}

// keptBeyond reports whether the nearest line that says something beyond
// old line o (after it when after, else before it) was kept as the
// nearest such line beyond new line j. The nearest lines come from arrays
// made once (lineRuns), not a walk over the blank lines between.
func keptBeyond(o, j int, after bool, a, b []string, m *lineMap) bool {
	step := -1
	if after {
		step = 1
	}
	r := m.runs(a, b)
	i := sayingBeyond(o, step, r.oldNext, r.oldPrev)
	k := sayingBeyond(j, step, r.newNext, r.newPrev)
	switch {
	case i < 0 || i >= len(a):
		return k < 0 || k >= len(b) // both at an end of the file
	case k < 0 || k >= len(b):
		return false
	}
	return m.fate[i] == lineKept && m.toNew[i] == k
}

func clampRange(r [2]int, n int) (int, int) {
	s := min(max(r[0], 0), n)
	return s, min(max(r[1], s+1), n)
}

// sectionName names a section for messages: `section "Usage"`.
func sectionName(s symbol.Span) string {
	kind := s.Kind
	if strings.HasPrefix(kind, "h") {
		kind = "section"
	}
	name := s.Name
	if r := []rune(name); len(r) > 40 {
		name = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%s %q", kind, name)
}

// movedWith reports whether old lines [h, e) — a section's header down to
// the end of a quote in it — were inserted, verbatim, as new lines [nh,
// ne): the section moved, the quote with it.
//
// Every quote in a moved section asks with the same header (h, nh): how
// far the old lines from h were inserted verbatim from nh is measured
// once for the pair, as far as the questions need (moveRun), not from the
// header down once per quote.
func movedWith(a, b []string, h, e, nh, ne int, m *lineMap) bool {
	if e-h != ne-nh || nh < 0 || ne > len(b) {
		return false
	}
	need := e - h
	if need <= 0 {
		return true
	}
	if m.moveRuns == nil {
		m.moveRuns = map[[2]int]*moveRun{}
	}
	r := m.moveRuns[[2]int{h, nh}]
	if r == nil {
		r = &moveRun{}
		m.moveRuns[[2]int{h, nh}] = r
	}
	for !r.ended && r.n < need {
		k := r.n
		if h+k >= len(a) || nh+k >= len(b) || a[h+k] != b[nh+k] || m.fromNew[nh+k] >= 0 {
			r.ended = true
			break
		}
		r.n++
	}
	questionWork.Add(1)
	return r.n >= need
}

// moveRun is how many old lines from a section's header were found
// inserted verbatim from a new line (n), and whether the run ended there.
type moveRun struct {
	n     int
	ended bool
}

// pairedAlone reports whether edited old line i was paired with the only
// changed line of its run it is like: no other old line of the run is
// like the new line, and no other new line of the run is like it. (In a
// run of "name = p7", "name = p16" edited into "name = p14", "name = p11",
// which became which cannot be told.)
//
// The answer is the line's, whatever the quote: it is kept (lineRuns), so
// that quotes of one edited line in a large run compare the run once.
func pairedAlone(i int, a, b []string, m *lineMap) bool {
	r := m.runs(a, b)
	if r.paired[i] == 0 {
		r.paired[i] = 1
		if pairedAloneNow(i, a, b, m) {
			r.paired[i] = 2
		}
	}
	return r.paired[i] == 2
}

func pairedAloneNow(i int, a, b []string, m *lineMap) bool {
	h := m.hunks[m.hunkOf[i]]
	pi, pj := charPairs(a[i]), charPairs(b[m.toNew[i]])
	for k := h.oldStart; k < h.oldEnd; k++ {
		if k != i && dice(charPairs(a[k]), pj) >= editedSimilarity {
			return false
		}
	}
	for k := h.newStart; k < h.newEnd; k++ {
		if k != m.toNew[i] && dice(pi, charPairs(b[k])) >= editedSimilarity {
			return false
		}
	}
	return true
}

// slideZones marks the lines whose pairing the line diff chose among
// equal ones: a run of changed lines that could slide up or down over
// lines repeated at its edges (in "A X X B" → "A X B", which X was
// deleted?) makes every line it could slide over uncertain, on both sides.
// A kept line is tied (tiedAt) when the diff knows its place rather than
// guesses it among copies: in a run of kept lines (contiguous on both
// sides), near a line each version has once, in the same region
// (regionsOf). A region boundary stops the tie: "[example]" kept, then
// "[[plugin]]" kept says nothing of which [[plugin]] table it is.
//
// had holds the old lines' characters: a line edited into one of them may
// have been deleted and that line moved in.
type slideZones struct {
	old, new []bool
	had      map[string]bool
	// For each kept old line: its segment (the lines of its run of kept
	// lines in its region), the nearest anchor (a line each version has
	// once, not in a zone) at or before it and at or after it in the
	// segment (-1: none), and whether the segment is a whole region whose
	// text no other region has, in a run with an anchor.
	segStart, segEnd, prev, next []int
	whole                        []bool
	// lost holds, by text, the old lines that say something
	// (maxTwins+1 at most each): where a twin of kept lines may have come
	// from (lostTwin).
	lost map[string][]int
}

// maxTwins bounds the lines lostTwin compares with; past it, a run is
// taken to have a lost twin (review).
const maxTwins = 64

// lostTwin reports whether the old lines [s, e) of a (at most tieWindow)
// occur again elsewhere in a, in a copy the diff did not keep whole, in
// one piece: that copy may have moved to their place, and they away (or
// been deleted), which no line diff can tell apart.
func (z *slideZones) lostTwin(a []string, s, e int, m *lineMap) bool {
	last := -1 // the last line that says something
	for k := e - 1; k >= s && last < 0; k-- {
		if substantive(a[k]) {
			last = k
		}
	}
	if last < 0 {
		return false
	}
	ks := z.lost[a[last]]
	if len(ks) > maxTwins {
		return true
	}
	for _, k := range ks {
		t := k - (last - s) // where the copy would start
		if t == s || t < 0 || t+(e-s) > len(a) || !slices.Equal(a[t:t+(e-s)], a[s:e]) {
			continue
		}
		// Unless the diff kept the copy whole, in one piece.
		whole := m.fate[t] == lineKept
		for x := t + 1; x < t+(e-s) && whole; x++ {
			whole = keptOn(x-1, x, m)
		}
		if !whole {
			return true
		}
	}
	return false
}

// tieWindow bounds how far from a run of kept lines its edge is looked
// for again (tiedAt), and how many of its lines are.
const tieWindow = 16

// tiedAt reports whether kept old line i (of lines a) is tied to a line
// the file has once: between two anchors of its segment, or in a whole
// region of its own; or on one side of an anchor, unless the lines from
// it to the segment's far edge occur again just beyond that edge in lines
// the diff did not keep in a piece with the segment (in "H X Y | deleted
// | X Y", X and Y after the anchor H may be the second copy moved up as
// well as the first kept).
func (z *slideZones) tiedAt(i int, a []string, m *lineMap) bool {
	switch {
	case z.old[i]:
		return false
	case z.whole[i], z.prev[i] >= 0 && z.next[i] >= 0:
		return true
	case z.prev[i] >= 0:
		e := z.segEnd[i]
		tail := a[i:e]
		tail = tail[:min(len(tail), tieWindow)]
		// Where the diff's run of kept lines ends a few lines on, a lost
		// copy of the lines from i to there may be what is here now.
		r := i
		for r-i < tieWindow-1 && keptOn(r, r+1, m) {
			r++
		}
		if !keptOn(r, r+1, m) && z.lostTwin(a, i, r+1, m) {
			return false
		}
		// The lines after the segment the diff kept with it, in a piece.
		with := e
		for with < len(a) && with < e+tieWindow+len(tail) && m.fate[with] == lineKept && m.toNew[with] == m.toNew[e-1]+with-e+1 {
			with++
		}
		at := occurrence(a[e:min(len(a), e+tieWindow+len(tail))], tail, true)
		return at < 0 || e+at+len(tail) <= with
	case z.next[i] >= 0:
		st := z.segStart[i]
		head := a[st : i+1]
		head = head[max(0, len(head)-tieWindow):]
		r := i
		for i-r < tieWindow-1 && keptOn(r, r-1, m) {
			r--
		}
		if !keptOn(r, r-1, m) && z.lostTwin(a, r, i+1, m) {
			return false
		}
		from := max(0, st-tieWindow-len(head))
		with := st
		for with > from && m.fate[with-1] == lineKept && m.toNew[with-1] == m.toNew[st]-(st-with+1) {
			with--
		}
		at := occurrence(a[from:st], head, false)
		return at < 0 || from+at >= with
	}
	return false
}

// keptOn reports whether old line j was kept right next to where kept
// old line i went (j is i's neighbour): the diff's run of kept lines goes
// on from i to j.
func keptOn(i, j int, m *lineMap) bool {
	return j >= 0 && j < len(m.fate) && m.fate[j] == lineKept && m.toNew[j] == m.toNew[i]+(j-i)
}

// occurrence returns where the lines pat occur in lines, in order and
// together: the first place when first, else the last; -1 for none.
func occurrence(lines, pat []string, first bool) int {
	at := -1
	for k := 0; k+len(pat) <= len(lines); k++ {
		if slices.Equal(lines[k:k+len(pat)], pat) {
			if first {
				return k
			}
			at = k
		}
	}
	return at
}

// slides returns m's slide zones (a, b are its old and new lines; region
// the region of each old line, regionsOf), made once.
func (m *lineMap) slides(a, b []string, region []int) *slideZones {
	if m.zones != nil {
		return m.zones
	}
	z := &slideZones{old: make([]bool, len(a)), new: make([]bool, len(b))}
	kept := func(i, j int) bool {
		return i >= 0 && j >= 0 && i < len(a) && j < len(b) && m.fate[i] == lineKept && m.toNew[i] == j
	}
	// Each side of a run of changes slides by itself: in "P A P A B" →
	// "P A N B" the deleted "P A" may be either copy, whatever was
	// inserted. The kept lines it slides over are uncertain on both sides.
	slide := func(h lineHunk, side []string, start, end int) (up, down int) {
		if end == start {
			return 0, 0
		}
		for kept(h.oldStart-up-1, h.newStart-up-1) && side[start-up-1] == side[end-up-1] {
			up++
		}
		for kept(h.oldEnd+down, h.newEnd+down) && side[end+down] == side[start+down] {
			down++
		}
		return up, down
	}
	for _, h := range m.hunks {
		uo, do := slide(h, a, h.oldStart, h.oldEnd)
		un, dn := slide(h, b, h.newStart, h.newEnd)
		up, down := max(uo, un), max(do, dn)
		if up+down == 0 {
			continue
		}
		for i := h.oldStart - up; i < h.oldEnd+down; i++ {
			z.old[i] = true
		}
		for j := h.newStart - up; j < h.newEnd+down; j++ {
			z.new[j] = true
		}
	}
	// The same diff of both texts read backwards chooses the other way
	// among equal pairings: a line the two pair differently, or one keeps
	// and the other not, is uncertain too.
	if len(a)*len(b) > 0 {
		back := make([]int, len(a))
		for i := range back {
			back[i] = -1
		}
		for _, e := range diffLinesAnchored(reversed(a), reversed(b)) {
			if e.kind == opEqual {
				back[len(a)-1-e.a] = len(b) - 1 - e.b
			}
		}
		for i, j := range back {
			k := -1
			if m.fate[i] == lineKept {
				k = m.toNew[i]
			}
			if j != k {
				z.old[i] = true
				for _, x := range []int{j, k} {
					if x >= 0 {
						z.new[x] = true
					}
				}
			}
		}
	}
	z.had = make(map[string]bool, len(a))
	for _, l := range a {
		z.had[l] = true
	}
	z.lost = map[string][]int{}
	for i, l := range a {
		if substantive(l) && len(z.lost[l]) <= maxTwins {
			z.lost[l] = append(z.lost[l], i)
		}
	}
	// A region's text, and whether another region has the same.
	texts := map[int]*strings.Builder{}
	for i, r := range region {
		if r >= 0 {
			if texts[r] == nil {
				texts[r] = &strings.Builder{}
			}
			texts[r].WriteString(a[i] + "\n")
		}
	}
	count := map[string]int{}
	for _, t := range texts {
		count[t.String()]++
	}
	once := func(r int) bool { return r >= 0 && count[texts[r].String()] == 1 }
	n := len(a)
	z.segStart, z.segEnd, z.prev, z.next, z.whole = make([]int, n), make([]int, n), make([]int, n), make([]int, n), make([]bool, n)
	anchor := func(i int) bool { return m.distinct[i] && !z.old[i] }
	for i := 0; i < n; {
		if m.fate[i] != lineKept {
			i++
			continue
		}
		// One run of kept lines, cut into segments by region.
		j, runAnchor := i, false
		for j < n && m.fate[j] == lineKept && (j == i || m.toNew[j] == m.toNew[j-1]+1) {
			runAnchor = runAnchor || anchor(j)
			j++
		}
		for k := i; k < j; {
			l := k
			for l < j && region[l] == region[k] {
				l++
			}
			r := region[k]
			whole := runAnchor && once(r) && (k == 0 || region[k-1] != r) && (l == n || region[l] != r)
			last := -1
			for x := k; x < l; x++ {
				if anchor(x) {
					last = x
				}
				z.segStart[x], z.segEnd[x], z.prev[x], z.whole[x] = k, l, last, whole
			}
			last = -1
			for x := l - 1; x >= k; x-- {
				if anchor(x) {
					last = x
				}
				z.next[x] = last
			}
			k = l
		}
		i = j
	}
	m.zones = z
	return z
}

// outline returns the text's sections in format f, made once.
func (t *rfcText) outline(f outlineFormat) []symbol.Span {
	if t.sections == nil || t.sectionsOf != f {
		s := outline(f, t.contents())
		t.sections, t.sectionsOf, t.regionOf, t.sectionIx = &s, f, nil, nil
	}
	return *t.sections
}

// enclosingSection is enclosing(t.outline(f), s, e), through an index
// made once: every quote into a file asks.
func (t *rfcText) enclosingSection(f outlineFormat, s, e int) int {
	spans := t.outline(f)
	if t.sectionIx == nil {
		t.sectionIx = newSpanIndex(spans)
	}
	return t.sectionIx.enclosing(s, e)
}

// regions returns regionsOf the text's outline in format f, made once:
// every quote into a file asks (sameSection).
func (t *rfcText) regions(f outlineFormat) []int {
	spans := t.outline(f)
	if t.regionOf == nil {
		t.regionOf = regionsOf(f, spans, len(t.contents()))
	}
	return t.regionOf
}

// regionLines counts the lines regionsOf labels, for the test that
// holds it to once per text.
var regionLines atomic.Int64

// regionsOf returns, for each of n lines, the section (an index into
// spans, an outline in format f) that ties its lines together, or -1: for
// headings and tables the innermost, for indented text the outermost
// block, else the paragraph (a block nested in another is part of it: a
// YAML job's steps are one region).
func regionsOf(f outlineFormat, spans []symbol.Span, n int) []int {
	regionLines.Add(int64(n))
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	if f != outlineIndent {
		// Spans are ordered by start, outer first: inner ones overwrite.
		// Headings nest six deep at most, tables not at all.
		for k, s := range spans {
			for i := s.Start; i < s.End && i < n; i++ {
				out[i] = k
			}
		}
		return out
	}
	// The outermost block: a block starting inside an earlier one is in it.
	covered := 0
	for k, s := range spans {
		if s.Kind != "block" || s.End <= covered {
			continue
		}
		for i := max(s.Start, covered); i < s.End && i < n; i++ {
			out[i] = k
		}
		covered = max(covered, s.End)
	}
	for k, s := range spans {
		if s.Kind != "paragraph" {
			continue
		}
		for i := s.Start; i < s.End && i < n; i++ {
			if out[i] < 0 {
				out[i] = k
			}
		}
	}
	return out
}
