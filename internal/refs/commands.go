package refs

import (
	"strconv"

	"github.com/textfrag/textfrag/internal/termsafe"
)

// Commands words the commands that findings advise, so that each one runs
// as written where the person reading it is: files named as that
// directory names them, and the flags that chose what links mean (--root,
// --charset, …) given again. The zero value names project paths with no
// flags: right at the project root.
type Commands struct {
	// Path names the file at a project path as a command-line argument,
	// unquoted (default: the project path).
	Path func(projectPath string) string
	// PinFlags and LinkFlags are given to textfrag pin and textfrag link,
	// each flag with a leading space and quoted for the shell
	// (" --root ../site").
	PinFlags, LinkFlags string
	// Root says, for a link whose file cannot be read (Link.Unreadable),
	// where its path leads and which --root would find the file, when the
	// root may be what is wrong ("" or nil: nothing to add).
	Root func(l *Link) string
}

// path names the file at project path p as an argument, quoted for the
// shell.
func (c Commands) path(p string, suffix string) string {
	if c.Path != nil {
		p = c.Path(p)
	}
	return termsafe.ShellWords(p + suffix)
}

// Pin is `textfrag pin` with opts (" --write", " -i") for pages.
func (c Commands) Pin(opts string, pages ...string) string {
	cmd := "textfrag pin" + opts + c.PinFlags
	for _, p := range pages {
		cmd += " " + c.path(p, "")
	}
	return cmd
}

// Accept is the command that accepts the quote on line of page; column,
// when not 0, tells it from another link on that line (pin --accept
// PAGE:LINE:COLUMN), which PAGE:LINE would accept too.
func (c Commands) Accept(page string, line, column int) string {
	at := ":" + strconv.Itoa(line)
	if column > 0 {
		at += ":" + strconv.Itoa(column)
	}
	return "textfrag pin --write" + c.PinFlags + " --accept " + c.path(page, at)
}

// Link is the command that writes a new pinned link to file for page,
// the lines left for a person to choose.
func (c Commands) Link(file, page string) string {
	return "textfrag link " + c.path(file, ":FIRST-LAST") + c.LinkFlags + " --from " + c.path(page, "")
}
