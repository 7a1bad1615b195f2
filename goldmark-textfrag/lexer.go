package textfrag

import (
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// lexerCache memoizes lexerFor by name.
var lexerCache sync.Map // string → chroma.Lexer, nil for none

// lexerFor returns chroma's lexer for name, or nil. lexers.Get answers a
// lexer name or alias ("go") in microseconds, but anything else ("txt", an
// unknown extension) by matching every lexer's file-name globs, which takes
// 10 to 40 ms: once per box, that dominated a build of pages quoting .txt
// files. The answer never changes, so it is looked up once per name.
func lexerFor(name string) chroma.Lexer {
	if l, ok := lexerCache.Load(name); ok {
		lexer, _ := l.(chroma.Lexer)
		return lexer
	}
	lexer := lexers.Get(name)
	lexerCache.Store(name, lexer)
	return lexer
}
