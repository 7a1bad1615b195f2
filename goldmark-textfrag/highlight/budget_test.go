package highlight

import (
	"errors"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
)

// plainMarkup is the markup of code written as plain text in lang, one line
// without a final newline, numbered from 1: what a language chroma does not
// know gets.
func plainMarkup(lang, line string) string {
	return `<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-` + lang + `" data-lang="` + lang + `">` +
		`<span class="line"><span class="ln">1</span><span class="cl">` + html.EscapeString(line) + "\n" + `</span></span></code></pre></div>`
}

// The two inputs of issue 11 that took minutes are written as plain text,
// decided by their shape: the same on every machine, whatever its speed.
func TestHostileLinesArePlainText(t *testing.T) {
	for _, c := range []struct {
		lang, code string
	}{
		{"perl", hostilePerl(60000)},
		{"php", hostilePHP(40000)},
	} {
		why := OverBudget(c.code, c.lang)
		if !strings.Contains(why, "line 1 of the block is") || !strings.Contains(why, "shown as plain text") {
			t.Errorf("%s: OverBudget = %q, want line 1 too long", c.lang, why)
		}
		var b strings.Builder
		if err := Write(&b, c.code, Options{Lang: c.lang, LineNumbers: true}); err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		if want := plainMarkup(c.lang, strings.TrimSuffix(c.code, "\n")); b.String() != want {
			t.Errorf("%s: not written as plain text: %.300s…", c.lang, b.String())
		}
	}
}

func TestOverBudgetShape(t *testing.T) {
	long := strings.Repeat("x", MaxLineBytes)
	for _, c := range []struct {
		name, code, lang string
		over             bool
	}{
		{"line at the limit", long + "\n", "go", false},
		{"line at the limit, no newline", "a\n" + long, "go", false},
		{"line over the limit", "a\n" + long + "x\n", "go", true},
		{"last line over the limit, no newline", "a\n" + long + "x", "go", true},
		{"CR+LF ends lines", long + "\r\n" + long + "\r\n", "go", false},
		{"CR alone ends lines", long + "\r" + long + "\r", "go", false},
		{"block over the limit, short lines", strings.Repeat("x = 1\n", MaxBlockBytes/6+1), "python", true},
		{"block at the limit", strings.Repeat("x", MaxLineBytes-1) + "\n" + strings.Repeat(strings.Repeat("y", MaxLineBytes-1)+"\n", MaxBlockBytes/MaxLineBytes-1) + strings.Repeat("z", MaxBlockBytes%MaxLineBytes), "python", false},
		{"plain text is never over", long + "x\n", "text", false},
		{"unknown language is never over", long + "x\n", "nosuchlang", false},
		{"no language is never over", long + "x\n", "", false},
	} {
		why := OverBudget(c.code, c.lang)
		if (why != "") != c.over {
			t.Errorf("%s (%d bytes): OverBudget = %q, want over %v", c.name, len(c.code), why, c.over)
		}
	}
	if why := OverBudget("ok\n"+long+"xy\n", "go"); !strings.Contains(why, "line 2 of the block is 1002 bytes long, more than the 1000 bytes chroma's Go lexer is given") {
		t.Errorf("reason %q: want the line, its length, the limit and the lexer", why)
	}
	// A block at the limit of bytes is right at it.
	if n := len(strings.Repeat("x", MaxLineBytes-1) + "\n" + strings.Repeat(strings.Repeat("y", MaxLineBytes-1)+"\n", MaxBlockBytes/MaxLineBytes-1) + strings.Repeat("z", MaxBlockBytes%MaxLineBytes)); n != MaxBlockBytes {
		t.Fatalf("the block at the limit has %d bytes", n)
	}
}

// fakeClock replaces the safety net's clock and time limit for one test:
// each reading of the clock advances it by step().
func fakeClock(t *testing.T, limit time.Duration, step func() time.Duration) {
	t.Helper()
	oldNow, oldLimit := now, blockTimeLimit
	t.Cleanup(func() { now, blockTimeLimit = oldNow, oldLimit })
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now = func() time.Time {
		clock = clock.Add(step())
		return clock
	}
	blockTimeLimit = func(int) time.Duration { return limit }
}

const goCode = "package a\n\n// F is one.\nfunc F() int { return 1 }\n"

// Every step slow, on both tries: the block fails with ErrTooSlow and
// nothing is written or cached, rather than tokens that could differ from
// another machine's.
func TestSafetyNetFailsSlowSteps(t *testing.T) {
	fakeClock(t, time.Hour, func() time.Duration { return StepLimit })
	cache := &countingCache{Cache: MemoryCache()}
	var b strings.Builder
	err := WriteCached(&b, goCode, Options{Lang: "go"}, cache)
	if !errors.Is(err, ErrTooSlow) || !strings.Contains(err.Error(), "a step of chroma's Go lexer took 100ms or more, twice") {
		t.Fatalf("err = %v, want ErrTooSlow for slow steps", err)
	}
	if b.Len() != 0 || cache.puts != 0 {
		t.Errorf("wrote %q and cached %d blocks, want nothing", b.String(), cache.puts)
	}
}

// One slow step on the first try only (a machine busy for a moment): the
// block is lexed again, and written as it is without any slow step.
func TestSafetyNetRetriesOnce(t *testing.T) {
	var want strings.Builder
	if err := Write(&want, goCode, Options{Lang: "go"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want.String(), `<span class="kd">func</span>`) {
		t.Fatalf("not highlighted: %s", want.String())
	}
	readings := 0
	fakeClock(t, time.Hour, func() time.Duration {
		readings++
		if readings == 5 { // the end of the second step of the first try (reading 1 starts the clock)
			return StepLimit
		}
		return time.Microsecond
	})
	var got strings.Builder
	if err := Write(&got, goCode, Options{Lang: "go"}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("after a retry:\n%s\nwant\n%s", got.String(), want.String())
	}
	if readings < 8 {
		t.Errorf("the clock was read %d times: the block was not lexed again", readings)
	}
}

// Past the block's time limit, lexing stops (the build does not wait for
// it) and the block fails.
func TestSafetyNetStopsAtTheDeadline(t *testing.T) {
	readings := 0
	fakeClock(t, 10*time.Millisecond, func() time.Duration { readings++; return time.Millisecond })
	code := strings.Repeat(goCode, 50)
	err := Write(new(strings.Builder), code, Options{Lang: "go"})
	if !errors.Is(err, ErrTooSlow) || !strings.Contains(err.Error(), "was stopped after") {
		t.Fatalf("err = %v, want ErrTooSlow past the deadline", err)
	}
	if readings > 20 {
		t.Errorf("the clock was read %d times: lexing went on past the deadline", readings)
	}
}

// The safety net only watches: tokens lexed under it are chroma's own.
func TestWatchedTokensAreChromas(t *testing.T) {
	code := "package a\n\nimport \"fmt\"\n\n/* a\ncomment */\nfunc F(s string) { fmt.Println(s + \"é\") }\n"
	for _, lang := range []string{"go", "python", "html", "php"} {
		lexer := Lexer(lang)
		got, err := tokenise(lexer, code)
		if err != nil {
			t.Fatal(err)
		}
		want, err := chroma.Coalesce(lexer).Tokenise(nil, code)
		if err != nil {
			t.Fatal(err)
		}
		g, w := got.Tokens(), want.Tokens()
		if len(g) != len(w) {
			t.Fatalf("%s: %d tokens, chroma makes %d", lang, len(g), len(w))
		}
		for i := range g {
			if g[i] != w[i] {
				t.Fatalf("%s: token %d is %v, chroma makes %v", lang, i, g[i], w[i])
			}
		}
	}
}

// A block over the budget is cached as the plain text it was written as,
// and served so.
func TestOverBudgetCached(t *testing.T) {
	code := hostilePerl(2 * MaxLineBytes)
	want := plainMarkup("perl", strings.TrimSuffix(code, "\n"))
	cache := &countingCache{Cache: MemoryCache()}
	for i := range 2 {
		var b strings.Builder
		if err := WriteCached(&b, code, Options{Lang: "perl", LineNumbers: true}, cache); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("write %d: %.200s…", i+1, b.String())
		}
	}
	if cache.puts != 1 || cache.hits != 1 {
		t.Errorf("puts %d hits %d, want 1 and 1", cache.puts, cache.hits)
	}
}
