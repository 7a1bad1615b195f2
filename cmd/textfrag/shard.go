package main

import (
	"flag"
	"fmt"

	"github.com/textfrag/textfrag/internal/project"
)

// registerShard adds --shard to fs, for the commands that go over every
// Markdown file of a project (check, pin).
func registerShard(fs *flag.FlagSet, s *project.Shard) {
	fs.Var(s, "shard", "only the Markdown files of part `K/N` of the project, picked by a hash of each file's path from the root, so that N CI jobs (K = 1…N) cover every file exactly once and a file stays in its part when others are added")
}

// shardFiles keeps the files of shard s (all of them for the zero Shard)
// and says on stderr how many of how many it kept. It reports false after
// printing the problem.
func (e *env) shardFiles(s project.Shard, root string, files []string) ([]string, bool) {
	if s.N == 0 {
		return files, true
	}
	picked, err := s.Select(root, files)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	fmt.Fprintf(e.stderr, "shard %s: %d of %d %s\n", s, len(picked), len(files), plural(len(files), "file", "files"))
	return picked, true
}
