package pin

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// rewriteDest returns dest with its fragment changed: the positions part
// ("line=10,20") replaced by positions unless that is "", the value of the
// i-th integrity check replaced by values[i] (its name and ",charset" kept as
// written), and ";md5=addMD5" appended unless that is "". Everything else
// stays as written. The fragment must have parsed.
func rewriteDest(dest, positions string, values map[int]string, addMD5 string) string {
	hash := strings.IndexByte(dest, '#')
	// Parse accepted the fragment, so ';' only separates its parts.
	parts := strings.Split(dest[hash+1:], ";")
	if positions != "" {
		parts[0] = positions
	}
	for i, v := range values {
		name, rest, _ := strings.Cut(parts[i+1], "=")
		part := name + "=" + v
		if _, cs, ok := strings.Cut(rest, ","); ok {
			part += "," + cs
		}
		parts[i+1] = part
	}
	out := dest[:hash+1] + strings.Join(parts, ";")
	if addMD5 != "" {
		out += ";md5=" + addMD5
	}
	return out
}

// positionsText writes a fragment's positions part in form, or returns ""
// when the numbers are those already written (so the text is kept as is,
// leading zeros and all).
func positionsText(f rfc5147.Fragment, start, end int64) string {
	s, e := strconv.FormatInt(start, 10), strconv.FormatInt(end, 10)
	name := f.Scheme.String() + "="
	switch f.Form {
	case rfc5147.Position:
		if start == f.Start {
			return ""
		}
		return name + s
	case rfc5147.FromStart:
		if end == f.End {
			return ""
		}
		return name + "," + e
	case rfc5147.ToEnd:
		if start == f.Start {
			return ""
		}
		return name + s + ","
	}
	if start == f.Start && end == f.End {
		return ""
	}
	return name + s + "," + e
}

// Edit replaces src[Start:End] with Text.
type Edit struct {
	Start, End int
	Text       string
}

// ApplyEdits returns src with non-overlapping edits applied.
func ApplyEdits(src []byte, edits []Edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(src[at:e.Start])
		out.WriteString(e.Text)
		at = e.End
	}
	out.Write(src[at:])
	return out.Bytes()
}

// describeChecks lists a fragment's checks of one kind as written in
// canonical form, for messages: "md5=…" or "md5=…, md5=…,latin1".
func describeChecks(f rfc5147.Fragment, kind rfc5147.CheckKind) string {
	var parts []string
	for _, c := range f.Checks {
		if c.Kind == kind {
			parts = append(parts, c.String())
		}
	}
	return strings.Join(parts, ", ")
}

// AddMD5 returns the destination dest, whose fragment must parse, with
// ";md5=sum" appended: what pin writes for an unpinned link.
func AddMD5(dest, sum string) string { return rewriteDest(dest, "", nil, sum) }
