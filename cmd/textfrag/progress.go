package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is shown for long builds only: more than progressPages pages, or
// longer than progressDelay.
const (
	progressPages = 50
	progressDelay = time.Second
)

// progressInterval is how often the line is redrawn (a variable for tests).
var progressInterval = 100 * time.Millisecond

// progress keeps a "textfrag: building 120/400" line up to date on a
// terminal (build, check, pin, refs).
// It writes nothing when stderr is not a terminal, so logs and pipes stay
// clean.
type progress struct {
	e     *env
	out   io.Writer // stderr when the progress started
	what  string
	total int
	done  *atomic.Int64

	stop    chan struct{}
	stopped sync.WaitGroup
	mu      sync.Mutex // held while the line is written or cleared
	shown   bool       // the line is on the terminal now
}

// startProgress starts reporting done out of total. Call finish when done.
func (e *env) startProgress(what string, total int, done *atomic.Int64) *progress {
	p := &progress{e: e, out: e.stderr, what: what, total: total, done: done, stop: make(chan struct{})}
	if !e.stderrIsTTY {
		return p
	}
	start := time.Now()
	// A long run shows its line at once, not only at the first tick, which
	// a fast machine may finish before.
	if p.total > progressPages {
		p.draw()
	}
	p.stopped.Go(func() {
		tick := time.NewTicker(progressInterval)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
				if p.total > progressPages || time.Since(start) > progressDelay {
					p.draw()
				}
			}
		}
	})
	return p
}

// draw writes the line as it is now.
func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.shown = true
	fmt.Fprintf(p.out, "\r\033[Ktextfrag: %s %d/%d", p.what, p.done.Load(), p.total)
}

// finish stops reporting and clears the line.
func (p *progress) finish() {
	close(p.stop)
	p.stopped.Wait()
	p.clear()
}

// clear takes the line off the terminal until the next redraw: call it
// before writing anything else there (pin's diff on stdout), or that
// would start on the progress line.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.out, "\r\033[K")
		p.shown = false
	}
}

// writer returns a writer to stderr that takes the line off the terminal
// before each write, under the lock the redraws take, so that messages
// written while the line is shown (pin's, as it goes) start on a line of
// their own and are never cut by a redraw.
func (p *progress) writer() io.Writer {
	if !p.e.stderrIsTTY {
		return p.out
	}
	return progressWriter{p}
}

type progressWriter struct{ p *progress }

func (w progressWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	if w.p.shown {
		fmt.Fprint(w.p.out, "\r\033[K")
		w.p.shown = false
	}
	return w.p.out.Write(b)
}
