//go:build !cgo

package treesitter

import "github.com/textfrag/textfrag/goldmark-textfrag/symbol"

// Parsers returns, in a program built without cgo, a parser for each
// language of this package that fails with symbol.ErrUnsupported: the
// tree-sitter grammars are C code, and a link with sym= in these languages
// must fail rather than go unchecked.
func Parsers() symbol.Set {
	set := make(symbol.Set, len(languages))
	for _, l := range languages {
		set[l.key] = noCgo{l.name}
	}
	return set
}

// noCgo stands for a parser left out of a build without cgo. Its error
// wraps symbol.ErrUnsupported; symbol.Set.Find reports it as a *symbol.Error
// for a language without a parser, with NoCgoReason.
type noCgo struct{ name string }

func (p noCgo) Language() string { return p.name }

func (p noCgo) Decls([]byte) ([]symbol.Decl, error) {
	return nil, symbol.Unsupported(NoCgoReason)
}
