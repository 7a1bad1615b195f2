package rfc5147

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// Charset is a character encoding known by its IANA name.
type Charset struct {
	// Name is the IANA preferred name, such as "UTF-8" or "ISO_8859-1:1987".
	Name string
	enc  encoding.Encoding
}

// UTF8 is the charset of local files unless configured otherwise.
var UTF8 = Charset{Name: "UTF-8", enc: unicode.UTF8}

var (
	utf16LE = Charset{Name: "UTF-16LE", enc: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)}
	utf16BE = Charset{Name: "UTF-16BE", enc: unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)}
)

// ErrUnknownCharset is matched by LookupCharset's error for a name that is
// not an IANA charset name or alias that golang.org/x/text supports.
var ErrUnknownCharset = errors.New("unknown charset")

// LookupCharset finds a charset by IANA name or alias, ignoring case
// ("utf-8", "latin1", "csUTF8").
func LookupCharset(name string) (Charset, error) {
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return Charset{}, fmt.Errorf("%w %q", ErrUnknownCharset, name)
	}
	canonical, err := ianaindex.IANA.Name(enc)
	if err != nil {
		return Charset{}, fmt.Errorf("%w %q", ErrUnknownCharset, name)
	}
	return Charset{Name: canonical, enc: enc}, nil
}

// IsUTF8 reports whether c is UTF-8.
func (c Charset) IsUTF8() bool { return c.Name == "" || c.Name == UTF8.Name }

// names reports whether a charset named in an integrity check is this
// entity's own charset. "UTF-16" (byte order from the BOM) names both
// UTF-16 byte orders.
func (c Charset) names(other Charset) bool {
	if c.Name == other.Name || (c.IsUTF8() && other.IsUTF8()) {
		return true
	}
	return other.Name == "UTF-16" && strings.HasPrefix(c.Name, "UTF-16")
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// sniff returns the charset that raw is stored in and the length of its BOM.
// A UTF-16 BOM overrides the configured charset; a UTF-8 BOM is skipped only
// when the charset is UTF-8.
func sniff(raw []byte, configured Charset) (Charset, int) {
	switch {
	case bytes.HasPrefix(raw, bomUTF16LE):
		return utf16LE, 2
	case bytes.HasPrefix(raw, bomUTF16BE):
		return utf16BE, 2
	case configured.IsUTF8() && bytes.HasPrefix(raw, bomUTF8):
		return UTF8, 3
	}
	if configured.enc == nil {
		return UTF8, 0
	}
	return configured, 0
}

// decode returns the text of body (stored without BOM) as UTF-8. Bytes that
// are not valid in cs are an error: x/text decoders substitute U+FFFD, so
// where one appears the text must encode back to exactly body.
func decode(body []byte, cs Charset) ([]byte, error) {
	if cs.IsUTF8() {
		return body, nil // validated while scanning
	}
	text, err := cs.enc.NewDecoder().Bytes(body)
	if err != nil {
		return nil, &TextError{Msg: fmt.Sprintf("not valid %s text: %v", cs.Name, err)}
	}
	if bytes.ContainsRune(text, utf8.RuneError) {
		back, err := cs.enc.NewEncoder().Bytes(text)
		if err != nil || !bytes.Equal(back, body) {
			return nil, &TextError{Msg: fmt.Sprintf("bytes that are not valid %s text", cs.Name)}
		}
	}
	return text, nil
}

// encode transcodes UTF-8 text into cs; an unrepresentable character is an error.
func encode(text []byte, cs Charset) ([]byte, error) {
	if cs.IsUTF8() {
		return text, nil
	}
	return cs.enc.NewEncoder().Bytes(text)
}

func formatTextError(what string, at int64, p Point) string {
	return fmt.Sprintf("not text: %s at byte %d (line %d, column %d)", what, at, p.Line, p.Column)
}
