package refs

import (
	"testing"

	"github.com/textfrag/textfrag/internal/pin"
)

// FuzzUnifiedDiff: any input parses without a panic, and a diff of two
// texts, reverse-applied to the new one, gives the old one back.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("a\nb", "a\nb\n")
	f.Add("", "x\n")
	f.Add("one\u0085two\r\nthree\rfour\n", "one\u0085TWO\r\nthree\rfour\n")
	f.Add("--- a\n+++ b\n@@ -1 +1 @@\n", "-- x\n")
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		parseForFuzz([]byte(oldText))
		diff := pin.UnifiedDiff("f", []byte(oldText), []byte(newText))
		if diff == "" {
			return
		}
		files, err := parseUnifiedDiff([]byte(diff))
		if err != nil || len(files) != 1 {
			t.Fatalf("%d files, %v\n%s", len(files), err, diff)
		}
		old, err := files[0].reverse([]byte(newText))
		if err != nil || string(old) != oldText {
			t.Fatalf("reverse: %q, %v; want %q\n%s", old, err, oldText, diff)
		}
	})
}

// parseForFuzz parses data and reverse-applies each file to data
// itself, ignoring errors: only a panic fails.
func parseForFuzz(data []byte) {
	files, err := parseUnifiedDiff(data)
	if err != nil {
		return
	}
	for _, f := range files {
		f.reverse(data)
		f.deletedContent()
	}
}
