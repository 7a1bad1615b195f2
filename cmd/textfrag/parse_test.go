package main

import (
	"bytes"
	"github.com/textfrag/textfrag/internal/project"
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// parseEnv is an env whose stderr a parse test reads.
func parseEnv() (*env, *bytes.Buffer) {
	var stderr bytes.Buffer
	return &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr}, &stderr
}

// parseCase is one command line: it parses (and then check holds for the
// options), or it fails with stderr holding err.
type parseCase[O any] struct {
	name  string
	args  []string
	err   string // "" when the command line is right
	check func(t *testing.T, o O)
}

func runParseCases[O any](t *testing.T, parse func(*env, []string) (O, bool), cases []parseCase[O]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, stderr := parseEnv()
			o, ok := parse(e, c.args)
			switch {
			case c.err == "" && !ok:
				t.Fatalf("%q: refused: %s", c.args, stderr)
			case c.err != "" && ok:
				t.Fatalf("%q: accepted, want an error with %q", c.args, c.err)
			case c.err != "":
				if !strings.Contains(stderr.String(), c.err) {
					t.Errorf("%q: stderr %q lacks %q", c.args, stderr, c.err)
				}
				if !strings.Contains(stderr.String(), "Usage: textfrag") && !strings.Contains(stderr.String(), "textfrag: ") {
					t.Errorf("%q: stderr %q says neither what is wrong nor the usage", c.args, stderr)
				}
			case c.check != nil:
				c.check(t, o)
			}
		})
	}
}

func TestParseResolve(t *testing.T) {
	want := func(format, options, ref string) func(*testing.T, *resolveOptions) {
		return func(t *testing.T, o *resolveOptions) {
			if o.Format != format || o.Options != options || o.Ref != ref {
				t.Errorf("format %q, options %q, ref %q; want %q, %q, %q", o.Format, o.Options, o.Ref, format, options, ref)
			}
		}
	}
	runParseCases(t, parseResolve, []parseCase[*resolveOptions]{
		{name: "a ref", args: []string{"src/a.go#line=1,2"}, check: want("text", "", "src/a.go#line=1,2")},
		{name: "--format json", args: []string{"--format", "json", "a.txt#line=1"}, check: want("json", "", "a.txt#line=1")},
		{name: "--json is --format json", args: []string{"a.txt#line=1", "--json"}, check: want("json", "", "a.txt#line=1")},
		{name: "--json with --format json", args: []string{"--json", "--format=json", "a.txt#line=1"}, check: want("json", "", "a.txt#line=1")},
		{name: "--options", args: []string{"--options", "sym=Server.Handle", "a.go#line=1,9"}, check: want("text", "sym=Server.Handle", "a.go#line=1,9")},
		{name: "flags after --", args: []string{"--", "-odd#line=1"}, check: want("text", "", "-odd#line=1")},
		{name: "--json against --format text", args: []string{"--json", "--format", "text", "a.txt#line=1"}, err: "--json and --format text say different things"},
		{name: "unknown format", args: []string{"--format", "yaml", "a.txt#line=1"}, err: `--format must be text or json, not "yaml"`},
		{name: "no ref", args: nil, err: "resolve: no REF"},
		{name: "two refs", args: []string{"a#line=1", "b#line=1"}, err: "resolve takes one REF, not 2"},
		{name: "unknown flag", args: []string{"--frob", "a#line=1"}, err: "flag provided but not defined: -frob"},
	})
}

func TestParseLink(t *testing.T) {
	lines := func(file string, first, last int64, form string) func(*testing.T, *linkCmdOptions) {
		return func(t *testing.T, o *linkCmdOptions) {
			if o.File != file || o.Name.Kind != 0 || o.Form != form || o.Range.Unit != quotelink.Lines || o.Range.Start != first || o.Range.End != last {
				t.Errorf("%+v; want %s lines %d-%d as %s", o, file, first, last, form)
			}
		}
	}
	named := func(file string, kind symbol.Kind, name string) func(*testing.T, *linkCmdOptions) {
		return func(t *testing.T, o *linkCmdOptions) {
			if o.File != file || o.Name.Kind != kind || o.Name.String() != name {
				t.Errorf("file %q, name %q (kind %v); want %q, %q", o.File, o.Name.String(), o.Name.Kind, file, name)
			}
		}
	}
	runParseCases(t, parseLink, []parseCase[*linkCmdOptions]{
		{name: "a line range", args: []string{"src/a.go:11-20"}, check: lines("src/a.go", 11, 20, "box")},
		{name: "one line, inline, from a page", args: []string{"--inline", "src/a.go:7", "--from", "docs/guide.md"}, check: func(t *testing.T, o *linkCmdOptions) {
			lines("src/a.go", 7, 7, "inline")(t, o)
			if o.From != "docs/guide.md" {
				t.Errorf("from %q", o.From)
			}
		}},
		{name: "characters, quoted", args: []string{"--char", "--quote", "a.txt:101-150"}, check: func(t *testing.T, o *linkCmdOptions) {
			if o.Range.Unit != quotelink.Chars || o.Range.Start != 101 || o.Range.End != 150 || !o.Quote || o.Form != "inline" {
				t.Errorf("%+v", o)
			}
		}},
		{name: "a symbol", args: []string{"src/server.go:Server.Handle"}, check: named("src/server.go", symbol.Symbol, "sym=Server.Handle")},
		{name: "a region", args: []string{"src/a.sh", "--region", "setup"}, check: named("src/a.sh", symbol.Region, "region=setup")},
		{name: "title, options and json", args: []string{"--title", "T", "--options", "dedent", "--format", "json", "a.go:1"}, check: func(t *testing.T, o *linkCmdOptions) {
			if o.Caption != "T" || o.Options != "dedent" || o.Format != "json" {
				t.Errorf("%+v", o)
			}
		}},
		{name: "--doc with --region", args: []string{"a.sh", "--region", "x", "--doc"}, err: "--doc applies to symbols"},
		{name: "--doc with a range", args: []string{"a.go:1-2", "--doc"}, err: "--doc applies to a symbol"},
		{name: "--char with a name", args: []string{"a.go:Server", "--char"}, err: "--char: a name quotes the whole lines"},
		{name: "--quote with a name", args: []string{"a.go:Server", "--quote"}, err: "--quote applies to character ranges only"},
		{name: "--box with --inline", args: []string{"a.go:1", "--box", "--inline"}, err: "--box and --inline (or --quote) ask for different forms"},
		{name: "unknown format", args: []string{"a.go:1", "--format", "xml"}, err: `--format "xml": want text or json`},
		{name: "no range", args: []string{"a.go"}, err: "a.go:"},
		{name: "nothing", args: nil, err: "no FILE:START[-END]"},
		{name: "two", args: []string{"a.go:1", "b.go:2"}, err: "link takes one FILE:RANGE, not 2"},
	})
}

func TestParseRender(t *testing.T) {
	runParseCases(t, parseRender, []parseCase[*renderOptions]{
		{name: "a page", args: []string{"docs/guide.md"}, check: func(t *testing.T, o *renderOptions) {
			if o.Page != "docs/guide.md" {
				t.Errorf("page %q", o.Page)
			}
		}},
		{name: "standard input, strict", args: []string{"-", "--strict"}, check: func(t *testing.T, o *renderOptions) {
			if o.Page != "-" || !o.lf.strict {
				t.Errorf("page %q, strict %v", o.Page, o.lf.strict)
			}
		}},
		{name: "the highlight cache off", args: []string{"--highlight-cache=false", "a.md"}, check: func(t *testing.T, o *renderOptions) {
			if !o.lf.noCache {
				t.Error("--highlight-cache=false kept the cache")
			}
		}},
		{name: "no page", args: nil, err: "render: no FILE.md (or - for standard input)"},
		{name: "two pages", args: []string{"a.md", "b.md"}, err: "render takes one FILE.md, not 2"},
		{name: "a bad flag value", args: []string{"--highlight-cache=maybe", "a.md"}, err: "highlight-cache"},
	})
}

func TestParseLSP(t *testing.T) {
	runParseCases(t, parseLSP, []parseCase[*lspOptions]{
		{name: "no arguments", args: nil, check: func(t *testing.T, o *lspOptions) {
			if !o.lf.unpinned {
				t.Error("the server does not warn about unpinned links, as check does")
			}
		}},
		{name: "--stdio, as clients add it", args: []string{"--stdio"}},
		{name: "check's flags", args: []string{"--strict", "--lenient", "--root", "/tmp/p"}, check: func(t *testing.T, o *lspOptions) {
			if !o.lf.strict || !o.lf.lenient || o.lf.root != "/tmp/p" {
				t.Errorf("%+v", o.lf)
			}
		}},
		{name: "paths", args: []string{"docs"}, err: "lsp takes no PATHS"},
		{name: "an unknown flag", args: []string{"--tcp"}, err: "flag provided but not defined: -tcp"},
	})
}

func TestParseCheck(t *testing.T) {
	runParseCases(t, parseCheck, []parseCase[*checkOptions]{
		{name: "no arguments: the default paths", args: nil, check: func(t *testing.T, o *checkOptions) {
			if o.Format != "text" || len(o.Paths) != 0 || o.Jobs < 1 || !o.lf.unpinned {
				t.Errorf("%+v", o)
			}
		}},
		{name: "paths and standard input", args: []string{"docs", "-", "README.md"}, check: func(t *testing.T, o *checkOptions) {
			if strings.Join(o.Paths, " ") != "docs - README.md" {
				t.Errorf("paths %q", o.Paths)
			}
		}},
		{name: "formats and jobs", args: []string{"--format", "github", "-j", "3", "--strict", "docs"}, check: func(t *testing.T, o *checkOptions) {
			if o.Format != "github" || o.Jobs != 3 || !o.lf.strict {
				t.Errorf("format %q, jobs %d, strict %v", o.Format, o.Jobs, o.lf.strict)
			}
		}},
		{name: "json", args: []string{"--format=json"}, check: func(t *testing.T, o *checkOptions) {
			if o.Format != "json" {
				t.Errorf("format %q", o.Format)
			}
		}},
		{name: "a shard", args: []string{"--shard", "2/4"}, check: func(t *testing.T, o *checkOptions) {
			if o.Shard != (project.Shard{K: 2, N: 4}) {
				t.Errorf("--shard 2/4 kept as %+v", o.Shard)
			}
		}},
		{name: "an unknown format", args: []string{"--format", "xml"}, err: "check: --format xml: the formats are text, json and github"},
		{name: "no jobs", args: []string{"-j", "0"}, err: "check: -j 0: check at least 1 file at a time"},
		{name: "an unknown flag", args: []string{"--fix"}, err: "flag provided but not defined: -fix"},
	})
}

func TestParseRefs(t *testing.T) {
	runParseCases(t, parseRefs, []parseCase[*refsOptions]{
		{name: "a file", args: []string{"src/a.go"}, check: func(t *testing.T, o *refsOptions) {
			if o.Ref != "src/a.go" || o.Diff || o.Format != "text" || !o.Fail["changed"] || !o.Fail["review"] || !o.Fail["deleted"] || o.Fail["moved"] {
				t.Errorf("%+v", o)
			}
		}},
		{name: "lines, json", args: []string{"--format", "json", "src/a.go:3-5"}, check: func(t *testing.T, o *refsOptions) {
			if o.Ref != "src/a.go:3-5" || o.Format != "json" {
				t.Errorf("ref %q, format %q", o.Ref, o.Format)
			}
		}},
		{name: "a region", args: []string{"--region", "setup", "src/a.go"}, check: func(t *testing.T, o *refsOptions) {
			if o.Region != "setup" || o.Ref != "src/a.go" {
				t.Errorf("region %q, ref %q", o.Region, o.Ref)
			}
		}},
		{name: "--diff against the default base", args: []string{"--diff"}, check: func(t *testing.T, o *refsOptions) {
			if !o.Diff || o.Base != "" || o.Ref != "" {
				t.Errorf("%+v", o)
			}
		}},
		{name: "--diff of standard input, github, failing on moves", args: []string{"--diff", "--format", "github", "--fail-on", "moved,changed", "-"}, check: func(t *testing.T, o *refsOptions) {
			if o.Base != "-" || o.Format != "github" || !o.Fail["moved"] || o.Fail["deleted"] {
				t.Errorf("%+v", o)
			}
		}},
		{name: "github without --diff", args: []string{"--format", "github", "a.go"}, err: `--format "github": want one of text, json`},
		{name: "two bases", args: []string{"--diff", "main", "dev"}, err: "--diff takes one BASE at most"},
		{name: "no path", args: nil, err: "Usage: textfrag"},
		{name: "--region with --diff", args: []string{"--diff", "--region", "x"}, err: "--region names what refs PATH lists"},
		{name: "no jobs", args: []string{"-j", "0", "a.go"}, err: "-j 0: want at least 1"},
		{name: "an unknown class", args: []string{"--fail-on", "sometimes", "a.go"}, err: "--fail-on: "},
	})
}

func TestParseRefsQuery(t *testing.T) {
	t.Chdir(t.TempDir())
	e2eWrite(t, ".", map[string]string{"src/a.go": "package a\n", "src/b:c.txt": "x\n"})
	for _, c := range []struct {
		ref, region string
		file        string
		lines       string // the range, "" for none
		name        string
		err         string
	}{
		{ref: "src/a.go", file: "src/a.go"},
		{ref: "src/a.go:3-5", file: "src/a.go", lines: "3-5"},
		{ref: "src/a.go:7", file: "src/a.go", lines: "7"},
		{ref: "src/a.go:Server.Handle", file: "src/a.go", name: "Server.Handle"},
		{ref: "src/b:c.txt", file: "src/b:c.txt"}, // a file whose name holds a colon
		{ref: "src/a.go", region: "setup", file: "src/a.go", name: "setup"},
		{ref: "src/a.go:9-3", err: "src/a.go:9-3: "},
		{ref: "src/a.go", region: "no such name!", err: "--region: "},
	} {
		q, err := parseRefsQuery(c.ref, c.region)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%q %q: error %v, want %q…", c.ref, c.region, err, c.err)
			}
			continue
		}
		lines := ""
		if q.hasLines {
			lines = q.lines.String()
		}
		name := ""
		if q.name != nil {
			name = q.name.Name
		}
		if err != nil || q.file != c.file || lines != c.lines || name != c.name {
			t.Errorf("%q %q: file %q lines %q name %q, error %v", c.ref, c.region, q.file, lines, name, err)
		}
	}
}

func TestParsePin(t *testing.T) {
	runParseCases(t, parsePin, []parseCase[*pinOptions]{
		{name: "no arguments: a dry run of the default paths", args: nil, check: func(t *testing.T, o *pinOptions) {
			if o.write || o.check || o.acceptChanged || o.interactive || o.verbose || o.json || len(o.paths) != 0 || len(o.accept) != 0 {
				t.Errorf("%+v", o)
			}
		}},
		{name: "write, paths", args: []string{"docs", "--write", "README.md"}, check: func(t *testing.T, o *pinOptions) {
			if !o.write || strings.Join(o.paths, " ") != "docs README.md" {
				t.Errorf("write %v, paths %q", o.write, o.paths)
			}
		}},
		{name: "check, json, a shard", args: []string{"--check", "--format", "json", "--shard", "1/3", "-v"}, check: func(t *testing.T, o *pinOptions) {
			if !o.check || !o.json || !o.verbose || o.shard != (project.Shard{K: 1, N: 3}) {
				t.Errorf("check %v, json %v, verbose %v, shard %+v", o.check, o.json, o.verbose, o.shard)
			}
		}},
		{name: "--accept PAGE:LINE names the pages", args: []string{"--accept", "docs/a.md:3", "--accept", "docs/a.md:9", "--accept", "4f08ddb0", "--accept", "b.md:2"}, check: func(t *testing.T, o *pinOptions) {
			if len(o.accept) != 4 || strings.Join(o.paths, " ") != "docs/a.md b.md" {
				t.Errorf("accept %q, paths %q", o.accept.String(), o.paths)
			}
		}},
		{name: "paths named win over --accept's pages", args: []string{"--accept", "docs/a.md:3", "docs"}, check: func(t *testing.T, o *pinOptions) {
			if strings.Join(o.paths, " ") != "docs" {
				t.Errorf("paths %q", o.paths)
			}
		}},
		{name: "-i", args: []string{"-i"}, check: func(t *testing.T, o *pinOptions) {
			if !o.interactive || o.write { // -i writes; pinRun decides that
				t.Errorf("interactive %v, write %v", o.interactive, o.write)
			}
		}},
		{name: "the flags that choose what links mean", args: []string{"--root", "/tmp/p", "--charset", "*.l1=ISO-8859-1", "--allow-secret", ".env.example", "--allow-host", "example.org"}, check: func(t *testing.T, o *pinOptions) {
			if o.flags.Lookup("root").Value.String() != "/tmp/p" || len(o.files.charsets) != 1 || len(o.files.secrets.given) != 1 || len(o.remote.allowHosts) != 1 {
				t.Errorf("root %q, charsets %v, secrets %v, hosts %v", o.flags.Lookup("root").Value, o.files.charsets, o.files.secrets, o.remote.allowHosts)
			}
			if got := pinFlagArgs(o.flags); !strings.Contains(got, " --root /tmp/p") || !strings.Contains(got, "--allow-host example.org") {
				t.Errorf("flags repeated in advice: %q", got)
			}
		}},
		{name: "--write with --check", args: []string{"--write", "--check"}, err: "pin: --check and --write exclude each other"},
		{name: "-i with --check", args: []string{"-i", "--check"}, err: "pin: -i asks about each quote: it goes with neither --check nor --accept-changed"},
		{name: "-i with --accept-changed", args: []string{"--accept-changed", "-i"}, err: "pin: -i asks about each quote"},
		{name: "an unknown format", args: []string{"--format", "github"}, err: `"github" is not a format: text or json`},
		{name: "a bad shard", args: []string{"--shard", "4/3"}, err: "shard"},
		{name: "a bad quote", args: []string{"--accept", ""}, err: "accept"},
		{name: "an unknown flag", args: []string{"--fix"}, err: "flag provided but not defined: -fix"},
	})
}

func TestParseBuild(t *testing.T) {
	runParseCases(t, parseBuild, []parseCase[*buildOptions]{
		{name: "no arguments: the defaults", args: nil, check: func(t *testing.T, o *buildOptions) {
			if o.Out != "public" || o.Format != "text" || !o.Highlight || o.Jobs < 1 || len(o.Src) != 0 || o.lf.unpinned {
				t.Errorf("%+v", o)
			}
		}},
		{name: "a source, an output, json", args: []string{"docs", "-o", "site", "--format", "json", "-j", "2"}, check: func(t *testing.T, o *buildOptions) {
			if strings.Join(o.Src, " ") != "docs" || o.Out != "site" || o.Format != "json" || o.Jobs != 2 {
				t.Errorf("src %q, out %q, format %q, jobs %d", o.Src, o.Out, o.Format, o.Jobs)
			}
		}},
		{name: "rendering flags", args: []string{"--highlight=false", "--highlight-cache=false", "--style", "monokai", "--dark-style", "none", "--strict", "--source-url", "https://x/{path}"}, check: func(t *testing.T, o *buildOptions) {
			if o.Highlight || !o.lf.noCache || o.styles.light != "monokai" || o.styles.dark != "none" || !o.lf.strict || o.lf.sourceURL != "https://x/{path}" {
				t.Errorf("highlight %v, noCache %v, styles %+v, strict %v, sourceURL %q", o.Highlight, o.lf.noCache, o.styles, o.lf.strict, o.lf.sourceURL)
			}
		}},
		{name: "two sources", args: []string{"docs", "more"}, err: "Usage: textfrag build"},
		{name: "no jobs", args: []string{"-j", "0"}, err: "Usage: textfrag build"},
		{name: "no output", args: []string{"-o", ""}, err: "Usage: textfrag build"},
		{name: "an unknown format", args: []string{"--format", "github"}, err: "Usage: textfrag build"},
		{name: "an unknown flag", args: []string{"--watch"}, err: "flag provided but not defined: -watch"},
	})
}

func TestParseServe(t *testing.T) {
	runParseCases(t, parseServe, []parseCase[*serveOptions]{
		{name: "no arguments: the defaults", args: nil, check: func(t *testing.T, o *serveOptions) {
			if o.Addr != "127.0.0.1:8080" || o.Poll != 300*time.Millisecond || len(o.Src) != 0 {
				t.Errorf("%+v", o)
			}
		}},
		{name: "a source, an address, a poll", args: []string{"--addr", "[::1]:0", "docs", "--poll", "1s"}, check: func(t *testing.T, o *serveOptions) {
			if o.Addr != "[::1]:0" || o.Poll != time.Second || strings.Join(o.Src, " ") != "docs" {
				t.Errorf("addr %q, poll %v, src %q", o.Addr, o.Poll, o.Src)
			}
			if strings.Join(o.args, " ") != "--addr [::1]:0 docs --poll 1s" {
				t.Errorf("the command line, read again when textfrag.toml changes, is %q", o.args)
			}
		}},
		{name: "localhost", args: []string{"--addr", "localhost:9000"}, check: func(t *testing.T, o *serveOptions) {
			if o.Addr != "localhost:9000" {
				t.Errorf("addr %q", o.Addr)
			}
		}},
		{name: "rendering flags", args: []string{"--highlight-cache=false", "--style", "monokai", "--root", "/tmp/p"}, check: func(t *testing.T, o *serveOptions) {
			if !o.lf.noCache || o.styles.light != "monokai" || o.lf.root != "/tmp/p" {
				t.Errorf("noCache %v, styles %+v, root %q", o.lf.noCache, o.styles, o.lf.root)
			}
		}},
		{name: "a public address", args: []string{"--addr", "0.0.0.0:8080"}, err: "serve listens on loopback addresses only"},
		{name: "no port", args: []string{"--addr", "127.0.0.1"}, err: "write HOST:PORT"},
		{name: "two sources", args: []string{"docs", "more"}, err: "Usage: textfrag serve"},
		{name: "no poll", args: []string{"--poll", "0s"}, err: "Usage: textfrag serve"},
		{name: "an unknown flag", args: []string{"-o", "x"}, err: "flag provided but not defined: -o"},
	})
}
