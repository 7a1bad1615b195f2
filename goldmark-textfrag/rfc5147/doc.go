// Package rfc5147 parses RFC 5147 text fragment identifiers and applies them
// to text. It does no I/O: callers hand it bytes or an io.Reader.
//
//	f, err := rfc5147.Parse("line=10,20;md5=…")     // grammar of RFC 5147 §3
//	t, err := rfc5147.NewText(raw, rfc5147.UTF8)     // decode, hash, count once
//	sel, err := t.Select(f)                          // lines 11–20, checks verified
//
// Counting follows the project's conformance profile: a character is a code
// point; CR+LF, CR+NEL, LF, CR and NEL each count as one character and end a
// line; a leading BOM is not a character; positions run from 0 to the size
// and larger numbers clamp to the end (Selection.Clamped). A range whose
// written start exceeds its end is rejected by Parse (ErrMisordered).
//
// Data flow:
//
//	raw bytes ──md5──────────────────────────▶ Facts.MD5
//	    └─ BOM/charset (x/text) ─▶ UTF-8 text ─▶ scanner ─▶ Selection, Facts.Length
//	                                                 └─ checks in other charsets: transcode (x/text)
//
// NewText keeps a decoded file in memory for many selections; SelectReader
// streams a large file once, hashing on a second goroutine, in memory bounded
// by the selection.
package rfc5147
