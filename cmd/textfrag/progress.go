package main

import (
	"fmt"
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
	p := &progress{e: e, what: what, total: total, done: done, stop: make(chan struct{})}
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
	fmt.Fprintf(p.e.stderr, "\r\033[Ktextfrag: %s %d/%d", p.what, p.done.Load(), p.total)
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
		fmt.Fprint(p.e.stderr, "\r\033[K")
		p.shown = false
	}
}
