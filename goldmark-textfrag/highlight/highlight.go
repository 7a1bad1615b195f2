// Package highlight writes code highlighted by chroma with CSS classes, in
// the markup Hugo's transform.Highlight writes, so that textfrag boxes,
// fenced code blocks and Hugo pages share one stylesheet:
//
//	<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-go" data-lang="go">…</code></pre></div>
//
// No inline styles are written, so pages work under a strict
// Content-Security-Policy.
package highlight

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Options say how to write one block. The zero value writes plain text
// without line numbers.
type Options struct {
	// Lang names the chroma lexer and the code element's language class;
	// a name chroma does not know is written as plain text. "" writes no class.
	Lang string
	// LineNumbers numbers each line, starting at FirstLine (default 1).
	LineNumbers bool
	FirstLine   int
	// Highlighted are line ranges (inclusive, in the numbers shown) to emphasize.
	Highlighted [][2]int
}

// Write writes code highlighted, wrapped as the package doc shows.
func Write(w io.Writer, code string, o Options) error {
	return WriteCached(w, code, o, nil)
}

// WriteCached is Write with a cache: a block the cache holds is copied from
// it, and a block written is stored in it. A nil cache caches nothing.
func WriteCached(w io.Writer, code string, o Options, cache Cache) error {
	key, ok := Key{}, false
	if cache != nil {
		key, ok = keyFor(code, o)
	}
	if !ok {
		return write(w, code, o)
	}
	if html, hit := cache.Get(key); hit {
		_, err := w.Write(html)
		return err
	}
	var buf bytes.Buffer
	if err := write(&buf, code, o); err != nil {
		return err
	}
	cache.Put(key, buf.Bytes())
	_, err := w.Write(buf.Bytes())
	return err
}

func write(w io.Writer, code string, o Options) error {
	lexer := Lexer(o.Lang)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	tokens, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return err
	}
	opts := []chromahtml.Option{
		chromahtml.WithClasses(true),
		chromahtml.TabWidth(4),
		chromahtml.WithPreWrapper(preWrapper(o.Lang)),
	}
	if o.LineNumbers {
		first := o.FirstLine
		if first == 0 {
			first = 1
		}
		opts = append(opts, chromahtml.WithLineNumbers(true), chromahtml.LineNumbersInTable(false), chromahtml.BaseLineNumber(first))
	}
	if len(o.Highlighted) > 0 {
		opts = append(opts, chromahtml.HighlightLines(o.Highlighted))
	}
	if _, err := io.WriteString(w, `<div class="highlight">`); err != nil {
		return err
	}
	if err := chromahtml.New(opts...).Format(w, classesOnly, tokens); err != nil {
		return err
	}
	_, err = io.WriteString(w, `</div>`)
	return err
}

// classesOnly is the style handed to chroma's formatter. With classes the
// markup does not depend on the style, but the formatter still turns the
// whole style into CSS for every block, which was 40% of an unhighlighted
// build; a style without entries makes that free.
var classesOnly = chroma.MustNewStyle("textfrag-classes", chroma.StyleEntries{})

// lexerCache memoizes Lexer by name.
var lexerCache sync.Map // string → chroma.Lexer, nil for none

// Lexer returns chroma's lexer for a name, alias or file extension, or nil.
// lexers.Get answers a lexer name or alias ("go") in microseconds, but
// anything else ("txt", an unknown extension) by matching every lexer's
// file-name globs, which takes 10 to 40 ms; a site repeats its few names, so
// each is looked up once.
func Lexer(name string) chroma.Lexer {
	if name == "" {
		return nil
	}
	if l, ok := lexerCache.Load(name); ok {
		lexer, _ := l.(chroma.Lexer)
		return lexer
	}
	lexer := lexers.Get(name)
	lexerCache.Store(name, lexer)
	return lexer
}

// preWrapper writes <pre tabindex="0" class="chroma"><code class="language-L" data-lang="L">.
type preWrapper string

// Start implements chromahtml.PreWrapper.
func (p preWrapper) Start(code bool, styleAttr string) string {
	pre := fmt.Sprintf(`<pre tabindex="0"%s>`, styleAttr)
	switch {
	case !code:
		return pre
	case p == "":
		return pre + "<code>"
	}
	lang := html.EscapeString(string(p))
	return pre + fmt.Sprintf(`<code class="language-%s" data-lang="%s">`, lang, lang)
}

// End implements chromahtml.PreWrapper.
func (p preWrapper) End(code bool) string {
	if !code {
		return "</pre>"
	}
	return "</code></pre>"
}
