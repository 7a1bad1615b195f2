//go:build cgo && unix

package treesitter

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: the
// benchmark reports it per operation too, since wall time on a shared
// machine counts other processes' load.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
