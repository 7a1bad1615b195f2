package main

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/realm"
)

// As a pre-commit hook, pin pins the links that are new in the commit
// (SEMANTICS.md §4: "the pre-commit pin hook pins new links as they are
// committed"), and refreshes and moves pinned ones. An unpinned link that
// HEAD's page already had, into a file the commit changes, is not pinned
// unread: no check guarded it, so the lines it shows may now be other text
// than its author quoted. It becomes a changed quote, pinned only when a
// person accepts it (the manual hook, pin -i, --accept). Run by hand, pin
// applies the same rule to new links as well: its "re-pin with pin
// --write" remedies lead there, and a link new in the work tree into a
// file that changed since HEAD was not necessarily written for that text.

// headCompare tells, for unpinned links, whether pin pins them only when
// a person accepts them (unpinnedStale): pin asks it of each link it would
// pin, and check of each unpinned link it warns about, so that its advice
// is the command that pins the link. It asks git once per page and per
// quoted file.
type headCompare struct {
	hist *pin.History
	root string // the project root, absolute
	// headPages and headChanged cache HEAD's pages and whether a quoted
	// file differs from HEAD's.
	headPages   map[string][]byte
	headChanged map[string]bool
	noHead      *bool // whether the repository has no HEAD (no commit yet), once asked
}

// unpinnedStale is headCompare's unpinnedStale for the planned pin c.
func (p *pinner) unpinnedStale(name string, c pin.Change, newLinks bool) bool {
	if p.head.hist == nil {
		p.head.hist, p.head.root = p.hist, p.res.Root()
	}
	return p.head.unpinnedStale(name, c.Target, c.Link, newLinks)
}

// unpinnedStale reports whether the unpinned link l, on the page name,
// quotes a file (project path target) that differs from HEAD's and either
// was in HEAD's version of the page or, when newLinks, is new there. When
// it cannot tell (no repository, no HEAD) it answers false: a first
// commit's links are all new. A link that quotes by name (sym=, region=)
// is never stale so: the name, not a line number, chooses its text, so a
// change to the file cannot have slid other text under it.
func (h *headCompare) unpinnedStale(name, target string, l mdlink.Link, newLinks bool) bool {
	if target == "" || strings.Contains(target, "://") {
		return false
	}
	if _, named, err := symbol.ParseSelector(l.Title); err == nil && named {
		return false
	}
	top, err := h.hist.Top()
	if err != nil {
		return false
	}
	repoPath := func(abs string) (string, bool) {
		real, err := pin.RealPath(abs)
		if err != nil {
			return "", false
		}
		rel, err := filepath.Rel(top, real)
		if err != nil || !filepath.IsLocal(rel) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	page, ok := repoPath(name)
	if !ok {
		return false
	}
	if h.noHead == nil {
		_, err := h.hist.Git(nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
		none := err != nil
		h.noHead = &none
	}
	if *h.noHead {
		return false // no commit yet: every link and file is new
	}
	if !newLinks {
		if h.headPages == nil {
			h.headPages = map[string][]byte{}
		}
		old, seen := h.headPages[page]
		if !seen {
			old, _ = h.hist.Git(nil, "cat-file", "blob", "--end-of-options", "HEAD:"+page) // nil: not in HEAD
			h.headPages[page] = old
		}
		if old == nil || !bytes.Contains(old, []byte(l.Dest)) {
			return false // new in this commit: written for the work tree
		}
	}
	abs := filepath.Join(h.root, filepath.FromSlash(target))
	file, ok := repoPath(abs)
	if !ok {
		return true
	}
	if h.headChanged == nil {
		h.headChanged = map[string]bool{}
	}
	if changed, seen := h.headChanged[file]; seen {
		return changed
	}
	changed := h.differsFromHead(file, target)
	h.headChanged[file] = changed
	return changed
}

// differsFromHead reports whether the work tree's file (project path
// target, repository path file) differs from HEAD's, comparing git's
// object id of each: HEAD's from rev-parse (no blob read), the work
// tree's hashed here from the bytes read through the project root (no
// git command reads the work tree, so no filter of the tree runs).
func (h *headCompare) differsFromHead(file, target string) bool {
	out, err := h.hist.Git(nil, "rev-parse", "-q", "--verify", "--end-of-options", "HEAD:"+file)
	oid := strings.TrimSpace(string(out))
	if err != nil || oid == "" {
		return true // not in HEAD: added or renamed since
	}
	var hs hash.Hash
	switch len(oid) {
	case 40:
		hs = sha1.New()
	case 64:
		hs = sha256.New()
	default:
		return true
	}
	root, err := os.OpenRoot(h.root)
	if err != nil {
		return true
	}
	defer root.Close()
	// Streamed, not read whole: a quoted file may be far larger than
	// memory should hold. Its size, from the open file, heads git's
	// hash; a file that grows or shrinks meanwhile differs.
	f, info, err := realm.Open(root, filepath.FromSlash(target))
	if err != nil {
		return true
	}
	defer f.Close()
	size := info.Size()
	fmt.Fprintf(hs, "blob %s\x00", strconv.FormatInt(size, 10))
	if n, err := io.Copy(hs, io.LimitReader(f, size+1)); err != nil || n != size {
		return true
	}
	return hex.EncodeToString(hs.Sum(nil)) != oid
}

// unpinnedChanged turns the planned pin of an unpinned link whose file
// changed since HEAD into a changed quote, for a person to accept (see
// above), showing the text it would pin; who is the hook or pin, as the
// message names it.
func (p *pinner) unpinnedChanged(name string, c pin.Change, who string) pin.Change {
	if res, err := p.res.Resolve(p.res.DocPath(name), c.NewDest); err == nil && len(c.Detail) == 0 {
		c.Detail = pin.QuoteNow(res.Selection.Text)
	}
	c.Class = pin.Changed
	c.Failed = true
	c.Message += "; the link has no md5 and its file changed since HEAD, so the lines it shows may be other text than its author quoted: " + who + " does not pin it unread"
	c.Remedy = "" // decideQuote words the accept command
	return c
}
