package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/project"
)

// An unpinned link whose file changed since HEAD is not pinned by pin
// --write PAGE unread (headCompare.unpinnedStale): pin shows the lines and
// asks for an accept. check's warning for such a link advises that accept
// at once, naming the lines to read first, so that the command it gives
// pins the link in one step (for a reference link, [text][label], the
// definition it uses, which is what pin pins); for other unpinned links
// it stays pin --write PAGE.

// checkUnpinnedStale rewords the unpinned warnings among problems whose
// link pin would not pin unread, and returns them. pages reads the pages;
// r resolves as check did; root is the project root; flagArgs are the
// flags pin must repeat (checkPinArgs).
func (e *env) checkUnpinnedStale(root string, r *target.Resolver, pages *project.Pages, problems []*textfrag.Problem, flagArgs string) map[*textfrag.Problem]bool {
	byPage := map[string][]*textfrag.Problem{}
	var order []string
	for _, q := range problems {
		if q.Kind != "unpinned" || q.Document == "" || q.Document == stdinName {
			continue
		}
		if byPage[q.Document] == nil {
			order = append(order, q.Document)
		}
		byPage[q.Document] = append(byPage[q.Document], q)
	}
	if len(order) == 0 {
		return nil
	}
	head := &headCompare{hist: pin.NewHistory(root), root: root}
	if _, err := head.hist.Top(); err != nil {
		return nil // no repository: nothing is stale so
	}
	cwd, err := os.Getwd()
	if err != nil {
		cwd = ""
	}
	stale := map[*textfrag.Problem]bool{}
	for _, name := range order {
		src, err := pages.Read(name)
		if err != nil {
			continue
		}
		links := mdlink.Page(src)
		at := make(map[[2]int]int, len(links)) // where each link starts → its index
		onLine := map[int]int{}                // how many links start on each line
		defs := map[string][]int{}             // each definition's destination → their indexes
		for i, l := range links {
			at[[2]int{l.Line, l.Column}] = i
			onLine[l.Line]++
			if l.Kind == mdlink.Definition {
				defs[l.Dest] = append(defs[l.Dest], i)
			}
		}
		page := filepath.ToSlash(name)
		if strings.HasPrefix(page, "-") {
			page = "./" + page
		}
		for _, q := range byPage[name] {
			written := "; pin it with `textfrag pin --write " + q.Document + "`" // the library's advice
			if !strings.HasSuffix(q.Message, written) {
				continue
			}
			// The link pin pins: the one written here, or, for a reference
			// ([text][label]), the definition it uses, which pin names by
			// its own line. Definitions of that destination are read alike
			// (same page, same destination, so the same lines), so each
			// that pin would not pin unread is accepted.
			which := defs[q.Link]
			if i, ok := at[[2]int{q.Line, q.Column}]; ok && links[i].Dest == q.Link {
				which = []int{i}
			}
			var refs []string
			var res *target.Result
			for _, i := range which {
				l := links[i]
				got, err := r.Resolve(r.DocPath(name), l.Dest)
				if err != nil || got.Selection == nil || !head.unpinnedStale(name, got.Path, l, !e.preCommit) {
					continue
				}
				res = got
				ref := fmt.Sprintf("%s:%d", page, l.Line) // as acceptRef names it, in constant time
				if onLine[l.Line] > 1 {
					ref = fmt.Sprintf("%s:%d:%d", page, l.Line, l.Column)
				}
				refs = append(refs, " --accept "+pinShellWords([]string{ref}))
			}
			if res == nil {
				continue
			}
			file := argPath(cwd, filepath.Join(root, filepath.FromSlash(res.Path)))
			q.Message = strings.TrimSuffix(q.Message, written) + fmt.Sprintf(
				"; its file changed since HEAD, so the lines it shows, %s of %s, may be other text than its author quoted, and pin does not pin it unread: read them, then pin it with `textfrag pin --write%s%s %s`",
				res.Selection.Label(), file, flagArgs, strings.Join(refs, ""), pinShellWords([]string{page}))
			stale[q] = true
		}
	}
	return stale
}
