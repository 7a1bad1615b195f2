package mdlink

import "bytes"

// FrontMatter finds a page's YAML front matter: a first line "---" (after
// an optional UTF-8 BOM), YAML, and a line "---" or "...". It returns the
// YAML's byte offsets (src[yamlStart:yamlEnd]) and the offset of the body,
// the first byte after the closing line. ok is false when there is no
// front matter: a page whose first "---" is never closed has none (it starts
// with a thematic break).
func FrontMatter(src []byte) (yamlStart, yamlEnd, bodyStart int, ok bool) {
	start := 0
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		start = 3
	}
	first, rest, found := cutLine(src[start:])
	if !found || string(bytes.TrimRight(first, " \t\r")) != "---" {
		return 0, 0, 0, false
	}
	yamlStart = len(src) - len(rest)
	for pos := yamlStart; pos < len(src); {
		line, next, _ := cutLine(src[pos:])
		end := len(src) - len(next)
		if trimmed := string(bytes.TrimRight(line, " \t\r")); trimmed == "---" || trimmed == "..." {
			return yamlStart, pos, end, true
		}
		pos = end
	}
	return 0, 0, 0, false
}

// cutLine returns the first line of b without its LF, and what follows it.
// ok is false when b has no LF.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	line, rest, ok = bytes.Cut(b, []byte("\n"))
	if !ok {
		return b, nil, false
	}
	return line, rest, true
}

// Page returns what pin and check verify in a page, in source order: the
// RFC 5147 links of its Markdown (Find), and its textfrag shortcodes after
// the front matter (Hugo expands none there), those that fail to name a
// path included, and those whose path has no RFC 5147 fragment left out
// (the Hugo module reports them; there is nothing to pin). A shortcode
// written inside a link's destination gets Start -1 and an Err, so that one
// rewrite cannot spoil the other. Markdown links are looked for in the
// whole page, front matter included.
func Page(src []byte) []Link {
	ps := newPositions(src)
	links := find(src, ps)
	nLinks := len(links)
	for _, l := range pageShortcodes(src, ps) {
		if l.Dest != "" && !IsCandidate(l.Dest) {
			continue
		}
		for _, m := range links[:nLinks] {
			if l.Start >= 0 && m.Start >= 0 && l.Start < m.End && m.Start < l.End {
				l.Start, l.End, l.DestLine, l.DestColumn = -1, -1, 0, 0
				l.Err = "the shortcode's path is also part of a Markdown link"
			}
		}
		links = append(links, l)
	}
	sortLinks(links)
	return links
}

// PageShortcodes returns the textfrag shortcodes of a page after its front
// matter (Hugo expands none there), with offsets and positions in src, as
// FindShortcodes does.
func PageShortcodes(src []byte) []Link {
	return pageShortcodes(src, newPositions(src))
}

func pageShortcodes(src []byte, ps *positions) []Link {
	body := 0
	if _, _, end, ok := FrontMatter(src); ok {
		body = end
	}
	return findShortcodes(src, body, ps)
}
