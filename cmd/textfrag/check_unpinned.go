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
// pins the link in one step; for other unpinned links it stays pin
// --write PAGE.

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
		for i, l := range links {
			at[[2]int{l.Line, l.Column}] = i
			onLine[l.Line]++
		}
		for _, q := range byPage[name] {
			written := "; pin it with `textfrag pin --write " + q.Document + "`" // the library's advice
			i, ok := at[[2]int{q.Line, q.Column}]
			if !ok || links[i].Dest != q.Link || !strings.HasSuffix(q.Message, written) {
				continue
			}
			l := links[i]
			res, err := r.Resolve(r.DocPath(name), l.Dest)
			if err != nil || res.Selection == nil || !head.unpinnedStale(name, res.Path, l, !e.preCommit) {
				continue
			}
			page := filepath.ToSlash(name)
			if strings.HasPrefix(page, "-") {
				page = "./" + page
			}
			ref := fmt.Sprintf("%s:%d", page, l.Line) // as acceptRef names it, in constant time
			if onLine[l.Line] > 1 {
				ref = fmt.Sprintf("%s:%d:%d", page, l.Line, l.Column)
			}
			file := argPath(cwd, filepath.Join(root, filepath.FromSlash(res.Path)))
			q.Message = strings.TrimSuffix(q.Message, written) + fmt.Sprintf(
				"; its file changed since HEAD, so the lines it shows, %s of %s, may be other text than its author quoted, and pin does not pin it unread: read them, then pin it with `textfrag pin --write%s --accept %s %s`",
				res.Selection.Label(), file, flagArgs, pinShellWords([]string{ref}), pinShellWords([]string{page}))
			stale[q] = true
		}
	}
	return stale
}
