package symbol

import "bytes"

// IsMarkerLine reports whether line, a line's characters without its line
// ending, is a region marker line of any name (MarkerPattern). Boxes leave
// such lines out of what they show, as mdBook, Asciidoctor and
// pymdownx.snippets leave out their own markers.
func IsMarkerLine(line []byte) bool {
	return bytes.Contains(line, markerWord) && markerRE.Match(line)
}
