package highlight

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

func TestWrite(t *testing.T) {
	for _, c := range []struct {
		name string
		code string
		o    Options
		want string
	}{
		{"no language", "a < b\n", Options{},
			`<div class="highlight"><pre tabindex="0" class="chroma"><code>` +
				`<span class="line"><span class="cl">a &lt; b` + "\n" + `</span></span></code></pre></div>`},
		{"unknown language is plain text, class kept", "x\n", Options{Lang: "nosuchlang"},
			`<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-nosuchlang" data-lang="nosuchlang">` +
				`<span class="line"><span class="cl">x` + "\n" + `</span></span></code></pre></div>`},
		{"numbered from 7, line 8 emphasized", "a\nb\n", Options{Lang: "text", LineNumbers: true, FirstLine: 7, Highlighted: [][2]int{{8, 8}}},
			`<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-text" data-lang="text">` +
				`<span class="line"><span class="ln">7</span><span class="cl">a` + "\n" + `</span></span>` +
				`<span class="line hl"><span class="ln">8</span><span class="cl">b` + "\n" + `</span></span></code></pre></div>`},
	} {
		var b strings.Builder
		if err := Write(&b, c.code, c.o); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if b.String() != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, b.String(), c.want)
		}
	}
	var b strings.Builder
	if err := Write(&b, "func f() {}\n", Options{Lang: "go"}); err != nil || !strings.Contains(b.String(), `<span class="kd">func</span>`) || strings.Contains(b.String(), "style=") {
		t.Errorf("go: %v %s", err, b.String())
	}
}

func TestLexer(t *testing.T) {
	if Lexer("") != nil || Lexer("nosuchlang") != nil || Lexer("nosuchlang") != nil {
		t.Error("unknown names must have no lexer")
	}
	if l := Lexer("go"); l == nil || l != Lexer("go") {
		t.Error("go: want the same lexer each time")
	}
	if Lexer("py") == nil {
		t.Error("an extension must find its lexer")
	}
}

// Formatters are reused from block to block: one block's numbering,
// emphasis and language must not leak into the next.
func TestWriteLeavesNoOptionsBehind(t *testing.T) {
	var first, second strings.Builder
	if err := Write(&first, "a\nb\n", Options{Lang: "go", LineNumbers: true, FirstLine: 40, Highlighted: [][2]int{{41, 41}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.String(), `<span class="line hl"><span class="ln">41</span>`) {
		t.Fatalf("first block: %s", first.String())
	}
	for range 3 { // pooled formatters: whichever one comes back
		second.Reset()
		if err := Write(&second, "a\nb\n", Options{}); err != nil {
			t.Fatal(err)
		}
		want := `<div class="highlight"><pre tabindex="0" class="chroma"><code>` +
			`<span class="line"><span class="cl">a` + "\n" + `</span></span>` +
			`<span class="line"><span class="cl">b` + "\n" + `</span></span></code></pre></div>`
		if second.String() != want {
			t.Fatalf("a plain block after a numbered one:\n%s\nwant\n%s", second.String(), want)
		}
	}
}

// The plain-text fast path makes exactly the tokens chroma's plain-text
// lexers make, for any code: line endings of every kind, no final newline,
// invalid UTF-8, NUL, empty.
func TestPlainTextTokens(t *testing.T) {
	codes := []string{"", "\n", "a", "a\nb", "a\nb\n", "\n\n\nx", "a\r\nb\rc\u0085d\u2028e\n", "tab\there\x00nul\n",
		"bad \xff\xfe bytes\n", "cut rune \xe2\x82", "\xc0\xaf overlong\n", "é😀\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", " ", "\t", "\n", "\r", "\r\n", "\xff", "\xe2\x82", "é", "😀", "<&>", "\x00", "\u0085"}
	for range 500 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		codes = append(codes, b.String())
	}
	for _, lexer := range []chroma.Lexer{lexers.Fallback, lexers.Get("text"), Lexer("txt"), Lexer("nosuchlang")} {
		if lexer != nil && !isPlainText(lexer) {
			t.Fatalf("%s should take the plain-text path", lexer.Config().Name)
		}
		real := lexer
		if real == nil {
			real = lexers.Fallback
		}
		for _, code := range codes {
			fast, err := tokenise(lexer, code)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := chroma.Coalesce(real).Tokenise(nil, code)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fast.Tokens(), slow.Tokens(); !slices.Equal(got, want) {
				t.Fatalf("%s on %q:\n got %v\nwant %v", real.Config().Name, code, got, want)
			}
		}
	}
	if isPlainText(Lexer("go")) {
		t.Error("go is not plain text")
	}
}
