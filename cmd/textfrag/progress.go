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

// progress keeps a "building: 120/400 pages" line up to date on a terminal.
// It writes nothing when stderr is not a terminal, so logs and pipes stay
// clean.
type progress struct {
	e     *env
	what  string
	total int
	done  *atomic.Int64

	stop    chan struct{}
	stopped sync.WaitGroup
	shown   bool
}

// startProgress starts reporting done out of total. Call finish when done.
func (e *env) startProgress(what string, total int, done *atomic.Int64) *progress {
	p := &progress{e: e, what: what, total: total, done: done, stop: make(chan struct{})}
	if !e.stderrIsTTY {
		return p
	}
	start := time.Now()
	p.stopped.Go(func() {
		tick := time.NewTicker(progressInterval)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
				if p.total > progressPages || time.Since(start) > progressDelay {
					p.shown = true
					fmt.Fprintf(p.e.stderr, "\r\033[Ktextfrag: %s %d/%d", p.what, p.done.Load(), p.total)
				}
			}
		}
	})
	return p
}

// finish stops reporting and clears the line.
func (p *progress) finish() {
	close(p.stop)
	p.stopped.Wait()
	if p.shown {
		fmt.Fprint(p.e.stderr, "\r\033[K")
	}
}
