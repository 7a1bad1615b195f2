//go:build ignore

package main

import (
	"fmt"
	"os"
)

// Config holds the settings of a very long-winded program whose lines are far wider than any phone screen.
type Config struct {
	Name  string // the name
	Limit int    // the limit
}

func main() {
	cfg := Config{Name: "textfrag", Limit: 42}
	if len(os.Args) > 1 {
		cfg.Name = os.Args[1] // emphasized, shorter than the longest line
	}
	fmt.Printf("%s: %d\n", cfg.Name, cfg.Limit)
}
