// Command nocgo looks a Python name up with the tree-sitter parsers
// merged over the default set and prints the error, its kind and the
// languages of the set. TestNoCgoMessage builds it with CGO_ENABLED=0.
package main

import (
	"fmt"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter"
)

func main() {
	set := symbol.Default().Merge(treesitter.Parsers())
	src := []byte("def handle(request):\n    return 200\n")
	_, err := set.Find("src/app.py", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "handle"})
	fmt.Println(err)
	fmt.Println("kind", symbol.ErrorKind(err))
	var keys []string
	for _, k := range []string{"c", "cpp", "go", "java", "javascript", "python", "rust", "tsx", "typescript"} {
		if set[k] != nil {
			keys = append(keys, k)
		}
	}
	fmt.Println("languages:", strings.Join(keys, " "))
}
