package main

import (
	"fmt"
	"os"
)

// Config holds the settings of a very long-winded program whose lines are far wider than any phone screen.
type Config struct {
	Name	string // the name
	Limit	int    // tabs above align the fields
}

func main() {
	cfg := Config{Name: "textfrag", Limit: 42}
	if len(os.Args) > 1 { cfg.Name = os.Args[1] } // an emphasized line that is much longer than the box is wide, so it scrolls
	fmt.Printf("%s: %d\n", cfg.Name, cfg.Limit)
}
