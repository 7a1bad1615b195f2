package migrate

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// Foreign returns a warning for each include of another tool in a page
// (name as messages show it, src its bytes): textfrag does not read them,
// so what they quote is not checked, and "textfrag migrate" converts them.
// A page with none costs one search for a few words. An include shown
// among other lines of a code block, or in a Markdown code block, is taken
// for an example of the syntax and not warned about (migrate lists it).
func Foreign(name string, src []byte) []*textfrag.Problem {
	if !mayIncludeBytes(src) || !utf8.Valid(src) {
		return nil
	}
	var out []*textfrag.Problem
	lines := newLines(src)
	for _, inc := range scanPage(lines) {
		if inc.example {
			continue
		}
		l, _ := lines.text(inc.first)
		col := utf8.RuneCountInString(indentOf(l)) + 1
		out = append(out, &textfrag.Problem{
			Severity: textfrag.Warning, Document: name, Line: inc.first + 1, Column: col,
			Link: inc.written, Kind: "foreign",
			Message: fmt.Sprintf("%s include: textfrag does not read it, so nothing checks what it quotes; run `textfrag migrate %s` to see it converted into a pinned link, and `textfrag migrate --write %s` to convert it", inc.dialect, name, name),
		})
	}
	return out
}

// mayIncludeBytes is mayInclude without copying the page.
func mayIncludeBytes(src []byte) bool {
	for _, w := range scanWords {
		if bytes.Contains(src, []byte(w)) {
			return true
		}
	}
	return false
}
