package lsp

import "os"

// openRoot opens the project root, inside which every file the server
// reads must lie.
func openRoot(dir string) (*os.Root, error) { return os.OpenRoot(dir) }
