// Command textfrag builds documentation sites whose Markdown links quote
// source files through RFC 5147 fragments, checks those links in CI, and pins
// their integrity checks.
//
// Usage:
//
//	textfrag resolve [--root DIR] [--json] REF
//
// Run "textfrag help" for every command.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"

	"golang.org/x/term"

	"github.com/textfrag/textfrag/internal/termsafe"
)

// Exit codes, as the README documents them.
const (
	exitOK    = 0
	exitError = 1 // a link or build failed
	exitUsage = 2 // the command line was wrong
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) int
	// gcPercent is the GOGC the command runs at unless GOGC is set
	// (0: 400, see main).
	gcPercent int
}

// env is what a command reads and writes, so tests can run commands in process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrIsTTY    bool
	// helped is set when a command printed its usage because -h asked for
	// it, which is a success, not bad usage.
	helped bool
	// preCommit is set when the command runs as a pre-commit hook: the
	// remedies check and pin print name the hooks (hookRemedy).
	preCommit bool
	// hookSelf is, under pre-commit, this textfrag by its path in
	// pre-commit's cache (shell-quoted): what a remedy that accepts one
	// quote names, which no hook can do ("" when unknown: the manual hook).
	hookSelf string
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stderrIsTTY: isTerminal(os.Stderr), preCommit: underPreCommit()}
	if e.preCommit {
		e.hookSelf = hookSelf()
	}
	if os.Getenv("GOGC") == "" {
		// A build allocates much and keeps little (each page's tokens and
		// markup die with the page): collecting at 5× the live heap
		// instead of 2× saves about a tenth of a highlighted build's CPU
		// (BENCHMARKS.md) for tens of MiB more peak memory. Commands that
		// highlight nothing say otherwise (command.gcPercent).
		pct := 400
		if len(os.Args) > 1 && commands[os.Args[1]].gcPercent > 0 {
			pct = commands[os.Args[1]].gcPercent
		}
		debug.SetGCPercent(pct)
	}
	stop := startProfile(os.Getenv("TEXTFRAG_CPUPROFILE"), e.stderr)
	code := e.main(os.Args[1:])
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole run to path, for
// BENCHMARKS.md's profiles; "" profiles nothing.
func startProfile(path string, stderr io.Writer) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "textfrag: TEXTFRAG_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func (e *env) main(args []string) int {
	switch {
	case len(args) == 0:
		// Bad usage: the usage goes where errors go, and the exit code
		// says so (a script that runs textfrag with no command fails).
		e.usage(e.stderr)
		return exitUsage
	case args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		e.usage(e.stdout)
		return exitOK
	case args[0] == "--version" || args[0] == "-version":
		return runVersion(e, args[1:])
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "textfrag: unknown command %q\n", args[0])
		e.usage(e.stderr)
		return exitUsage
	}
	code := c.run(e, args[1:])
	if e.helped {
		return exitOK
	}
	return code
}

func (e *env) usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: textfrag COMMAND [ARGS]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"textfrag COMMAND -h\" for a command's flags, \"textfrag --version\" for the version.")
}

// newFlagSet returns the flag set of the command name, whose usage is help
// followed by the flags.
func newFlagSet(name, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), help)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags that may stand before, between or after the
// positional arguments, and returns the positional arguments. It reports
// false after printing the problem when the command line is wrong.
func (e *env) parseFlags(fs *flag.FlagSet, args []string) ([]string, bool) {
	fs.SetOutput(e.stderr)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			e.helped = errors.Is(err, flag.ErrHelp)
			return nil, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, true
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), true
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// errorf writes a message on stderr, its control characters escaped.
func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "textfrag: %s\n", termsafe.Escape(fmt.Sprintf(format, args...), "\n"))
}

// oneLine folds a message onto one line for a terminal or a log.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// isTerminal reports whether f is a terminal (not merely a character
// device: /dev/null is one, and a progress line or an escape written there
// is written for nobody).
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
