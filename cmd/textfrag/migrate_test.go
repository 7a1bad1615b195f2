package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/corpus"
	"github.com/textfrag/textfrag/internal/symbols"
)

// migratePeer is a docs tree written for one peer tool, and what that tool
// would show for each include (written by hand from the tool's rules).
type migratePeer struct {
	name  string
	files map[string]string
	pages []string // the pages to render after migrating
	// boxes are the texts the peer includes, in page order.
	boxes []string
	// links is how many includes become links.
	links int
	// markers are lines the sources must hold after migrating.
	markers map[string][]string
}

func migratePeers(t *testing.T) []migratePeer {
	peers := []migratePeer{
		{
			name: "mdbook",
			files: map[string]string{
				"book.toml":      "[book]\ntitle = \"Guide\"\n",
				"src/SUMMARY.md": "# Summary\n\n- [Start](start.md)\n",
				"src/start.md": "# Start\n\nThe entry point:\n\n```rust\n{{#include ../listings/main.rs:main}}\n```\n\n" +
					"Its first line:\n\n```rust,ignore\n{{#include ../listings/main.rs:1}}\n```\n\n" +
					"- In a list item:\n\n  ```rust\n  {{#include ../listings/main.rs::2}}\n  ```\n",
				"listings/main.rs": "use std::io;\n\n// ANCHOR: main\nfn main() {\n    // ANCHOR: greet\n    println!(\"hi\");\n    // ANCHOR_END: greet\n    let _ = io::stdin();\n}\n// ANCHOR_END: main\n",
			},
			pages: []string{"src/start.md"},
			// mdBook leaves out the markers of other anchors inside an anchor.
			boxes: []string{"fn main() {\n    println!(\"hi\");\n    let _ = io::stdin();\n}\n", "use std::io;\n", "use std::io;\n\n"},
			links: 3,
			markers: map[string][]string{"listings/main.rs": {
				"// textfrag:begin main", "    // textfrag:begin greet", "    // textfrag:end greet", "// textfrag:end main",
			}},
		},
		{
			name: "pymdownx",
			files: map[string]string{
				"mkdocs.yml":    "site_name: App\nmarkdown_extensions:\n  - pymdownx.snippets\n",
				"docs/index.md": "# App\n\n```python\n--8<-- \"src/app.py:setup\"\n```\n\nThe imports:\n\n```python\n--8<-- \"src/app.py:1:2\"\n```\n",
				"src/app.py":    "import os\nimport sys\n\n# --8<-- [start:setup]\ndef setup():\n    # --8<-- [start:inner]\n    return os.getcwd()\n    # --8<-- [end:inner]\n# --8<-- [end:setup]\n\nprint(sys.argv)\n",
			},
			pages: []string{"docs/index.md"},
			// pymdownx leaves out section markers inside a section.
			boxes:   []string{"def setup():\n    return os.getcwd()\n", "import os\nimport sys\n"},
			links:   2,
			markers: map[string][]string{"src/app.py": {"# textfrag:begin setup", "    # textfrag:begin inner", "    # textfrag:end inner", "# textfrag:end setup"}},
		},
		{
			name: "markdownsnippets",
			files: map[string]string{
				"docs/usage.md": "# Usage\n\nConnect first:\n\nsnippet: Connect\n\nThen close:\n\n<!-- snippet: Close -->\n<a id='snippet-Close'></a>\n```cs\npublic void Close() { }\n```\n<sup><a href='/src/Client.cs#L13-L13' title='Snippet source file'>snippet source</a></sup>\n<!-- endSnippet -->\n",
				"src/Client.cs": "using System;\n\nclass Client\n{\n    // begin-snippet: Connect\n    public void Connect()\n    {\n        Console.WriteLine(\"connect\");\n    }\n    // end-snippet\n\n    // begin-snippet: Close\n    public void Close() { }\n    // end-snippet\n}\n",
			},
			pages: []string{"docs/usage.md"},
			// MarkdownSnippets removes the margin a snippet's lines share.
			boxes:   []string{"public void Connect()\n{\n    Console.WriteLine(\"connect\");\n}\n", "public void Close() { }\n"},
			links:   2,
			markers: map[string][]string{"src/Client.cs": {"    // textfrag:begin Connect", "    // textfrag:end Connect", "    // textfrag:begin Close", "    // textfrag:end Close"}},
		},
		{
			name: "sphinx-myst",
			files: map[string]string{
				"docs/conf.py": "extensions = [\"myst_parser\"]\n",
				"docs/api.md": "# API\n\n```{literalinclude} ../src/calc.py\n:language: python\n:start-after: # start-add\n:end-before: # end-add\n```\n\n" +
					"```{literalinclude} /../src/calc.py\n:lines: 1-2\n:emphasize-lines: 2\n:caption: The imports\n```\n",
				"src/calc.py": "import math\nimport operator\n\n\nclass Calc:\n    # start-add\n    def add(self, a, b):\n        return a + b\n    # end-add\n\n    def mul(self, a, b):\n        return a * b\n",
			},
			pages: []string{"docs/api.md"},
			boxes: []string{"    def add(self, a, b):\n        return a + b\n", "import math\nimport operator\n"},
			links: 2,
		},
		{
			name: "embedme",
			files: map[string]string{
				"README.md":    "# lib\n\n<!-- embedme src/index.ts#L2-L4 -->\n```ts\nstale copy\n```\n\nWhole file:\n\n<!-- embedme src/util.ts -->\n\n```ts\n```\n",
				"src/index.ts": "// index\nexport function add(a: number, b: number) {\n  return a + b;\n}\n",
				"src/util.ts":  "export const one = 1;\n",
			},
			pages: []string{"README.md"},
			boxes: []string{"export function add(a: number, b: number) {\n  return a + b;\n}\n"},
			links: 1, // the second has a blank line before its fence: listed
		},
	}
	if slices.Contains(symbols.Languages(), "Python") {
		p := &peers[3]
		p.files["docs/api.md"] += "\n```{literalinclude} ../src/calc.py\n:pyobject: Calc.mul\n```\n"
		p.boxes = append(p.boxes, "    def mul(self, a, b):\n        return a * b\n")
		p.links++
	}
	return peers
}

var migrateBoxRE = regexp.MustCompile(`(?s)<figure class="textfrag.*?</figure>`)

// TestMigratePeers: for each peer, a realistic tree converts with
// "migrate --write"; then "check --strict" passes (it warned before), and
// each box shows exactly the lines the peer would have included.
func TestMigratePeers(t *testing.T) {
	for _, peer := range migratePeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			root := t.TempDir()
			e2eWrite(t, root, peer.files)
			t.Chdir(root)
			// check sees the includes, warns, and names the command.
			_, stderr, code := runIn(t, "check", "--strict", "--root", root, ".")
			if code != 1 || !strings.Contains(stderr, "textfrag migrate") || !strings.Contains(stderr, "include: textfrag does not read it") {
				t.Fatalf("check before migrating: exit %d\n%s", code, stderr)
			}
			// A dry run shows a diff and writes nothing.
			before := e2eTree(t, root)
			stdout, stderr, _ := runIn(t, "migrate", "--root", root, ".")
			if !strings.Contains(stdout, "--- a/") || !strings.Contains(stdout, "+[") {
				t.Fatalf("dry run shows no diff:\n%s\n%s", stdout, stderr)
			}
			if after := e2eTree(t, root); !mapsEqual(before, after) {
				t.Fatal("the dry run wrote files")
			}
			stdout, stderr, code = runIn(t, "migrate", "--write", "--root", root, ".")
			wantCode := 0
			if peer.name == "embedme" {
				wantCode = 1
			}
			if code != wantCode || !strings.Contains(stderr, "migrate: "+strconv.Itoa(peer.links)+" include") {
				t.Fatalf("migrate --write: exit %d\n%s\n%s", code, stdout, stderr)
			}
			// Marker lines were replaced one for one: no other line moved.
			for f, want := range peer.markers {
				old := strings.Split(peer.files[f], "\n")
				now := strings.Split(readFile(t, filepath.Join(root, f)), "\n")
				if len(old) != len(now) {
					t.Fatalf("%s: %d lines, was %d", f, len(now), len(old))
				}
				var got []string
				for i := range old {
					if old[i] != now[i] {
						got = append(got, now[i])
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: changed lines %q, want %q", f, got, want)
				}
			}
			if peer.name == "embedme" {
				if !strings.Contains(stderr, "README.md:10: not converted: embedme:") {
					t.Errorf("the embedme comment without a fence is not listed:\n%s", stderr)
				}
				// Nothing else stops check --strict then: remove it.
				p := filepath.Join(root, "README.md")
				os.WriteFile(p, []byte(strings.Replace(readFile(t, p), "<!-- embedme src/util.ts -->\n", "", 1)), 0o644)
			}
			_, stderr, code = runIn(t, "check", "--strict", "--root", root, ".")
			if code != 0 {
				t.Fatalf("check --strict after migrating: exit %d\n%s", code, stderr)
			}
			var boxes []string
			for _, pg := range peer.pages {
				html, stderr, code := runIn(t, "render", "--root", root, pg)
				if code != 0 {
					t.Fatalf("render %s: exit %d\n%s", pg, code, stderr)
				}
				for _, fig := range migrateBoxRE.FindAllString(html, -1) {
					b, _ := corpus.FindBox(fig)
					boxes = append(boxes, b.Text)
				}
			}
			if !slices.Equal(boxes, peer.boxes) {
				t.Errorf("boxes show\n%q\nwant what %s includes\n%q", boxes, peer.name, peer.boxes)
			}
		})
	}
}

// TestMigrateAsciidoctorMarkers: Asciidoctor's tags become regions (its
// pages are not Markdown, so only the markers move), a Go file's in the
// directive form, and link --region then quotes them.
func TestMigrateAsciidoctorMarkers(t *testing.T) {
	root := t.TempDir()
	e2eWrite(t, root, map[string]string{
		"docs/guide.adoc": "= Guide\n\ninclude::../src/tags.go[tag=setup]\n",
		"src/tags.go":     "package tags\n\n// tag::setup[]\nfunc Setup() {}\n// end::setup[]\n\n/* tag::twice[] */\nvar a = 1\n/* end::twice[] */\n/* tag::twice[] */\nvar b = 2\n/* end::twice[] */\n",
		"src/conf.yaml":   "a: 1\n# tag::limits[]\nlimits: 3\n# end::limits[]\n",
	})
	t.Chdir(root)
	_, stderr, code := runIn(t, "migrate", "--write", "--root", root, ".")
	if code != 1 || !strings.Contains(stderr, "src/tags.go:7: not converted: Asciidoctor: /* tag::twice[] */: \"twice\" has 2 begin and 2 end markers") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := readFile(t, filepath.Join(root, "src/tags.go"))
	if want := "package tags\n\n//textfrag:begin setup\nfunc Setup() {}\n//textfrag:end setup\n\n/* tag::twice[] */\n"; !strings.HasPrefix(got, want) {
		t.Errorf("tags.go:\n%s", got)
	}
	if got := readFile(t, filepath.Join(root, "src/conf.yaml")); got != "a: 1\n# textfrag:begin limits\nlimits: 3\n# textfrag:end limits\n" {
		t.Errorf("conf.yaml:\n%s", got)
	}
	if got := readFile(t, filepath.Join(root, "docs/guide.adoc")); got != "= Guide\n\ninclude::../src/tags.go[tag=setup]\n" {
		t.Errorf("the AsciiDoc page changed:\n%s", got)
	}
	out, stderr, code := runIn(t, "link", "--root", root, "src/tags.go", "--region", "setup")
	if code != 0 || !strings.Contains(out, "#line=3,4;md5=") {
		t.Errorf("link --region setup: exit %d %q\n%s", code, out, stderr)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestMigrateJSON: --format json gives the diffs, the links and what was
// left, with its reason; nothing is written without --write.
func TestMigrateJSON(t *testing.T) {
	root := t.TempDir()
	e2eWrite(t, root, map[string]string{
		"docs/a.md": "```rust\n{{#include ../src/a.rs:2}}\n```\n\n```rust\n{{#include ../src/none.rs}}\n```\n",
		"src/a.rs":  "fn a() {}\nfn b() {}\n",
	})
	t.Chdir(root)
	out, stderr, code := runIn(t, "migrate", "--format", "json", "--root", root, "docs")
	var got struct {
		Files []struct{ Path, Diff string }
		Links []struct {
			Page, Link string
			Line       int
		}
		Problems []struct {
			File, Tool, Written, Reason string
			Line                        int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 {
		t.Fatalf("exit %d, %v: %s\n%s", code, err, out, stderr)
	}
	if len(got.Files) != 1 || got.Files[0].Path != "docs/a.md" || !strings.Contains(got.Files[0].Diff, "+[a.rs line 2](../src/a.rs#line=1,2;md5=") {
		t.Errorf("files: %+v", got.Files)
	}
	if len(got.Links) != 1 || got.Links[0].Line != 1 || got.Links[0].Page != "docs/a.md" {
		t.Errorf("links: %+v", got.Links)
	}
	if len(got.Problems) != 1 || got.Problems[0].Line != 5 || got.Problems[0].Tool != "mdBook" || !strings.Contains(got.Problems[0].Reason, "not found") {
		t.Errorf("problems: %+v", got.Problems)
	}
	if readFile(t, filepath.Join(root, "docs/a.md")) != "```rust\n{{#include ../src/a.rs:2}}\n```\n\n```rust\n{{#include ../src/none.rs}}\n```\n" {
		t.Error("--format json wrote the page")
	}
}
