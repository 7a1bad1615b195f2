package refs

import (
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
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
	// Title gives, for a link, the --title with which textfrag link
	// writes its text again ("" or nil: link's own text).
	Title func(l *Link) string
}

// Name names the file at project path p in a finding's text as its
// commands name it (Path), unquoted, so that the text and the commands in
// it agree on where files are.
func (c Commands) Name(p string) string {
	if c.Path != nil {
		return c.Path(p)
	}
	return p
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
// the lines left for a person to choose, with the link text title (none
// when "").
func (c Commands) Link(file, page, title string) string {
	cmd := "textfrag link " + c.path(file, ":FIRST-LAST") + c.LinkFlags
	if title != "" {
		cmd += " --title " + termsafe.ShellWords(title)
	}
	return cmd + " --from " + c.path(page, "")
}

// title is the --title of l (Title), or "".
func (c Commands) title(l *Link) string {
	if c.Title == nil {
		return ""
	}
	return c.Title(l)
}

// FixByHand is pin.FixByHand for the textfrag link command cmd, set off
// as Markdown sets off code that holds backticks (a --title with a code
// span): by one backtick more than its longest run of them, so that the
// command ends where the fence of the same length closes it.
func FixByHand(cmd string) string {
	fix := pin.FixByHand(cmd)
	if strings.Contains(cmd, "`") {
		fix = strings.Replace(fix, "`"+cmd+"`", mdlink.CodeSpan(cmd), 1)
	}
	return fix
}
