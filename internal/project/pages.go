package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/textfrag/textfrag/internal/realm"
)

// MaxPageBytes is the most a Markdown page may hold (32 MiB). Pages are
// read and parsed whole, at about ten times their size in memory, so that
// a page a pull request adds cannot take all of a build's memory; a larger
// one is an error, found without reading more than this.
const MaxPageBytes = 32 << 20

// PageTooLarge says what to do about a page larger than MaxPageBytes, err
// wrapping realm.ErrTooLarge; other errors are returned as they are.
func PageTooLarge(err error) error {
	if !errors.Is(err, realm.ErrTooLarge) {
		return err
	}
	return fmt.Errorf("%w; textfrag reads Markdown pages of at most %d bytes (32 MiB): split it into pages", err, MaxPageBytes)
}

// ErrPageOutsideRoot is why a page inside the project root is not read: it
// is a symbolic link, or lies under one, that leads outside the root.
var ErrPageOutsideRoot = errors.New("not read")

// Pages reads Markdown pages, as MarkdownFiles names them, through the
// project root, so that a page committed as a symbolic link leading outside
// the root (docs/notes.md -> ~/.ssh/config) is never read: check, pin and
// refs read pages through one Pages. A page outside the root (named on the
// command line) is read where it is. Pages is safe for concurrent use.
type Pages struct {
	// Secret, when set, judges a page inside the root by its project path
	// (slash-separated) and, when a symbolic link leads elsewhere inside
	// the root, by the path it leads to: a page that is a file commonly
	// holding secrets (docs/notes.md -> ../.git/config) is not read, as no
	// target is. Callers set it to the resolver's CheckSecret; nil judges
	// nothing.
	Secret func(path string) error

	dir, real string // the root as given (absolute), and its real path
	root      *os.Root
}

// OpenPages opens the project root dir for reading pages. Close releases it.
func OpenPages(dir string) (*Pages, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	return &Pages{dir: abs, real: real, root: root}, nil
}

// Close closes the root.
func (p *Pages) Close() error { return p.root.Close() }

// Read reads the page at path (an OS path, relative to the working
// directory or absolute): a regular file (realm.ReadFile: a FIFO fails at
// once). A page inside the root is read through it, following symbolic
// links only while they stay inside; one that leads outside is
// ErrPageOutsideRoot, with the reason and the remedy. A page larger than
// MaxPageBytes is an error (PageTooLarge).
func (p *Pages) Read(path string) ([]byte, error) {
	b, err := p.read(path)
	return b, PageTooLarge(err)
}

func (p *Pages) read(path string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	rel, ok := p.inside(abs)
	if !ok {
		return realm.ReadFile(nil, path, MaxPageBytes)
	}
	if err := p.secret(rel); err != nil {
		return nil, err
	}
	b, err := realm.ReadFile(p.root, rel, MaxPageBytes)
	if err == nil || errors.Is(err, realm.ErrNotRegular) || errors.Is(err, fs.ErrNotExist) {
		return b, err
	}
	// os.Root refuses a symbolic link that leads out of it, and an
	// absolute one even when it leads inside: judge the real path.
	real, rerr := filepath.EvalSymlinks(filepath.Join(p.real, rel))
	if rerr != nil {
		return nil, err
	}
	if in, rerr := filepath.Rel(p.real, real); rerr == nil && filepath.IsLocal(in) {
		return realm.ReadFile(p.root, in, MaxPageBytes)
	}
	how := "a symbolic link on its path leads to " + real
	if info, lerr := os.Lstat(abs); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
		how = "it leads to " + real
	}
	return nil, fmt.Errorf("%w: a symbolic link that leads outside the project root %s (%s); textfrag reads pages only inside it: replace the link by a copy of the page, or give a --root that holds what it leads to", ErrPageOutsideRoot, p.dir, how)
}

// inside returns the path of abs relative to the root, as written (the
// root spelled as given, or as its real path), when it lies inside.
func (p *Pages) inside(abs string) (string, bool) {
	for _, dir := range []string{p.dir, p.real} {
		if rel, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(rel) {
			return rel, true
		}
	}
	return "", false
}

// secret applies Secret to the page at rel (relative to the root) and to
// where a symbolic link on its path leads inside the root.
func (p *Pages) secret(rel string) error {
	if p.Secret == nil {
		return nil
	}
	if err := p.Secret(filepath.ToSlash(rel)); err != nil {
		return fmt.Errorf("not read: %w", err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(p.real, rel))
	if err != nil {
		return nil // a missing page fails when it is read
	}
	if in, err := filepath.Rel(p.real, real); err == nil && filepath.IsLocal(in) && in != rel {
		if err := p.Secret(filepath.ToSlash(in)); err != nil {
			return fmt.Errorf("not read: it is a symbolic link: %w", err)
		}
	}
	return nil
}
