package pin

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// This file is a stress test of relocation on files no symbol parser
// reads (Markdown, YAML, TOML, plain text): random histories full of
// repeated sections and duplicated blocks, judged by an oracle that shares
// nothing with pin. The generator gives every line an identity when it is
// written; an edit keeps it, a move carries it, a copy gets new ones. A
// quote is re-pointed wrongly when pin moves, refreshes or re-pins it at
// lines that are not the quoted lines' identities now.

// sLine is a line of a generated file and its identity.
type sLine struct {
	id   int
	text string
}

// sSection is a heading (its lines) and the blocks under it.
type sSection struct {
	head   []sLine
	blocks [][]sLine
}

// sDoc is a generated file of one format.
type sDoc struct {
	format string // "md", "yaml", "toml", "txt"
	secs   []sSection
	next   *int // the next identity
	// copied records, for each line written as a copy, the line it was
	// copied from and the commit that made the copy.
	copied map[int][2]int
	commit int
	// unique is the chance that a block written anew says something no
	// other line says (0: every block comes from a few templates).
	unique float64
	// hostile: a third of the changes touch only white space (blank
	// lines, indentation by tabs or spaces, trailing blanks, CRLF line
	// endings for the whole file) or make a line very long.
	hostile bool
	crlf    bool
}

func (d *sDoc) line(text string) sLine {
	*d.next++
	return sLine{*d.next, text}
}

func (d *sDoc) lines(texts ...string) []sLine {
	out := make([]sLine, len(texts))
	for i, t := range texts {
		out[i] = d.line(t)
	}
	return out
}

// Names repeat on purpose: real files have many "Example" sections, many
// steps that check out the code, many identical paragraphs.
var (
	stressNames     = []string{"Example", "Usage", "Options", "Example", "Notes", "Example", "Install", "Usage"}
	stressSentences = []string{
		"Run the command from the repository root.",
		"See the section above for the options.",
		"The default is fine for most projects.",
		"This step needs network access.",
		"Run the command from the repository root.",
		"It prints nothing when all is well.",
	}
	stressCommands = []string{"make test", "go test ./...", "make lint", "make test", "./scripts/build"}
	yamlSteps      = [][]string{
		{"- uses: actions/checkout@v4"},
		{"- uses: actions/setup-go@v5", "  with:", "    go-version: '1.22'"},
		{"- name: test", "  run: go test ./..."},
		{"- name: lint", "  run: make lint"},
		{"- uses: actions/checkout@v4", "  with:", "    fetch-depth: 0"},
	}
)

// head returns a section heading named name (n makes some unique).
func (d *sDoc) head(rng *rand.Rand, n int) []sLine {
	name := stressNames[rng.Intn(len(stressNames))]
	if rng.Intn(3) == 0 {
		name = fmt.Sprintf("Part %d", n)
	}
	switch d.format {
	case "md":
		if rng.Intn(4) == 0 {
			return d.lines(name, strings.Repeat("-", len(name)), "")
		}
		return d.lines("## "+name, "")
	case "yaml":
		return d.lines(strings.ToLower(strings.ReplaceAll(name, " ", "-"))+":", "  steps:")
	case "toml":
		if rng.Intn(2) == 0 {
			return d.lines("[[plugin]]")
		}
		return d.lines("[" + strings.ToLower(strings.ReplaceAll(name, " ", "_")) + "]")
	}
	return d.lines(strings.ToUpper(name), "")
}

// block returns a random block of the format, most of them alike.
func (d *sDoc) block(rng *rand.Rand) []sLine {
	own := rng.Float64() < d.unique
	pick := func(s []string) string {
		p := s[rng.Intn(len(s))]
		if own {
			p = fmt.Sprintf("%s (see note %d)", strings.TrimSuffix(p, "."), *d.next)
			own = false
		}
		return p
	}
	n := rng.Intn(30)
	switch d.format {
	case "md":
		switch rng.Intn(4) {
		case 0:
			return d.lines("```sh", pick(stressCommands), "```", "")
		case 1:
			return d.lines("- "+pick(stressSentences), "- "+pick(stressSentences), "")
		case 2:
			return d.lines(fmt.Sprintf("Step %d of the guide.", n), pick(stressSentences), "")
		}
		return d.lines(pick(stressSentences), "")
	case "yaml":
		var ls []string
		for k, l := range yamlSteps[rng.Intn(len(yamlSteps))] {
			ls = append(ls, "    "+l)
			if k == 0 && own {
				ls = append(ls, fmt.Sprintf("      id: step-%d", *d.next))
			}
		}
		if rng.Intn(4) == 0 {
			ls = append(ls, fmt.Sprintf("    - run: echo %d", n))
		}
		return d.lines(ls...)
	case "toml":
		switch rng.Intn(3) {
		case 0:
			return d.lines(`enabled = true`)
		case 1:
			if own {
				n = 100 + *d.next
			}
			return d.lines(fmt.Sprintf("name = \"p%d\"", n), `path = "./plugins"`)
		}
		return d.lines(`args = ["--fast"]`, "")
	}
	switch rng.Intn(3) {
	case 0:
		return d.lines("    $ "+pick(stressCommands), "")
	case 1:
		return d.lines(pick(stressSentences), pick(stressSentences), "")
	}
	return d.lines(fmt.Sprintf("Item %d: %s", n, pick(stressSentences)), "")
}

func (d *sDoc) render() []sLine {
	var out []sLine
	for _, s := range d.secs {
		out = append(out, s.head...)
		for _, b := range s.blocks {
			out = append(out, b...)
		}
	}
	return out
}

// copyLines copies text, with new identities.
func (d *sDoc) copyLines(ls []sLine) []sLine {
	out := make([]sLine, len(ls))
	for i, l := range ls {
		out[i] = d.line(l.text)
		d.copied[out[i].id] = [2]int{l.id, d.commit}
	}
	return out
}

// descends reports whether line id is line q or a copy of it (or of a
// copy of it) made after commit v: the quoted line's text carried on. A
// copy made at or before v was a twin when the quote was pinned.
func (d *sDoc) descends(id, q, v int) bool {
	for id != q {
		c, ok := d.copied[id]
		if !ok {
			return false
		}
		if c[0] == q {
			return c[1] > v
		}
		id = c[0]
	}
	return true
}

// mutate applies one random change and names it.
func (d *sDoc) mutate(rng *rand.Rand, fresh *int) string {
	sec := func() *sSection { return &d.secs[rng.Intn(len(d.secs))] }
	if d.hostile && rng.Intn(3) == 0 {
		return d.mutateSpace(rng, sec())
	}
	insertAt := func(s *sSection, bs ...[]sLine) {
		at := rng.Intn(len(s.blocks) + 1)
		s.blocks = slices.Insert(s.blocks, at, bs...)
	}
	switch rng.Intn(12) {
	case 0, 1: // edit a line
		s := sec()
		if len(s.blocks) == 0 {
			return "noop"
		}
		b := s.blocks[rng.Intn(len(s.blocks))]
		i := rng.Intn(len(b))
		if strings.TrimSpace(b[i].text) == "" {
			return "noop"
		}
		b[i].text += " (edited)"
		return "edit"
	case 2, 3: // insert a block
		insertAt(sec(), d.block(rng))
		return "insert"
	case 4: // duplicate blocks, here or in another section
		a, b := sec(), sec()
		if len(a.blocks) == 0 {
			return "noop"
		}
		i := rng.Intn(len(a.blocks))
		j := min(len(a.blocks), i+1+rng.Intn(2))
		var cp [][]sLine
		for _, bl := range a.blocks[i:j] {
			cp = append(cp, d.copyLines(bl))
		}
		insertAt(b, cp...)
		return "duplicate"
	case 5: // delete blocks
		s := sec()
		if len(s.blocks) == 0 {
			return "noop"
		}
		i := rng.Intn(len(s.blocks))
		s.blocks = slices.Delete(s.blocks, i, min(len(s.blocks), i+1+rng.Intn(2)))
		return "delete"
	case 6: // move a block
		a := sec()
		if len(a.blocks) == 0 {
			return "noop"
		}
		i := rng.Intn(len(a.blocks))
		bl := a.blocks[i]
		a.blocks = slices.Delete(a.blocks, i, i+1)
		insertAt(sec(), bl)
		return "move block"
	case 7: // move a section
		if len(d.secs) < 3 {
			return "noop"
		}
		i := 1 + rng.Intn(len(d.secs)-1)
		s := d.secs[i]
		d.secs = slices.Delete(d.secs, i, i+1)
		d.secs = slices.Insert(d.secs, 1+rng.Intn(len(d.secs)), s)
		return "move section"
	case 8: // rename a section: its heading line edited
		s := &d.secs[1+rng.Intn(len(d.secs)-1)]
		*fresh++
		h := &s.head[0]
		if d.format == "md" && len(s.head) == 3 { // setext: the underline follows
			h.text = fmt.Sprintf("Renamed %d", *fresh)
			s.head[1].text = strings.Repeat("-", len(h.text))
			return "rename"
		}
		h.text = strings.TrimSuffix(strings.TrimSuffix(h.text, ":"), "]") + fmt.Sprintf("-r%d", *fresh)
		switch d.format {
		case "yaml":
			h.text += ":"
		case "toml":
			h.text += "]"
		}
		return "rename"
	case 9: // a new section
		*fresh++
		s := sSection{head: d.head(rng, 100+*fresh)}
		for k := 0; k < 1+rng.Intn(3); k++ {
			s.blocks = append(s.blocks, d.block(rng))
		}
		d.secs = slices.Insert(d.secs, 1+rng.Intn(len(d.secs)), s)
		return "new section"
	case 10: // delete a section
		if len(d.secs) < 5 {
			return "noop"
		}
		i := 1 + rng.Intn(len(d.secs)-1)
		d.secs = slices.Delete(d.secs, i, i+1)
		return "delete section"
	}
	// duplicate a section
	s := d.secs[1+rng.Intn(len(d.secs)-1)]
	c := sSection{head: d.copyLines(s.head)}
	for _, b := range s.blocks {
		c.blocks = append(c.blocks, d.copyLines(b))
	}
	d.secs = slices.Insert(d.secs, 1+rng.Intn(len(d.secs)), c)
	return "duplicate section"
}

// mutateSpace applies one change of white space, or makes a line very
// long, in section s, and names it. An edit keeps a line's identity; a
// blank line inserted is a new one.
func (d *sDoc) mutateSpace(rng *rand.Rand, s *sSection) string {
	if len(s.blocks) == 0 {
		return "noop"
	}
	b := &s.blocks[rng.Intn(len(s.blocks))]
	i := rng.Intn(len(*b))
	l := &(*b)[i]
	switch rng.Intn(6) {
	case 0:
		*b = slices.Insert(*b, rng.Intn(len(*b)+1), d.line(""))
		return "blank inserted"
	case 1:
		for k, x := range *b {
			if strings.TrimSpace(x.text) == "" {
				*b = slices.Delete(*b, k, k+1)
				return "blank deleted"
			}
		}
		return "noop"
	case 2: // indentation: spaces to a tab and back, or two more spaces
		for k := range *b {
			x := &(*b)[k]
			switch {
			case strings.HasPrefix(x.text, "    "):
				x.text = "\t" + x.text[4:]
			case strings.HasPrefix(x.text, "\t"):
				x.text = "    " + x.text[1:]
			case x.text != "":
				x.text = "  " + x.text
			}
		}
		return "reindented"
	case 3:
		if strings.TrimSpace(l.text) == "" {
			l.text += " \t"
			return "blank line's blanks"
		}
		l.text += "  "
		return "trailing blanks"
	case 4:
		d.crlf = !d.crlf
		return "line endings"
	}
	if strings.TrimSpace(l.text) == "" {
		return "noop"
	}
	l.text += strings.Repeat(" long", 4000)
	return "long line"
}

// text is the file of lines ls, with the doc's line endings.
func (d *sDoc) text(ls []sLine) string {
	if !d.crlf {
		return joinLines(ls)
	}
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text + "\r\n")
	}
	return b.String()
}

// newStressDoc is a file of format with sections of several blocks.
func newStressDoc(format string, rng *rand.Rand, next *int, unique float64) *sDoc {
	d := &sDoc{format: format, next: next, copied: map[int][2]int{}, unique: unique}
	top := map[string][]string{"md": {"# Project", ""}, "yaml": {"name: ci", "on: [push]", "jobs:"}, "toml": {"title = \"config\"", ""}, "txt": {"README", "", "This file says how to build the project.", ""}}
	d.secs = append(d.secs, sSection{head: d.lines(top[format]...)})
	for i := 0; i < 10; i++ {
		s := sSection{head: d.head(rng, i)}
		for k := 0; k < 2+rng.Intn(4); k++ {
			s.blocks = append(s.blocks, d.block(rng))
		}
		d.secs = append(d.secs, s)
	}
	return d
}

func joinLines(ls []sLine) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text + "\n")
	}
	return b.String()
}

// stressCounts are a run's results: quotes by class, and wrong ones.
type stressCounts struct {
	classes map[Class]int
	wrong   int
	quotes  int
	// goneSurvives counts gone quotes whose lines all survive, unchanged
	// and together (a missed move: not wrong, a cost).
	goneSurvives int
	// indistinct counts moved and refreshed quotes whose lines were
	// deleted and written anew, the same, in their place (stressJudge).
	indistinct int
}

// runTextStress builds a history of one seed (one file per format, eight
// commits), plans quotes pinned to its early versions, and judges every
// relocation by the lines' identities.
func runTextStress(t *testing.T, seeds []int64, perFile int, unique float64, hostile bool) stressCounts {
	dir, write, git := testRepo(t)
	git("init", "-q")
	files := map[string]*sDoc{}
	rngs := map[string]*rand.Rand{}
	fresh := map[string]*int{}
	var names []string
	for _, seed := range seeds {
		// Each seed's files are their own: the same whatever the others.
		rng := rand.New(rand.NewSource(seed))
		next, renamed := new(int), new(int)
		for i, n := range []string{"docs/guide.md", "ci/workflow.yaml", "conf/config.toml", "NOTES.txt"} {
			n = fmt.Sprintf("s%d/%s", seed, n)
			names = append(names, n)
			files[n] = newStressDoc([]string{"md", "yaml", "toml", "txt"}[i], rng, next, unique)
			files[n].hostile = hostile
			rngs[n], fresh[n] = rng, renamed
		}
	}
	versions := map[string][][]sLine{}
	texts := map[string][]string{} // each version as written
	const commits = 8
	for c := 0; c < commits; c++ {
		for _, n := range names {
			files[n].commit = c
			if c > 0 {
				for k := 0; k < 4+rngs[n].Intn(4); k++ {
					files[n].mutate(rngs[n], fresh[n])
				}
			}
			v := files[n].render()
			versions[n] = append(versions[n], v)
			texts[n] = append(texts[n], files[n].text(v))
			write(n, files[n].text(v))
		}
		git("add", ".")
		git("commit", "-qm", fmt.Sprint("v", c))
	}
	type quote struct {
		file   string
		ver    int
		s, e   int
		oldIDs []int
	}
	var quotes []quote
	var page strings.Builder
	for _, n := range names {
		rng := rngs[n]
		for k := 0; k < perFile; k++ {
			v := rng.Intn(4)
			ls := versions[n][v]
			size := 2 + rng.Intn(9)
			if len(ls) <= size {
				continue
			}
			s := rng.Intn(len(ls) - size)
			q := quote{file: n, ver: v, s: s, e: s + size}
			for _, l := range ls[s : s+size] {
				q.oldIDs = append(q.oldIDs, l.id)
			}
			quotes = append(quotes, q)
			page.WriteString(lineLink(n, s, s+size, texts[n][v]))
		}
	}
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir), AcceptChanged: true}
	changes := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page.String()))
	if len(changes) != len(quotes) {
		t.Fatalf("%d changes for %d quotes", len(changes), len(quotes))
	}
	posRE := regexp.MustCompile(`#line=(\d+),(\d+);`)
	out := stressCounts{classes: map[Class]int{}, quotes: len(quotes)}
	for i, c := range changes {
		q := quotes[i]
		out.classes[c.Class]++
		final := versions[q.file][commits-1]
		where := map[int]int{} // identity → final line
		for j, l := range final {
			where[l.id] = j
		}
		if c.Class == Gone {
			at, together := -1, true
			for k, id := range q.oldIDs {
				j, ok := where[id]
				if k == 0 {
					at = j
				}
				together = together && ok && j == at+k && final[j].text == versions[q.file][q.ver][q.s+k].text
			}
			if together {
				out.goneSurvives++
			}
		}
		if c.Class != Moved && c.Class != Refreshed && !(c.Class == Changed && c.NewDest != "") {
			if c.Apply || c.NewDest != "" {
				t.Errorf("quote %d: %s with a destination %q", i, c.Class, c.NewDest)
			}
			continue
		}
		m := posRE.FindStringSubmatch(c.NewDest)
		if m == nil {
			t.Errorf("quote %d: %s with destination %q", i, c.Class, c.NewDest)
			continue
		}
		ns, _ := strconv.Atoi(m[1])
		ne, _ := strconv.Atoi(m[2])
		var got []int
		for _, l := range final[ns:ne] {
			got = append(got, l.id)
		}
		descends := func(id, quoted int) bool { return files[q.file].descends(id, quoted, q.ver) }
		// The lines that say something next to the quote then and now.
		pv := versions[q.file][q.ver]
		near := func(ls []sLine, from, step int) int {
			for i := from; i >= 0 && i < len(ls); i += step {
				if saysSomething(ls[i].text) {
					return ls[i].id
				}
			}
			return -1
		}
		samePlace := near(pv, q.s-1, -1) == near(final, ns-1, -1) || near(pv, q.e, 1) == near(final, ne, 1)
		bad, indistinct := stressJudge(c.Class, q.oldIDs, got, pv, final[ns:ne], descends, samePlace)
		if indistinct {
			out.indistinct++
		}
		if bad != "" {
			if os.Getenv("TEXTFRAG_STRESS_DEBUG") != "" {
				pv := versions[q.file][q.ver]
				ot, nt := newRFCText([]byte(joinLines(pv))), newRFCText([]byte(joinLines(final)))
				lm := newLineMap(ot, nt)
				z := lm.slides(ot.contents(), nt.contents(), regionsOf(outlineFormatOf(q.file), ot.outline(outlineFormatOf(q.file)), len(pv)))
				for j := max(0, q.s-10); j < min(len(pv), q.e+5); j++ {
					t.Logf("old %3d %5d %s   [fate %d → %d zone %v tied %v distinct %v hunk %d]", j+1, pv[j].id, pv[j].text, lm.fate[j], lm.toNew[j]+1, z.old[j], lm.fate[j] == lineKept && z.tiedAt(j, ot.contents(), lm), lm.distinct[j], lm.hunkOf[j])
				}
				if os.Getenv("TEXTFRAG_STRESS_DEBUG") == "all" {
					for j := range pv {
						t.Logf("OLD %3d %5d %s   [fate %d → %d]", j+1, pv[j].id, pv[j].text, lm.fate[j], lm.toNew[j]+1)
					}
					for j := range final {
						t.Logf("NEW %3d %5d %s", j+1, final[j].id, final[j].text)
					}
				}
				for j := max(0, ns-10); j < min(len(final), ne+5); j++ {
					t.Logf("new %3d %5d %s", j+1, final[j].id, final[j].text)
				}
			}
			out.wrong++
			t.Errorf("quote %d (%s v%d lines %d–%d): %s to lines %d–%d: %s\n%s\n--- quoted:\n%s--- now there:\n%s",
				i, q.file, q.ver, q.s+1, q.e, c.Class, ns+1, ne, bad, c.Message,
				joinLines(versions[q.file][q.ver][q.s:q.e]), joinLines(final[ns:ne]))
		}
	}
	return out
}

// stressJudge says what is wrong with a relocation of a quote whose lines
// had identities quoted (in the pinned version pinned) to the lines now
// (identities got, lines there), or "". A line is the quoted line when it
// is that line or a copy of it made after the pin (descends); a line that
// holds no letter or digit (a blank line, a fence) says nothing, and only
// its text is judged. Moved and refreshed quotes must be the quoted lines,
// in order; a changed quote must hold some of them and no line that the
// pinned version had outside the quote.
//
// No reading of two versions can tell a quoted line deleted (or moved
// away) and the same text written anew in its place from the line kept:
// a moved or refreshed quote on such lines is not wrong, and indistinct
// says so, when its place is the quote's — some of the quoted lines stay
// there, or the line that says something next to it is the one next to
// the quote when it was pinned (samePlace). Identical quoted lines may
// trade places, and so may a line within eight lines of the quote, in a
// place some quoted line or the quote's neighbour holds; any other line
// the pinned version had outside the quote is a twin: never excused.
func stressJudge(class Class, quoted, got []int, pinned, there []sLine, descends func(id, quoted int) bool, samePlace bool) (wrong string, indistinct bool) {
	// A line of the pinned version within a few lines of the quote: in a
	// place whose neighbours stayed, such a line of the same text trading
	// places with a quoted one leaves nothing to tell them apart by.
	near := func(id int) bool {
		at, s, e := -1, -1, -1
		for i, l := range pinned {
			switch l.id {
			case id:
				at = i
			case quoted[0]:
				s = i
			case quoted[len(quoted)-1]:
				e = i
			}
		}
		return at >= 0 && s >= 0 && e >= 0 && at >= s-8 && at <= e+8
	}
	own := func(id int) bool {
		for _, q := range quoted {
			if descends(id, q) {
				return true
			}
		}
		return false
	}
	text := map[int]string{}
	existed := map[int]bool{}
	count := map[string]int{}
	for _, l := range pinned {
		existed[l.id] = true
		text[l.id] = l.text
		count[l.text]++
	}
	// A line that says now, word for word, what a quoted line said that
	// no other line of the pinned version said, and did not say it then,
	// is that line as far as any reading of the two versions can tell.
	retold := func(k int) bool {
		t := there[k].text
		if existed[got[k]] && text[got[k]] == t {
			return false
		}
		for _, q := range quoted {
			if text[q] == t && count[t] == 1 {
				return true
			}
		}
		return false
	}
	if class != Changed {
		if len(got) != len(quoted) {
			return fmt.Sprintf("%d lines for %d", len(got), len(quoted)), false
		}
		anchored := samePlace // the place is the quote's
		for k, id := range got {
			anchored = anchored || (saysSomething(there[k].text) && descends(id, quoted[k]))
		}
		mine, fresh := 0, 0
		for k, id := range got {
			switch {
			case !saysSomething(there[k].text):
			case descends(id, quoted[k]):
				mine++
			case own(id) && text[quoted[k]] == there[k].text:
				mine++ // an identical quoted line
			case retold(k):
				mine++
				fresh++
			case existed[id] && !(anchored && near(id)):
				return fmt.Sprintf("the lines there are %v, the quoted lines are %v (line %d there was line %d of the pinned version)", got, quoted, k+1, id), false
			default:
				fresh++
			}
		}
		switch {
		case fresh == 0:
			return "", false
		case mine == 0 && !samePlace:
			return fmt.Sprintf("the lines there are %v, written since the pin, elsewhere; the quoted lines are %v", got, quoted), false
		}
		return "", true
	}
	// Its first and last lines that say something must be quoted lines,
	// or lines written since the pin (an edit the diff cannot tell from
	// a line replaced); between them lines may have come from anywhere
	// (the diff shows them added).
	var at []int
	mine := 0
	for k, id := range got {
		if !saysSomething(there[k].text) {
			continue
		}
		at = append(at, k)
		if own(id) {
			mine++
		}
	}
	if mine == 0 {
		// Unless a quoted line was deleted and its text written anew there.
		for _, k := range at {
			if retold(k) {
				return "", true
			}
			for _, l := range pinned {
				if slices.Contains(quoted, l.id) && l.text == there[k].text && !existed[got[k]] {
					return "", true
				}
			}
		}
		return fmt.Sprintf("none of the quoted lines is there (quoted: %v, there: %v)", quoted, got), false
	}
	for _, k := range []int{at[0], at[len(at)-1]} {
		if id := got[k]; existed[id] && !own(id) && !retold(k) {
			return fmt.Sprintf("line %d there, at its edge, was another line of the pinned version (quoted: %v, there: %v)", k+1, quoted, got), false
		}
	}
	return "", false
}

// saysSomething reports whether a line holds a letter or a digit.
func saysSomething(line string) bool {
	return strings.IndexFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// TestTextRelocationStress relocates random quotes of Markdown, YAML,
// TOML and plain text files through random histories of edits,
// insertions, duplicated blocks and sections, deletions, moves and
// renamed headings, and checks by the lines' identities that none is
// re-pointed at other lines: 1,600 quotes of files where half the blocks
// written say something of their own, and 1,600 where every block comes
// from a few templates. TEXTFRAG_STRESS_SEEDS runs more seeds.
func TestTextRelocationStress(t *testing.T) {
	seeds := 8
	if n, err := strconv.Atoi(os.Getenv("TEXTFRAG_STRESS_SEEDS")); err == nil && n > 0 {
		seeds = n
	}
	// The floors sit below the shares followed over 40 seeds
	// (TEXTFRAG_STRESS_SEEDS=40: mixed 14.8%, templates 9.3%, white space
	// 16.7% and 12.1%), not at the 8 default seeds' (16.6%, 10.4%), so that
	// more seeds test the same claim: quotes are followed, not all refused.
	for _, w := range []struct {
		name     string
		unique   float64
		followed float64 // at least this share of quotes is followed
		hostile  bool
	}{
		{"mixed", 0.5, 0.12, false},
		{"templates", 0, 0.07, false},
		{"white space, mixed", 0.5, 0.1, true},
		{"white space, templates", 0, 0.05, true},
	} {
		t.Run(w.name, func(t *testing.T) {
			first := int64(9000)
			if n, err := strconv.ParseInt(os.Getenv("TEXTFRAG_STRESS_FIRST"), 10, 64); err == nil {
				first = n
			}
			var ss []int64
			for s := 0; s < seeds; s++ {
				ss = append(ss, first+int64(s))
			}
			total := runTextStress(t, ss, 50, w.unique, w.hostile)
			t.Logf("%d quotes over %d seeds: %v; %d gone with all lines intact elsewhere; %d on lines deleted and written anew, the same; %d re-pointed at other lines",
				total.quotes, seeds, total.classes, total.goneSurvives, total.indistinct, total.wrong)
			if total.wrong > 0 {
				t.Errorf("%d of %d quotes re-pointed at other lines", total.wrong, total.quotes)
			}
			// Not vacuous: quotes are followed, not all refused.
			if followed := total.classes[Moved] + total.classes[Refreshed] + total.classes[Changed]; float64(followed) < w.followed*float64(total.quotes) {
				t.Errorf("only %d of %d quotes followed: %v", followed, total.quotes, total.classes)
			}
		})
	}
}
