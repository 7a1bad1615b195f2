package target

import "github.com/textfrag/textfrag/goldmark-textfrag/symbol"

// SymbolSet returns the parsers the Resolver looks names up with
// (Options.Symbols merged over symbol.Default()): what pin parses an old
// version of a file with, to tell whether a quote stayed in its
// declaration.
func (r *Resolver) SymbolSet() symbol.Set { return r.symbols }
