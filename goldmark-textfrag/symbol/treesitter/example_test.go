//go:build cgo

package treesitter_test

import (
	"fmt"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter"
)

// Look a Rust method up by name: the lines it spans are the link's
// #line= fragment. With the goldmark extension, register the parsers with
// textfrag.WithSymbols(treesitter.Parsers()).
func ExampleParsers() {
	src := []byte(`pub struct Counter {
    n: u64,
}

impl Counter {
    /// Adds one.
    #[inline]
    pub fn bump(&mut self) {
        self.n += 1;
    }
}
`)
	set := symbol.Default().Merge(treesitter.Parsers())
	span, err := set.Find("src/lib.rs", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "Counter::bump"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(span.Fragment(), span.Human(), span.Kind)

	_, err = set.Find("src/lib.rs", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "Counter.bmp"})
	fmt.Println(err)
	// Output:
	// line=6,10 7–10 method
	// sym=Counter.bmp is not in src/lib.rs (Rust); close names: Counter.bump; fix the name, or quote by lines without sym=
}
