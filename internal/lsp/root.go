package lsp

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// openRoot opens the project root, inside which every file the server
// reads must lie.
func openRoot(dir string) (*os.Root, error) { return os.OpenRoot(dir) }

// clientRoot returns the directory the client opened, where the project
// is looked for: its first workspace folder, else rootUri, else rootPath
// (LSP 3.17 orders them so), else the server's working directory. A root
// the client names must be a local directory (a file: URI without a host,
// or localhost): the server reads files there, and a guessed other one
// would check another project.
func clientRoot(p initializeParams) (string, error) {
	var given, dir string
	switch {
	case len(p.Folders) > 0:
		given = p.Folders[0].URI
		dir = localURIPath(given)
	case p.RootURI != "":
		given = p.RootURI
		dir = localURIPath(given)
	case p.RootPath != "":
		given, dir = p.RootPath, p.RootPath
	default:
		return os.Getwd()
	}
	if dir == "" || !filepath.IsAbs(dir) {
		return "", fmt.Errorf("the workspace root %q is not a local directory (file:///…); textfrag reads only local files: open a folder on this machine", given)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return "", fmt.Errorf("the workspace root %q is not a directory on this machine; open a folder that exists", given)
	}
	return filepath.Clean(dir), nil
}

// localURIPath is uriPath for a URI that must name a local path: "" when
// it does not parse, is not file:, or names another host.
func localURIPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Opaque != "" {
		return ""
	}
	return uriPath(uri)
}
