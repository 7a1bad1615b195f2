package rfc5147

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"
	"testing/iotest"
)

// chunkReader returns 1 to 7 bytes per Read, in a fixed cycle, so that a
// reader that does not fill its buffer in one call is exercised.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	c.n = c.n%7 + 1
	k := min(c.n, len(p), len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

// streamSmall runs the streaming selector with buffers of bufSize bytes, so
// that buffer boundaries fall everywhere, including inside CR+LF pairs and
// multi-byte characters. Only for UTF-8 entities. Small entities are read
// one byte per Read.
func streamSmall(raw []byte, f Fragment, bufSize int) (*Selection, error) {
	_, bom := sniff(raw, UTF8)
	var r io.Reader = bytes.NewReader(raw)
	if len(raw) < 4096 {
		r = iotest.OneByteReader(r)
	}
	return selectStream(r, bom, f, bufSize)
}

// selectAll applies f to raw (UTF-8 unless it has a UTF-16 BOM) in every
// way the package offers, checks that they all agree, and returns the
// in-memory result.
func selectAll(t testing.TB, raw []byte, f Fragment) (*Selection, error) {
	t.Helper()
	want, wantErr := selectText(raw, UTF8, f)
	type way struct {
		name string
		run  func() (*Selection, error)
	}
	ways := []way{
		{"SelectReader", func() (*Selection, error) { return SelectReader(bytes.NewReader(raw), f) }},
		{"SelectReader/OneByteReader", func() (*Selection, error) {
			return SelectReader(iotest.OneByteReader(bytes.NewReader(raw)), f)
		}},
		{"SelectReader/chunkReader", func() (*Selection, error) { return SelectReader(&chunkReader{data: raw}, f) }},
	}
	if cs, _ := sniff(raw, UTF8); cs.IsUTF8() {
		for _, n := range []int{1, 2, 3, 5, 7} {
			ways = append(ways, way{fmt.Sprintf("selectStream/buf%d", n), func() (*Selection, error) { return streamSmall(raw, f, n) }})
		}
	}
	for _, w := range ways {
		got, err := w.run()
		if d := diffOutcome(want, wantErr, got, err); d != "" {
			t.Errorf("%s on %q#%s differs from Text.Select: %s", w.name, abbrev(raw), f.String(), d)
		}
	}
	return want, wantErr
}

// selectText is NewText and Select in one.
func selectText(raw []byte, cs Charset, f Fragment) (*Selection, error) {
	tx, err := NewText(raw, cs)
	if err != nil {
		return nil, err
	}
	return tx.Select(f)
}

// diffOutcome describes how two (selection, error) outcomes differ, or "".
func diffOutcome(a *Selection, aErr error, b *Selection, bErr error) string {
	switch {
	case (aErr == nil) != (bErr == nil):
		return fmt.Sprintf("error %v vs %v", aErr, bErr)
	case aErr != nil && aErr.Error() != bErr.Error():
		return fmt.Sprintf("error %q vs %q", aErr, bErr)
	case aErr != nil && errors.Is(aErr, ErrNotText) != errors.Is(bErr, ErrNotText):
		return fmt.Sprintf("ErrNotText: %v vs %v", aErr, bErr)
	case aErr != nil && errors.Is(aErr, ErrIntegrity) != errors.Is(bErr, ErrIntegrity):
		return fmt.Sprintf("ErrIntegrity: %v vs %v", aErr, bErr)
	case (a == nil) != (b == nil):
		return fmt.Sprintf("selection %v vs %v", a != nil, b != nil)
	case a == nil:
		return ""
	}
	return diffSelection(a, b)
}

func diffSelection(a, b *Selection) string {
	var d []string
	add := func(name string, x, y any) {
		if !reflect.DeepEqual(x, y) {
			d = append(d, fmt.Sprintf("%s %v vs %v", name, x, y))
		}
	}
	if !bytes.Equal(a.Text, b.Text) {
		d = append(d, fmt.Sprintf("Text %q vs %q", abbrev(a.Text), abbrev(b.Text)))
	}
	add("Fragment", a.Fragment, b.Fragment)
	add("Chars", a.Chars, b.Chars)
	add("Lines", a.Lines, b.Lines)
	add("Bytes", a.Bytes, b.Bytes)
	add("First", a.First, b.First)
	add("Last", a.Last, b.Last)
	add("Clamped", a.Clamped, b.Clamped)
	add("AtEnd", a.AtEnd, b.AtEnd)
	add("TotalLines", a.TotalLines, b.TotalLines)
	add("Entity.Charset", a.Entity.Charset.Name, b.Entity.Charset.Name)
	add("Entity.Length", a.Entity.Length, b.Entity.Length)
	add("Entity.MD5", a.Entity.MD5Hex(), b.Entity.MD5Hex())
	add("Label", a.Label(), b.Label())
	if len(a.Checks) != len(b.Checks) {
		d = append(d, fmt.Sprintf("%d checks vs %d", len(a.Checks), len(b.Checks)))
	} else {
		for i := range a.Checks {
			x, y := a.Checks[i], b.Checks[i]
			add(fmt.Sprintf("Checks[%d]", i), [3]string{x.Status.String(), x.Got, x.Reason}, [3]string{y.Status.String(), y.Got, y.Reason})
		}
	}
	if len(d) == 0 {
		return ""
	}
	return fmt.Sprint(d)
}

func abbrev(b []byte) string {
	if len(b) > 60 {
		return string(b[:30]) + "…" + string(b[len(b)-30:])
	}
	return string(b)
}

func mustParse(t testing.TB, s string) Fragment {
	t.Helper()
	f, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return f
}
