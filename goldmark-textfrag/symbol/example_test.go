package symbol_test

import (
	"fmt"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// Find gives the lines a name spans as the RFC 5147 fragment that quotes
// them.
func ExampleSet_Find() {
	src := []byte(`package server

// Handle serves one request.
func (s *Server) Handle() {
	// textfrag:begin body
	s.n++
	// textfrag:end body
}
`)
	for _, sel := range []symbol.Selector{
		{Kind: symbol.Symbol, Name: "Server.Handle"},
		{Kind: symbol.Symbol, Name: "Server.Handle", Doc: true},
		{Kind: symbol.Region, Name: "body"},
	} {
		span, err := symbol.Default().Find("src/server.go", "", src, sel)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s → #%s, human %s\n", sel, span.Fragment(), span.Human())
	}
	_, err := symbol.Default().Find("src/server.go", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "Server.handle"})
	fmt.Println(err)
	// Output:
	// sym=Server.Handle → #line=3,8, human 4–8
	// sym=Server.Handle doc → #line=2,8, human 3–8
	// region=body → #line=5,6, human 6
	// sym=Server.handle is not in src/server.go (Go); close names: Server.Handle; fix the name, or quote by lines without sym=
}
