package highlight

import (
	"strings"
	"testing"
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
