package main

import "github.com/textfrag/textfrag/goldmark-textfrag/target"

func parseFailOn(s string) (map[string]bool, error) { return nil, nil }

func (e *env) refsDiff(lf *linkFlags, r *target.Resolver, base, format string, fail map[string]bool, jobs int) int {
	return exitUsage
}
