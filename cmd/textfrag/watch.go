package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/textfrag/textfrag/internal/project"
)

// Watching for changes polls: every interval (300ms by default) serve walks
// SRC and stats the files that pages quote, and compares modification times
// and sizes with the previous round. Polling is chosen over file-system
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
// A change that keeps both the size and the modification time (possible on
// file systems with coarse timestamps, within one tick) goes unnoticed
// until the next change.

// stamp is what polling compares: a file's modification time, size and
// mode, or its absence.
type stamp struct {
	mod    int64
	size   int64
	mode   fs.FileMode
	exists bool
}

// statStamp stamps the file at p, following symbolic links.
func statStamp(p string) stamp {
	info, err := os.Stat(p)
	if err != nil {
		return stamp{}
	}
	return stamp{mod: info.ModTime().UnixNano(), size: info.Size(), mode: info.Mode(), exists: true}
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
		if changed := s.poll(); len(changed) > 0 {
			s.update(changed)
		}
	}
}

// poll takes a new snapshot and returns the absolute paths of the files
// that appeared, changed or disappeared since the last one. It runs before
// the rebuild that reads the files, so a change made during the rebuild is
// seen by the next poll.
func (s *server) poll() map[string]bool {
	now := s.snapshot()
	s.mu.Lock()
	old := s.watching
	s.watching = now
	s.mu.Unlock()
	changed := map[string]bool{}
	for p, st := range now {
		if old[p] != st {
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
// plus the layout) and every file the pages quote.
func (s *server) snapshot() map[string]stamp {
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
			m[p] = statStamp(p)
		}
		return nil
	})
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, pg := range s.pages {
		for _, t := range pg.targets {
			if _, ok := m[t]; !ok {
				m[t] = statStamp(t)
			}
		}
	}
	return m
}

// watchTargets starts watching the quoted files that are not watched yet,
// as they are now: the rebuild that found them has just read them.
func (s *server) watchTargets() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pg := range s.pages {
		for _, t := range pg.targets {
			if _, ok := s.watching[t]; !ok {
				s.watching[t] = statStamp(t)
			}
		}
	}
}
