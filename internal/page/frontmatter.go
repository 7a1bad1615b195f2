package page

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/internal/mdlink"
)

// frontMatterError is front matter that is not a YAML mapping.
type frontMatterError struct {
	line int // 1-based line of the page where the front matter starts
	err  error
}

// problem reports the error as a Problem of the page name.
func (e *frontMatterError) problem(name string) *textfrag.Problem {
	return &textfrag.Problem{
		Severity: textfrag.Error, Document: name, Line: e.line, Column: 1,
		Link: "---", Kind: "frontmatter",
		Message: fmt.Sprintf("front matter (YAML from line %d): %v; write YAML key: value lines between two lines of ---", e.line+1, e.err),
		Err:     e.err,
	}
}

// SplitFrontMatter separates YAML front matter from a page: a first line
// "---" (after an optional UTF-8 BOM), YAML, and a line "---" or "...". It
// returns the front matter (nil when there is none) and the Markdown with
// the front matter's lines left empty, so that line numbers in messages
// still match the file. A page whose first "---" is never closed has no
// front matter (it starts with a thematic break).
func SplitFrontMatter(src []byte) (map[string]any, []byte, *frontMatterError) {
	yamlStart, yamlEnd, end, ok := mdlink.FrontMatter(src)
	if !ok {
		return nil, src, nil
	}
	body := make([]byte, 0, len(src))
	body = append(body, bytes.Repeat([]byte("\n"), bytes.Count(src[:end], []byte("\n")))...)
	body = append(body, src[end:]...)
	front := map[string]any{}
	if err := unmarshalYAML(src[yamlStart:yamlEnd], &front); err != nil {
		return nil, body, &frontMatterError{line: 1, err: err}
	}
	return front, body, nil
}

// unmarshalYAML decodes YAML, turning a panic of the decoder on hostile
// input into an error.
func unmarshalYAML(b []byte, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(b, v)
}
