//go:build cgo && !unix

package treesitter

import "time"

func cpuTime() time.Duration { return 0 }
