// Package highlight writes code highlighted by chroma with CSS classes, in
// the markup Hugo's transform.Highlight writes, so that textfrag boxes,
// fenced code blocks and Hugo pages share one stylesheet:
//
//	<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-go" data-lang="go">…</code></pre></div>
//
// No inline styles are written, so pages work under a strict
// Content-Security-Policy. WriteCached keeps written blocks in a Cache
// (DirCache between builds, MemoryCache within a process), so that code
// unchanged since it was last written is copied instead of lexed again.
package highlight

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Options say how to write one block. The zero value writes plain text
// without line numbers.
type Options struct {
	// Lang names the chroma lexer and the code element's language class;
	// a name chroma does not know is written as plain text, and so is code
	// over the highlighting budget (OverBudget). "" writes no class.
	Lang string
	// LineNumbers numbers each line, starting at FirstLine (default 1).
	LineNumbers bool
	FirstLine   int
	// Highlighted are line ranges (inclusive, in the numbers shown) to emphasize.
	Highlighted [][2]int
	// Omit are lines (in the numbers shown) left out of the block after
	// the whole code is highlighted, so that the lines around them are
	// highlighted as in the whole, and their numbers show the gap.
	// Default: none.
	Omit []int
}

// Write writes code highlighted, wrapped as the package doc shows. It writes
// nothing and returns an error wrapping ErrTooSlow when the lexer took too
// long (budget.go): the markup it writes is the same on every machine.
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
		return write(w, code, o, Lexer(o.Lang))
	}
	if html, hit := cache.Get(key); hit {
		_, err := w.Write(html)
		return err
	}
	var buf bytes.Buffer
	if err := write(&buf, code, o, LexerCached(o.Lang, cache)); err != nil {
		return err
	}
	cache.Put(key, buf.Bytes())
	_, err := w.Write(buf.Bytes())
	return err
}

// write writes code lexed by lexer (nil: chroma's fallback).
func write(w io.Writer, code string, o Options, lexer chroma.Lexer) error {
	tokens, err := tokenise(lexer, code)
	if err != nil {
		return err
	}
	first := o.FirstLine
	if first == 0 {
		first = 1
	}
	f := formatters.Get().(*chromahtml.Formatter)
	defer formatters.Put(f)
	for _, set := range []chromahtml.Option{
		chromahtml.WithPreWrapper(preWrapper(o.Lang)),
		chromahtml.WithLineNumbers(o.LineNumbers),
		chromahtml.BaseLineNumber(first),
		chromahtml.HighlightLines(o.Highlighted),
	} {
		set(f)
	}
	if len(o.Omit) > 0 {
		var buf bytes.Buffer
		if err := f.Format(&buf, classesOnly, tokens); err != nil {
			return err
		}
		_, err = io.WriteString(w, `<div class="highlight">`+omitLines(buf.String(), first, o.Omit)+`</div>`)
		return err
	}
	if _, err := io.WriteString(w, `<div class="highlight">`); err != nil {
		return err
	}
	if err := f.Format(w, classesOnly, tokens); err != nil {
		return err
	}
	_, err = io.WriteString(w, `</div>`)
	return err
}

// lineStart starts each line chroma's formatter writes (<span class="line">,
// or <span class="line hl"> when emphasized); token text is escaped, so it
// starts nothing else.
const lineStart = `<span class="line`

// omitSteps counts the lines and omitted numbers omitLines has looked at,
// for the test that holds it linear in them (counts, not time).
var omitSteps atomic.Int64

// omitLines removes from a block chroma wrote (its lines numbered from
// first) the lines numbered in omit. A line runs from its lineStart to the
// next one, the last one to the wrapper's end (</code></pre>), which is
// kept. The Hugo module does the same to transform.Highlight's markup.
func omitLines(block string, first int, omit []int) string {
	parts := strings.Split(block, lineStart)
	// One look at each omitted number and each line (omitSteps), not one
	// search of omit a line: time linear in lines + omitted lines.
	skip := make([]bool, len(parts)-1)
	for _, n := range omit {
		if i := n - first; i >= 0 && i < len(skip) {
			skip[i] = true
		}
	}
	omitSteps.Add(int64(len(omit) + len(skip)))
	var b strings.Builder
	b.WriteString(parts[0])
	for i, p := range parts[1:] {
		if !skip[i] {
			b.WriteString(lineStart + p)
			continue
		}
		if i == len(parts)-2 {
			// The last line: keep the wrapper's end after it.
			if k := strings.LastIndex(p, "</code></pre>"); k >= 0 {
				b.WriteString(p[k:])
			} else if k := strings.LastIndex(p, "</pre>"); k >= 0 {
				b.WriteString(p[k:])
			}
		}
	}
	return b.String()
}

// tokenise lexes code, coalescing runs of tokens of one type; a nil lexer
// is chroma's fallback. Code over the budget (budget.go) is plain text.
func tokenise(lexer chroma.Lexer, code string) (chroma.Iterator, error) {
	if lexer == nil {
		lexer = lexers.Fallback
	}
	if isPlainText(lexer) || overBudget(code, lexer) != "" {
		// What chroma's plain-text lexers (".+" and "\n", both Text) and
		// Coalesce make of any code, without a regular expression per line:
		// one Text token, with CR+LF and CR made LF (chroma's EnsureLF, on
		// by default) and each invalid byte U+FFFD (chroma's conversion to
		// runes). TestPlainTextTokens holds the two equal.
		if code == "" {
			return chroma.Literator(), nil
		}
		if strings.IndexByte(code, '\r') >= 0 {
			code = strings.ReplaceAll(strings.ReplaceAll(code, "\r\n", "\n"), "\r", "\n")
		}
		if !utf8.ValidString(code) {
			code = string([]rune(code))
		}
		return chroma.Literator(chroma.Token{Type: chroma.Text, Value: code}), nil
	}
	return lexWatched(lexer, code)
}

// isPlainText reports whether lexer is chroma's fallback or plaintext
// lexer, which make every character Text.
func isPlainText(lexer chroma.Lexer) bool {
	return lexer == lexers.Fallback || lexer == plainText
}

var plainText = lexers.Get("plaintext")

// formatters holds chroma HTML formatters with the options every block
// shares; write sets the rest on one before each block. A new formatter per
// block would rebuild its style map (every token type's CSS) each time,
// which was a third of an unhighlighted build.
var formatters = sync.Pool{New: func() any {
	return chromahtml.New(chromahtml.WithClasses(true), chromahtml.TabWidth(4), chromahtml.LineNumbersInTable(false))
}}

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

// LexerCached is Lexer with its answer also kept in cache (nil: none), as
// the lexer's own name, so that a later process finds the lexer for "txt"
// by that name in microseconds instead of matching globs for 10 ms or more.
// The answer is the same as Lexer's.
func LexerCached(name string, cache Cache) chroma.Lexer {
	if cache == nil || name == "" {
		return Lexer(name)
	}
	if l, ok := lexerCache.Load(name); ok {
		lexer, _ := l.(chroma.Lexer)
		return lexer
	}
	key, ok := lexerKey(name)
	if !ok {
		return Lexer(name)
	}
	if found, hit := cache.Get(key); hit {
		var lexer chroma.Lexer
		if len(found) > 0 {
			lexer = lexers.Get(string(found))
		}
		if len(found) == 0 || (lexer != nil && lexer.Config().Name == string(found)) {
			lexerCache.Store(name, lexer)
			return lexer
		}
	}
	lexer := Lexer(name)
	found := ""
	if lexer != nil {
		found = lexer.Config().Name
	}
	cache.Put(key, []byte(found))
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
