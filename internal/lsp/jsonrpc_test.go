package lsp

import (
	"io"
	"strings"
	"testing"
)

// The base protocol's framing: headers in any letter case, other headers
// ignored; a missing or malformed length, an oversized body and a stream
// cut short are errors, never a panic or an unbounded allocation.
func TestConnRead(t *testing.T) {
	for _, c := range []struct{ in, body, err string }{
		{"Content-Length: 2\r\n\r\n{}", "{}", ""},
		{"content-length:2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}", "{}", ""},
		{"Content-Length: 2\n\n{}", "{}", ""},
		{"", "", "EOF"},
		{"Content-Type: x\r\n\r\n{}", "", "no Content-Length"},
		{"Content-Length: -1\r\n\r\n", "", "malformed Content-Length"},
		{"Content-Length: 99999999999\r\n\r\n", "", "larger than the limit"},
		{"Content-Length: 10\r\n\r\n{}", "", "reading a message body"},
		{"garbage\r\n\r\n", "", "malformed message header"},
		{"Content-Length: 2\r\n" + strings.Repeat("x", 9000) + "\r\n\r\n{}", "", "longer than 1 KiB"},
	} {
		body, err := newConn(strings.NewReader(c.in), io.Discard).read()
		switch {
		case c.err == "" && (err != nil || string(body) != c.body):
			t.Errorf("%q: %q, %v; want %q", c.in, body, err, c.body)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one saying %q", c.in, err, c.err)
		}
	}
}
