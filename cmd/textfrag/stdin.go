package main

import (
	"fmt"
	"io"

	"github.com/textfrag/textfrag/internal/project"
)

// stdinName is how messages name a page read from standard input ("-" on
// the command line). Its relative links resolve from the current
// directory, as those of a page there.
const stdinName = "<stdin>"

// readStdinPage reads the Markdown page on standard input, up to the limit
// every page has (project.MaxPageBytes).
func (e *env) readStdinPage() ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(e.stdin, project.MaxPageBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", stdinName, err)
	}
	if int64(len(b)) > project.MaxPageBytes {
		return nil, fmt.Errorf("%s: more than %d bytes; textfrag reads Markdown pages of at most %d bytes (32 MiB): split it into pages", stdinName, project.MaxPageBytes, project.MaxPageBytes)
	}
	return b, nil
}

// cutStdin takes "-" (standard input) out of a command's paths, and
// reports whether it was there.
func cutStdin(paths []string) ([]string, bool) {
	rest := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != "-" {
			rest = append(rest, p)
		}
	}
	return rest, len(rest) < len(paths)
}
