package textfrag_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// slowLexer is chroma's Go lexer taking at least highlight.StepLimit for
// every token, registered for files named *.tfslow: what the highlighting
// safety net stops, on any machine.
type slowLexer struct{ chroma.Lexer }

func (slowLexer) Config() *chroma.Config {
	return &chroma.Config{Name: "textfrag test slow", Aliases: []string{"tfslow"}}
}

func (s slowLexer) Tokenise(o *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	it, err := s.Lexer.Tokenise(o, text)
	if err != nil {
		return nil, err
	}
	return func() chroma.Token {
		time.Sleep(highlight.StepLimit)
		return it()
	}, nil
}

var registerSlow = sync.OnceFunc(func() { lexers.Register(slowLexer{lexers.Get("go")}) })

// A box whose lexing the safety net stops fails the conversion at its link,
// saying what to do, and nothing of it is written.
func TestTooSlowHighlightingFailsAtTheLink(t *testing.T) {
	registerSlow()
	root := writeProject(t, map[string]string{"a.tfslow": "package a\n"})
	out, _, err := convertIn(root, "# Page\n\ntext\n\n[A](a.tfslow#line=0,1)\n")
	var p *textfrag.Problem
	if !errors.As(err, &p) || !errors.Is(err, highlight.ErrTooSlow) {
		t.Fatalf("err = %v, want a Problem wrapping highlight.ErrTooSlow", err)
	}
	if want := "doc.md:5:1: error: a.tfslow#line=0,1: highlighting took too long: a step of chroma's textfrag test slow lexer took 100ms or more, twice"; p.Kind != "highlight" || !strings.HasPrefix(p.Error(), want) || !strings.HasSuffix(p.Message, "add lang=text to the link's title to show the quote as plain text, or quote fewer lines") {
		t.Errorf("problem %q (%s), want it to start %q and give the remedy", p, p.Kind, want)
	}
	if strings.Contains(out, `class="chroma"`) {
		t.Errorf("a part of the box was written: %s", out)
	}
	// The remedy works.
	if _, _, err := convertIn(root, "[A](a.tfslow#line=0,1 \"lang=text\")\n"); err != nil {
		t.Errorf("with lang=text: %v", err)
	}
}
