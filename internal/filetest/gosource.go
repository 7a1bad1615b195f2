package filetest

import (
	"fmt"
	"strings"
)

// GoSourceBlock is the number of lines GoSource writes per type.
const GoSourceBlock = 25

// GoSource returns gofmt-formatted Go source of at least lines lines (a
// two-line header, then whole blocks of GoSourceBlock lines), for benchmarks of
// symbol lookups: block i declares type Ti with fields Name and count,
// func NewTi, method Ti.Count, and const limitI, each with a doc comment,
// and marks NewTi's body as region newI.
func GoSource(lines int) []byte {
	var b strings.Builder
	b.WriteString("package gen\n\n")
	for i := 0; i == 0 || 2+i*GoSourceBlock < lines; i++ {
		fmt.Fprintf(&b, `// T%[1]d holds item %[1]d.
type T%[1]d struct {
	// Name is the name.
	Name  string
	count int
}

// NewT%[1]d returns a T%[1]d.
func NewT%[1]d(name string) *T%[1]d {
	// textfrag:begin new%[1]d
	t := &T%[1]d{Name: name}
	t.count = %[1]d
	// textfrag:end new%[1]d
	return t
}

// Count returns the count.
func (t *T%[1]d) Count() int {
	if t == nil {
		return 0
	}
	return t.count
}

const limit%[1]d = %[1]d * 2
`, i)
	}
	return []byte(b.String())
}
