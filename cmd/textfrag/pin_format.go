package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/textfrag/textfrag/internal/pin"
)

// This file is pin --format json: the quotes pin reports, the pages it
// changes (with their diffs when it writes nothing) and its summary, as
// one JSON document on stdout, in check --format json's field names.

// pinJSON is the document pin --format json writes.
type pinJSON struct {
	Quotes []pinJSONQuote `json:"quotes"`
	Files  []pinJSONFile  `json:"files"`
	// Counts are the summary's counts by class (refreshed, moved, changed,
	// gone, review, unpinned, accepted, error), every class present.
	Counts   map[string]int   `json:"counts"`
	Commands []pinJSONCommand `json:"commands"`
}

// pinJSONQuote is one quote pin reports, as its text line and detail.
type pinJSONQuote struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Class  string `json:"class"`
	// Quote is the id that --accept takes, for a quote that needs a
	// person and is not written.
	Quote string `json:"quote,omitempty"`
	Link  string `json:"link"`
	// Message is the line pin prints: what it found, then its remedy.
	Message string `json:"message"`
	// Remedy is the one thing to do that Message ends with, "" for none.
	Remedy string   `json:"remedy,omitempty"`
	Detail []string `json:"detail"`
	// Written is whether pin writes the quote (without --write: would).
	Written bool `json:"written"`
}

// pinJSONFile is a page pin changes; Diff is its unified diff when pin
// writes nothing.
type pinJSONFile struct {
	Path string `json:"path"`
	Diff string `json:"diff"`
}

// pinJSONCommand is one line of the summary's advice: the classes it is
// about, how many quotes, and the one command that settles them ("" when
// a person fixes each link, or they were written).
type pinJSONCommand struct {
	Classes []string `json:"classes"`
	Count   int      `json:"count"`
	Command string   `json:"command"`
	Advice  string   `json:"advice"`
}

// addQuote keeps the report of the change c to the page name; a later
// pass over the page replaces what an earlier one reported for a link.
func (j *pinJSON) addQuote(name string, c pin.Change) {
	q := pinJSONQuote{File: filepath.ToSlash(name), Line: c.Link.Line, Column: c.Link.Column,
		Class: string(c.Class), Link: c.Link.Dest, Message: c.Text(), Remedy: c.Remedy, Detail: c.Detail, Written: c.Apply}
	if pin.NeedsPerson(c) && c.Link.Start >= 0 && !c.Apply {
		q.Quote = pin.QuoteID(name, c.Link)
	}
	if q.Detail == nil {
		q.Detail = []string{}
	}
	for i, o := range j.Quotes {
		if o.File == q.File && o.Line == q.Line && o.Column == q.Column && (o.Class == "warning") == (q.Class == "warning") &&
			(q.Class != "warning" || o.Message == q.Message) {
			j.Quotes[i] = q
			return
		}
	}
	j.Quotes = append(j.Quotes, q)
}

// addFile keeps a page pin changes, once.
func (j *pinJSON) addFile(f pinJSONFile) {
	for i, o := range j.Files {
		if o.Path == f.Path {
			j.Files[i] = f
			return
		}
	}
	j.Files = append(j.Files, f)
}

// setCounts sets the summary's counts n, every class named.
func (j *pinJSON) setCounts(n map[pin.Class]int) {
	for _, c := range append(slices.Clone(pinSummaryClasses), pinAccepted, pin.Error) {
		j.Counts[pinClassName(c)] = n[c]
	}
}

// setCommands sets the commands of the summary for the counts n: write,
// review and changed as pinner.summary words them.
func (j *pinJSON) setCommands(n map[pin.Class]int, write, review, changed string) {
	add := func(classes []pin.Class, command string, sub map[pin.Class]int, write, changed string) {
		k := 0
		var names []string
		for _, c := range classes {
			k += sub[c]
			names = append(names, pinClassName(c))
		}
		if changed != "" {
			k = n[pin.Changed] - n[pinAccepted]
		}
		for _, line := range pinClassAdvice(sub, write, changed) {
			j.Commands = append(j.Commands, pinJSONCommand{Classes: names, Count: k, Command: command, Advice: strings.TrimSpace(line)})
		}
	}
	only := func(classes ...pin.Class) map[pin.Class]int {
		m := map[pin.Class]int{}
		for _, c := range classes {
			m[c] = n[c]
		}
		return m
	}
	add([]pin.Class{pin.Gone, pin.Review, pin.Error}, "", only(pin.Gone, pin.Review, pin.Error), "", "")
	if changed != "" {
		add([]pin.Class{pin.Changed}, review, nil, "", changed)
	}
	add([]pin.Class{pin.Refreshed, pin.Moved, pin.Pinned}, write, only(pin.Refreshed, pin.Moved, pin.Pinned), write, "")
}

// pinFormatFlag is pin's --format: text or json.
type pinFormatFlag struct{ json *bool }

func (f *pinFormatFlag) String() string {
	if f.json != nil && *f.json {
		return "json"
	}
	return "text"
}

func (f *pinFormatFlag) Set(v string) error {
	switch v {
	case "text", "json":
		*f.json = v == "json"
		return nil
	}
	return fmt.Errorf("%q is not a format: text or json", v)
}
