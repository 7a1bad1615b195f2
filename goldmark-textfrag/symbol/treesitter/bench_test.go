//go:build cgo

package treesitter

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// benchUnits are 10-line pieces of each language; %[1]d numbers them, so
// that a file of 500 of them has 5,000 lines and unique names.
var benchUnits = []struct{ lang, ext, unit, name string }{
	{"python", "py", "# Handler %[1]d.\n@route(\"/%[1]d\")\ndef handle_%[1]d(request):\n    return 200\n\n\nclass Item%[1]d:\n    def get(self):\n        return %[1]d\n\n", "Item250.get"},
	{"javascript", "js", "// Store %[1]d.\nclass Store%[1]d {\n  add(x) {\n    return x + %[1]d;\n  }\n}\n\nconst limit%[1]d = %[1]d;\nfunction f%[1]d() {}\n\n", "Store250.add"},
	{"typescript", "ts", "/** Service %[1]d. */\nexport class Service%[1]d<T> {\n  get(id: number): T | undefined {\n    return undefined;\n  }\n}\n\nexport interface Shape%[1]d { area(): number }\nexport const n%[1]d = (x: number): number => x * %[1]d;\n\n", "Service250.get"},
	{"tsx", "tsx", "// Card %[1]d.\nexport function Card%[1]d({ title }: { title: string }) {\n  return (\n    <div className=\"card\">\n      {title}\n    </div>\n  );\n}\n\ntype P%[1]d = { n: number };\n", "Card250"},
	{"rust", "rs", "/// Counter %[1]d.\n#[derive(Debug)]\npub struct Counter%[1]d { n: u64 }\n\nimpl Counter%[1]d {\n    pub fn bump(&mut self) {\n        self.n += %[1]d;\n    }\n}\n\n", "Counter250.bump"},
	{"java", "java", "  /** Item %[1]d. */\n  @Deprecated\n  static class Item%[1]d {\n    int count;\n\n    int get() {\n      return count + %[1]d;\n    }\n  }\n\n", "Shop.Item250.get"},
	{"c", "c", "/* Ring %[1]d. */\nstruct ring%[1]d { int n; };\n\nint ring%[1]d_len(const struct ring%[1]d *r)\n{\n\treturn r->n + %[1]d;\n}\n\n#define RING%[1]d_MAX %[1]d\n\n", "ring250_len"},
	{"cpp", "cpp", "namespace n%[1]d {\n// Vec %[1]d.\nclass Vec {\n public:\n  double norm() const { return %[1]d; }\n};\n\ntemplate <typename T> T id(T v) { return v; }\n}  // namespace n%[1]d\n\n", "n250.Vec.norm"},
}

// benchSource is a 5,000-line file of lang.
func benchSource(unit, lang string) []byte {
	var b bytes.Buffer
	if lang == "java" {
		b.WriteString("class Shop {\n")
	}
	for i := range 500 {
		fmt.Fprintf(&b, unit, i)
	}
	if lang == "java" {
		b.WriteString("}\n")
	}
	return b.Bytes()
}

func TestBenchSources(t *testing.T) {
	for _, u := range benchUnits {
		src := benchSource(u.unit, u.lang)
		n := bytes.Count(src, []byte("\n"))
		if n < 5000 || n > 5002 {
			t.Errorf("%s: %d lines", u.lang, n)
		}
		t.Logf("%s: %d lines, %d KB", u.lang, n, len(src)/1024)
		if _, err := symbol.Default().Merge(Parsers()).Find("src/big."+u.ext, "", src, symbol.Selector{Kind: symbol.Symbol, Name: u.name}); err != nil {
			t.Errorf("%s: %v", u.lang, err)
		}
	}
}

// BenchmarkFind is the cost of one sym= link on a 5,000-line file: parse,
// declarations, lookup (symbol.Set.Find builds a new Index each time).
func BenchmarkFind(b *testing.B) {
	set := symbol.Default().Merge(Parsers())
	for _, u := range benchUnits {
		src := benchSource(u.unit, u.lang)
		sel := symbol.Selector{Kind: symbol.Symbol, Name: u.name}
		b.Run(strings.ToUpper(u.lang[:1])+u.lang[1:], func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if _, err := set.Find("src/big."+u.ext, "", src, sel); err != nil {
					b.Fatal(err)
				}
			}
			if c := cpuTime() - cpu; c > 0 {
				b.ReportMetric(float64(c.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			}
		})
	}
}

// errorUnit is a 10-line piece of C++ with the errors real headers have:
// a namespace macro, an #if the grammar cannot read, an export macro.
const errorUnit = "NS_BEGIN_%[1]d\nint f%[1]d(void);\n// Vec %[1]d.\nclass Vec%[1]d {\n  double norm() const { return %[1]d; }\n};\n#if __has_include(<v%[1]d>)\n#include <v%[1]d>\n#endif\nAPI_%[1]d int g%[1]d(void);\n"

// A 5,000-line C++ file with 1,500 syntax errors still has its names
// away from them: Vec250.norm is found, f250 is not.
func TestBenchSourceWithErrors(t *testing.T) {
	src := benchSource(errorUnit, "cpp")
	set := symbol.Default().Merge(Parsers())
	sp, err := set.Find("src/big.hpp", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "Vec250.norm"})
	if err != nil || sp.Start != 2504 || sp.End != 2505 {
		t.Errorf("Vec250.norm: %s %v, want line 2505", sp.Human(), err)
	}
	if sp, err := set.Find("src/big.hpp", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "g250"}); err != nil || sp.Start != 2509 {
		t.Errorf("g250: %s %v, want line 2510", sp.Human(), err)
	}
	if _, err := set.Find("src/big.hpp", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "f250"}); symbol.ErrorKind(err) != "parse" {
		t.Errorf("f250: %v, want a parse error", err)
	}
}

// BenchmarkFindWithErrors is BenchmarkFind/Cpp's cost on that file: the
// parse, the confinement of every error, one lookup.
func BenchmarkFindWithErrors(b *testing.B) {
	set := symbol.Default().Merge(Parsers())
	src := benchSource(errorUnit, "cpp")
	sel := symbol.Selector{Kind: symbol.Symbol, Name: "Vec250.norm"}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := set.Find("src/big.hpp", "", src, sel); err != nil {
			b.Fatal(err)
		}
	}
	if c := cpuTime() - cpu; c > 0 {
		b.ReportMetric(float64(c.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}
