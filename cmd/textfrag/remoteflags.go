package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// remoteFlags enable remote (http, https) targets, for every command that
// resolves links (build, check, render, serve, pin, resolve). Without
// --allow-host there are none: remote links stay links and nothing is
// fetched.
type remoteFlags struct {
	allowHosts hostsFlag
	offline    bool
	// offlineFromRepo: offline came from textfrag.toml, not the command
	// line. Without a host allowed on the command line (allowHosts in
	// textfrag.toml is not applied) it means nothing, and is no error.
	offlineFromRepo bool
	timeout         time.Duration
	maxBytes        int64
	cacheDir        string
}

func (f *remoteFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.allowHosts, "allow-host", "fetch http and https targets from `HOST` (repeatable; example.org, example.org:8443 or *.example.org; without a port, the scheme's default port); links to other hosts stay links. Default: none, remote targets are off")
	fs.Var(offlineFlag{f}, "offline", "read remote targets from the cache only (see --cache-dir), never from the network")
	fs.DurationVar(&f.timeout, "remote-timeout", target.DefaultRemoteTimeout, "give up on a remote target after `DURATION`, redirects and body included")
	fs.Int64Var(&f.maxBytes, "remote-max-bytes", target.DefaultRemoteMaxBytes, "fail on remote targets larger than `N` bytes")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "keep fetched remote targets in `DIR`/http, for --offline builds and for when a host is down, and highlighted code in DIR/highlight (default: textfrag in the user cache directory)")
}

// options returns the remote options the flags give. Zero values (flags
// not registered, or 0 given) mean the library's defaults.
func (f *remoteFlags) options() (target.RemoteOptions, error) {
	if len(f.allowHosts) == 0 {
		if f.offline && !f.offlineFromRepo {
			return target.RemoteOptions{}, fmt.Errorf("--offline needs --allow-host: remote targets are off without it")
		}
		return target.RemoteOptions{}, nil
	}
	o := target.RemoteOptions{AllowHosts: f.allowHosts, Offline: f.offline, Timeout: f.timeout, MaxBytes: f.maxBytes, CacheDir: f.cacheDir}
	if f.timeout < 0 || f.maxBytes < 0 {
		return o, fmt.Errorf("--remote-timeout and --remote-max-bytes must not be negative")
	}
	dir, err := f.cacheRoot()
	if err != nil {
		if f.offline {
			return o, fmt.Errorf("--offline: %v", err)
		}
		return o, nil // no disk cache: every build fetches
	}
	o.CacheDir = dir
	return o, nil
}

// cacheRoot returns --cache-dir, else textfrag's directory in the user
// cache directory.
func (f *remoteFlags) cacheRoot() (string, error) {
	if f.cacheDir != "" {
		return f.cacheDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (%v); name one with --cache-dir", err)
	}
	return filepath.Join(dir, "textfrag"), nil
}

// offlineFlag is --offline, a boolean flag that also takes its value from
// textfrag.toml (repositoryValue), noting where it came from.
type offlineFlag struct{ f *remoteFlags }

// String implements flag.Value.
func (o offlineFlag) String() string {
	if o.f == nil {
		return "false"
	}
	return strconv.FormatBool(o.f.offline)
}

// Set implements flag.Value.
func (o offlineFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	o.f.offline, o.f.offlineFromRepo = v, false
	return err
}

// IsBoolFlag makes --offline take no value.
func (o offlineFlag) IsBoolFlag() bool { return true }

// SetFromRepository implements repositoryValue.
func (o offlineFlag) SetFromRepository(s string) error {
	if err := o.Set(s); err != nil {
		return err
	}
	o.f.offlineFromRepo = true
	return nil
}

// hostsFlag collects repeated --allow-host flags; one value may also list
// hosts separated by commas.
type hostsFlag []string

// String implements flag.Value.
func (h *hostsFlag) String() string { return strings.Join(*h, ",") }

// Set implements flag.Value.
func (h *hostsFlag) Set(s string) error {
	for _, host := range strings.Split(s, ",") {
		if host = strings.TrimSpace(host); host != "" {
			*h = append(*h, host)
		}
	}
	return nil
}
