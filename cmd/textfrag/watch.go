package main

import (
	"context"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/textfrag/textfrag/internal/project"
)

// Watching for changes polls: every interval (300ms by default) serve walks
// SRC and stats the files that pages quote, and compares their stamps with
// the previous round's. Polling is chosen over file-system
// events (fsnotify) because:
//
//   - quoted files may lie anywhere under the project root, outside SRC,
//     and events would need a watch on every directory that holds one,
//     added and removed as links change; a stat per file is simpler;
//   - inotify is not recursive, has a per-user watch limit, and loses
//     track of files that editors save by renaming a new file over the old;
//     events do not arrive at all on many network and VM-shared file
//     systems, where previews are often run;
//   - a documentation tree has hundreds of files, not millions: a round
//     costs well under a millisecond per hundred files, and 300ms is below
//     what a person notices between saving and the reload;
//   - it needs no dependency and behaves the same on every platform.
//
// A stamp is more than a modification time and a size, which a program can
// keep while changing the text (touch -r, cp -p, an archive's extract, a
// rename of a file made earlier): it holds the inode and the change time
// (ctime, which no program can set), of the path itself and, for a
// symbolic link, of the file it leads to, so that replacing a file by a
// link out of the root is a change too. A file changed within racyWindow
// before a round is "racy": two writes in one tick of a coarse clock can
// leave every field alike, so its text is hashed as well, in that round
// and the next (the technique git calls racy-clean detection).

// racyWindow is how recent a change must be for its file to be hashed:
// longer than the timestamp granularity of the file systems previews run
// on (2 s on FAT, 1 s on some network file systems).
const racyWindow = 2 * time.Second

// racyHashMax is the most of a racy file that is hashed; a larger racy file
// counts as changed at every round until it is no longer racy.
const racyHashMax = 8 << 20

// stamp is what polling compares: a file's identity and times, or its
// absence.
type stamp struct {
	exists bool
	path   fileStamp // the path itself (lstat)
	target fileStamp // what a symbolic link leads to (stat); zero otherwise
	racy   bool      // changed within racyWindow before the round
	hashed bool      // sum holds the MD5 of the text
	sum    [16]byte
	forced bool // stamped after a rebuild read a file it may not be: never the same
}

// fileStamp is one stat's worth of a stamp.
type fileStamp struct {
	mod, ctime, size int64
	ino, dev         uint64
	mode             fs.FileMode
}

func stampOf(info fs.FileInfo) fileStamp {
	fst := fileStamp{mod: info.ModTime().UnixNano(), size: info.Size(), mode: info.Mode()}
	fst.ino, fst.dev, fst.ctime = sysStamp(info)
	return fst
}

// changed is when the file last changed: its latest time.
func (s stamp) changed() int64 {
	return max(s.path.mod, s.path.ctime, s.target.mod, s.target.ctime)
}

// same reports whether a and b stamp the same file with the same text.
func (a stamp) same(b stamp) bool {
	if a.forced || b.forced || a.exists != b.exists || a.path != b.path || a.target != b.target {
		return false
	}
	return !a.hashed || !b.hashed || a.sum == b.sum
}

// racyCounter makes the sums of racy files too large to hash differ.
var racyCounter atomic.Uint64

// statStamp stamps the file at p as of the round that started at now; prev
// is its stamp in the previous round (the zero stamp if none). A racy file,
// or one that was racy in the previous round, is hashed.
func statStamp(p string, now time.Time, prev stamp) stamp {
	linfo, err := os.Lstat(p)
	if err != nil {
		return stamp{}
	}
	st := stamp{exists: true, path: stampOf(linfo)}
	info := linfo
	if linfo.Mode()&fs.ModeSymlink != 0 {
		if info, err = os.Stat(p); err != nil {
			return st // a link leading nowhere
		}
		st.target = stampOf(info)
	}
	st.racy = st.changed() >= now.Add(-racyWindow).UnixNano()
	if (st.racy || prev.racy) && info.Mode().IsRegular() {
		st.hashed = true
		if sum, ok := hashFile(p); ok {
			st.sum = sum
		} else {
			binary.LittleEndian.PutUint64(st.sum[:], racyCounter.Add(1))
		}
	}
	return st
}

// hashFile returns the MD5 of the regular file at p, if it is one of at
// most racyHashMax bytes. It never blocks on a FIFO put in the file's
// place since it was stamped.
func hashFile(p string) ([16]byte, bool) {
	f, err := openNonBlocking(p)
	if err != nil {
		return [16]byte{}, false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() > racyHashMax {
		return [16]byte{}, false
	}
	h := md5.New()
	if n, err := io.Copy(h, io.LimitReader(f, racyHashMax+1)); err != nil || n > racyHashMax {
		return [16]byte{}, false
	}
	var sum [16]byte
	h.Sum(sum[:0])
	return sum, true
}

// watch polls for changes every interval until ctx is done, and rebuilds
// what they affect.
func (s *server) watch(ctx context.Context, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		switch changed := s.poll(); {
		case s.configChanged(changed):
			s.reload()
		case len(changed) > 0:
			s.update(changed)
		}
	}
}

// configChanged reports whether a textfrag.toml that can change the
// project is among the changed files.
func (s *server) configChanged(changed map[string]bool) bool {
	return s.reconfigure != nil && slices.ContainsFunc(s.configFiles, func(f string) bool { return changed[f] })
}

// reload reads the settings again (textfrag.toml changed) and rebuilds every
// page with them. Until they are valid, every page shows what is wrong.
func (s *server) reload() {
	cfg, err := s.reconfigure()
	if err != nil {
		s.showError(&s.configErr, err)
		return
	}
	fmt.Fprintf(s.log, "textfrag: %s changed: rebuilding every page\n", project.ConfigName)
	s.mu.Lock()
	s.src, s.flags, s.css, s.configErr = cfg.src, cfg.flags, cfg.css, nil
	s.mu.Unlock()
	s.resolver = nil // the root, charsets or hosts may have changed
	s.configFiles = configCandidates(cfg.flags.proj)
	now := s.snapshot(s.watching)
	s.mu.Lock()
	s.watching = now
	s.mu.Unlock()
	s.update(nil)
}

// poll takes a new snapshot and returns the absolute paths of the files
// that appeared, changed or disappeared since the last one. It runs before
// the rebuild that reads the files, so a change made during the rebuild is
// seen by the next poll.
func (s *server) poll() map[string]bool {
	s.mu.RLock()
	old := s.watching
	s.mu.RUnlock()
	now := s.snapshot(old)
	s.mu.Lock()
	s.watching = now
	s.mu.Unlock()
	changed := map[string]bool{}
	for p, st := range now {
		if prev, ok := old[p]; !ok || !prev.same(st) {
			changed[p] = true
		}
	}
	for p := range old {
		if _, ok := now[p]; !ok {
			changed[p] = true
		}
	}
	return changed
}

// snapshot stamps every file of the site under SRC (as the build sees it,
// plus the layout) and every file the pages quote; prev is the previous
// round's stamps.
func (s *server) snapshot(prev map[string]stamp) map[string]stamp {
	now := time.Now()
	m := map[string]stamp{}
	srcAbs, err := filepath.Abs(s.src)
	if err != nil {
		return m
	}
	layout := filepath.Join(srcAbs, layoutName)
	filepath.WalkDir(srcAbs, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // gone while walking: the next round sees it gone
		case p == srcAbs:
			return nil
		case d.IsDir() && project.ThirdPartyDir(d.Name()):
			return filepath.SkipDir
		case project.Skipped(d.Name()) && p != layout:
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case !d.IsDir():
			m[p] = statStamp(p, now, prev[p])
		}
		return nil
	})
	for _, f := range s.configFiles {
		m[f] = statStamp(f, now, prev[f])
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, pg := range s.pages {
		for _, t := range pg.targets {
			if _, ok := m[t]; !ok {
				m[t] = statStamp(t, now, prev[t])
			}
		}
	}
	return m
}

// watchTargets starts watching the quoted files that are not watched yet,
// as they are now, for the rebuild that started at start has just read
// them. A file changed since shortly before start may have been read as it
// was before the change: its stamp is forced, so that the next round
// rebuilds its pages again.
func (s *server) watchTargets(start time.Time) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pg := range s.pages {
		for _, t := range pg.targets {
			if _, ok := s.watching[t]; !ok {
				st := statStamp(t, now, stamp{})
				st.forced = st.exists && st.changed() >= start.Add(-racyWindow).UnixNano()
				s.watching[t] = st
			}
		}
	}
}
