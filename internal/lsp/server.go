package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
)

// Config is what the server needs of a project: the command finds it as
// every command does (the project root and textfrag.toml) and gives check's
// settings.
type Config struct {
	// Root is the project root, an absolute OS path.
	Root string
	// Resolver configures the files links may quote; the server sets its
	// Overlay to the editor's open buffers.
	Resolver target.Options
	// Markdown returns the goldmark instance check converts pages with,
	// resolving links with r (page.NewMarkdown and check's options).
	Markdown func(r *target.Resolver) goldmark.Markdown
	// Lenient is check's --lenient, for the shortcodes page.Check verifies.
	Lenient bool
	// Unpinned is check's warning about links without md5=, for the
	// shortcodes page.Check verifies (Markdown has its own for links).
	Unpinned bool
	// Advise, if set, adds the command's remedies to a page's problems, as
	// check does before it prints them.
	Advise func(problems []*textfrag.Problem)
	// Explain, if set, words a resolver error in pin's messages; default
	// target.Explain.
	Explain func(err error) string
	// Sources are the paths check checks when given none (textfrag.toml's
	// source, else "."): references look for links in their pages.
	Sources []string
	// PollInterval is how often quoted files are checked for changes when
	// the client cannot watch files. Default 2s; negative: never.
	PollInterval time.Duration
	// Log receives one line per failure the client is not told about. Nil:
	// discarded.
	Log io.Writer
}

// document is an open editor buffer.
type document struct {
	uri      string
	path     string // absolute OS path; "" when the URI is not a file
	proj     string // project path
	version  int
	text     []byte
	markdown bool

	// tree holds the buffer's lines once it is edited incrementally;
	// stale: text is behind it, until flushEdits writes it out.
	tree  *lineTree
	stale bool

	index    *lineIndex    // of text, lazily
	links    []mdlink.Link // of text, lazily
	scanned  bool
	quoted   map[string]bool // project paths the last check resolved
	problems []located       // of the last check
}

// located is a problem with its range in the document's bytes.
type located struct {
	p          *textfrag.Problem
	start, end int
}

// Server is a language server for the Markdown pages of one project.
type Server struct {
	find func(dir string) (Config, error)
	cfg  Config // find's, from initialize on
	conn *conn
	base *target.Resolver
	enc  string

	mu   sync.RWMutex // guards docs for the resolver's overlay
	docs map[string]*document

	initialized, shutdown bool
	watching              bool   // the client watches files for us
	clientDir             string // the folder the client opened, which it watches; "" if none
	dynamicWatch          bool   // it can be asked to
	nextID                int
	watchID               int                  // the id of our request to watch files
	stamps                map[string]stamp     // quoted files' stat, for polling
	pages                 map[string]pageCache // links of pages on disk, by OS path
	edited                map[*document]bool   // changed, not yet checked
	warmed                chan map[string]pageCache
}

type stamp struct {
	mod  time.Time
	size int64
	ok   bool
}

// nameCacheLimit is how much source text the server keeps parsed names
// of: each request has a fresh Resolver (the files as they are now), but
// a file whose text is unchanged is not parsed again (2 ms for 5,000 lines
// of Go, tens of ms with tree-sitter).
const nameCacheLimit = 64 << 20

// Serve runs a server on the client's messages from in, writing to out,
// until the client sends exit, in ends or ctx is done. At initialize it
// calls find with the directory the client opened (its first workspace
// folder, else rootUri, else rootPath, else the working directory; see
// clientRoot) for the project's Config; a root that is not a local
// directory, or an error of find, is the answer to initialize. It returns
// nil after a shutdown request and exit, as the protocol asks for exit
// status 0.
func Serve(ctx context.Context, find func(dir string) (Config, error), in io.Reader, out io.Writer) error {
	s := &Server{find: find, conn: newConn(in, out), docs: map[string]*document{}, stamps: map[string]stamp{}, pages: map[string]pageCache{}, edited: map[*document]bool{}, warmed: make(chan map[string]pageCache, 1), enc: encodingUTF16}
	type read struct {
		body []byte
		err  error
	}
	// Read ahead of the handling, so that edits typed while a slow check
	// runs are waiting when it ends, and are checked once (flushEdits).
	msgs := make(chan read, 16)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			body, err := s.conn.read()
			select {
			case msgs <- read{body, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var tick <-chan time.Time
	for {
		if tick == nil && s.initialized && s.cfg.PollInterval > 0 {
			t := time.NewTicker(s.cfg.PollInterval)
			defer t.Stop()
			tick = t.C
		}
		if len(s.edited) > 0 {
			// Edits queued behind one another are checked once, after
			// the last: a page whose check takes seconds (it quotes a
			// huge file) does not fall behind the typing by a check a
			// keystroke.
			select {
			case m := <-msgs:
				if m.err != nil {
					s.flushEdits()
					return readError(m.err)
				}
				if exit, err := s.handle(m.body); exit {
					return err
				}
			default:
				s.flushEdits()
			}
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
			if s.initialized {
				s.poll()
			}
		case w := <-s.warmed:
			for f, c := range w {
				if _, ok := s.pages[f]; !ok {
					s.pages[f] = c
				}
			}
		case m := <-msgs:
			if m.err != nil {
				return readError(m.err)
			}
			if exit, err := s.handle(m.body); exit {
				return err
			}
		}
	}
}

// readError is what Serve returns when reading a message failed.
func readError(err error) error {
	if err == io.EOF {
		return errors.New("the client closed the connection without exit")
	}
	return err
}

// logf notes a failure the client is not told about.
func (s *Server) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "textfrag lsp: "+format+"\n", args...)
	}
}

// handle dispatches one message. It reports exit when the client asked the
// server to stop, with the error Serve returns.
func (s *Server) handle(body []byte) (exit bool, _ error) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		s.conn.reply(json.RawMessage("null"), nil, &rpcError{codeParseError, "the message is not JSON: " + err.Error()})
		return false, nil
	}
	if m.Method == "" {
		// A response to a request of ours: only the registration of file
		// watching matters, and if the client refused it, we poll.
		if m.Error != nil && string(m.ID) == strconv.Itoa(s.watchID) {
			s.logf("the client refused to watch files (%v): polling instead", m.Error)
			s.watching = false
		}
		return false, nil
	}
	isRequest := len(m.ID) > 0 && string(m.ID) != "null"
	if m.Method == "exit" {
		if s.shutdown {
			return true, nil
		}
		return true, errors.New("exit without shutdown")
	}
	if m.Method != "textDocument/didChange" {
		s.flushEdits() // everything else sees the documents checked
	}
	result, rerr := s.call(m.Method, m.Params, isRequest)
	if isRequest {
		if err := s.conn.reply(m.ID, result, rerr); err != nil {
			return true, err
		}
	}
	return false, nil
}

// call runs the handler of method; a panic is answered as an internal
// error, never a crash.
func (s *Server) call(method string, params json.RawMessage, isRequest bool) (result any, rerr *rpcError) {
	defer func() {
		if v := recover(); v != nil {
			s.logf("%s: panic: %v\n%s", method, v, debug.Stack())
			result, rerr = nil, &rpcError{codeInternalError, fmt.Sprintf("%s failed: %v", method, v)}
		}
	}()
	switch {
	case method == "initialize":
		return s.initialize(params)
	case !s.initialized:
		return nil, &rpcError{codeNotInitialized, "the server is not initialized"}
	case s.shutdown:
		return nil, &rpcError{codeInvalidRequest, "the server is shutting down"}
	}
	h, ok := handlers[method]
	if !ok {
		if isRequest {
			return nil, &rpcError{codeMethodNotFound, "no method " + method}
		}
		return nil, nil // notifications we do not know ($/cancelRequest, …)
	}
	return h(s, params)
}

// handlers are the methods after initialize, by name.
var handlers map[string]func(*Server, json.RawMessage) (any, *rpcError)

func init() {
	handlers = map[string]func(*Server, json.RawMessage) (any, *rpcError){
		"initialized":                      (*Server).didInitialize,
		"shutdown":                         func(s *Server, _ json.RawMessage) (any, *rpcError) { s.shutdown = true; return nil, nil },
		"textDocument/didOpen":             (*Server).didOpen,
		"textDocument/didChange":           (*Server).didChange,
		"textDocument/didClose":            (*Server).didClose,
		"textDocument/didSave":             func(*Server, json.RawMessage) (any, *rpcError) { return nil, nil },
		"workspace/didChangeWatchedFiles":  (*Server).didChangeWatchedFiles,
		"textDocument/hover":               (*Server).hover,
		"textDocument/definition":          (*Server).definition,
		"textDocument/documentLink":        (*Server).documentLinks,
		"textDocument/references":          (*Server).references,
		"textDocument/completion":          (*Server).completion,
		"textDocument/codeAction":          (*Server).codeActions,
		"workspace/didChangeConfiguration": func(*Server, json.RawMessage) (any, *rpcError) { return nil, nil },
	}
}

func decode(params json.RawMessage, v any) *rpcError {
	if err := json.Unmarshal(params, v); err != nil {
		return &rpcError{codeInvalidParams, "invalid params: " + err.Error()}
	}
	return nil
}

func (s *Server) initialize(params json.RawMessage) (any, *rpcError) {
	if s.initialized {
		return nil, &rpcError{codeInvalidRequest, "initialize was already called"}
	}
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	dir, err := clientRoot(p)
	if err != nil {
		return nil, &rpcError{codeInvalidParams, err.Error()}
	}
	if err := s.start(dir); err != nil {
		return nil, &rpcError{codeInvalidParams, fmt.Sprintf("%s: %v", dir, err)}
	}
	if len(p.Folders) > 0 || p.RootURI != "" || p.RootPath != "" {
		s.clientDir = dir
	}
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == encodingUTF8 {
			s.enc = encodingUTF8 // no conversion: the client counts bytes too
		}
	}
	s.dynamicWatch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.initialized = true
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": s.enc,
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    2, // incremental
				"save":      map[string]any{"includeText": false},
			},
			"hoverProvider":        true,
			"definitionProvider":   true,
			"referencesProvider":   true,
			"documentLinkProvider": map[string]any{"resolveProvider": false},
			"codeActionProvider":   map[string]any{"codeActionKinds": []string{"quickfix", "refactor.rewrite"}},
			"completionProvider":   map[string]any{"triggerCharacters": []string{"(", "/", "=", "#"}},
		},
		"serverInfo": map[string]any{"name": "textfrag"},
	}, nil
}

// start serves the project find makes of dir.
func (s *Server) start(dir string) error {
	cfg, err := s.find(dir)
	if err != nil {
		return err
	}
	ro := cfg.Resolver
	ro.Overlay = s.overlay
	if ro.NameCacheLimit == 0 {
		ro.NameCacheLimit = nameCacheLimit
	}
	base, err := target.New(ro)
	if err != nil {
		return err
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 2 * time.Second
	}
	s.cfg, s.base = cfg, base
	return nil
}

// didInitialize asks the client to watch every file of the project, when
// it can; otherwise the server polls the files the open pages quote.
func (s *Server) didInitialize(json.RawMessage) (any, *rpcError) {
	go s.warm()
	if !s.dynamicWatch {
		return nil, nil
	}
	s.nextID++
	s.watchID = s.nextID
	err := s.conn.request(s.nextID, "client/registerCapability", map[string]any{
		"registrations": []map[string]any{{
			"id":     "textfrag-watch",
			"method": "workspace/didChangeWatchedFiles",
			"registerOptions": map[string]any{
				"watchers": []map[string]any{{"globPattern": "**/*"}},
			},
		}},
	})
	if err != nil {
		s.logf("registering file watching: %v", err)
		return nil, nil
	}
	s.watching = true
	return nil, nil
}

// uriPath returns the OS path of a file URI, or "".
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// fileURI returns the file URI of an absolute OS path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// projectPath returns the project path of an absolute OS path, or "" when
// it is outside the root. A path that names the root's directories
// another way (the editor opened the folder through a symbolic link, or
// names files by their real path) is compared with the root with the
// symbolic links of both resolved, its last element left as it is: a page
// that is itself a link keeps its own name, as check names it.
func (s *Server) projectPath(path string) string {
	if path == "" {
		return ""
	}
	rel, err := filepath.Rel(s.cfg.Root, path)
	if err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	realRoot, err := filepath.EvalSymlinks(s.cfg.Root)
	if err != nil {
		return ""
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return ""
	}
	rel, err = filepath.Rel(realRoot, filepath.Join(dir, filepath.Base(path)))
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// overlay is the Resolver's Overlay: the open buffer of a file, if any.
func (s *Server) overlay(proj string) ([]byte, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, d := range s.docs {
		if d.proj == proj {
			return d.text, true
		}
	}
	return nil, false
}

func (s *Server) didOpen(params json.RawMessage) (any, *rpcError) {
	var p didOpenParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path := uriPath(p.TextDocument.URI)
	proj := s.projectPath(path)
	if proj != "" {
		// Named under the root as check names it, whichever way the
		// client spelled the directories.
		path = filepath.Join(s.cfg.Root, filepath.FromSlash(proj))
	}
	d := &document{
		uri: p.TextDocument.URI, path: path, proj: proj,
		version: p.TextDocument.Version, text: []byte(p.TextDocument.Text),
		markdown: p.TextDocument.LanguageID == "markdown" || strings.EqualFold(filepath.Ext(path), ".md"),
	}
	s.mu.Lock()
	s.docs[d.uri] = d
	s.mu.Unlock()
	s.changed(d)
	return nil, nil
}

func (s *Server) didChange(params json.RawMessage) (any, *rpcError) {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.RLock()
	d := s.docs[p.TextDocument.URI]
	s.mu.RUnlock()
	if d == nil {
		return nil, nil
	}
	// Incremental changes go to the buffer's line tree (lines.go), at a
	// cost of what they touch; the text is written out once, by
	// flushEdits, before anything reads it.
	text, tree := d.text, d.tree
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text, tree = []byte(c.Text), nil
			continue
		}
		if tree == nil {
			tree = newLineTree(text)
		}
		tree.edit(*c.Range, c.Text, s.enc == encodingUTF8)
	}
	s.mu.Lock()
	d.text, d.tree, d.version, d.index, d.links, d.scanned = text, tree, p.TextDocument.Version, nil, nil, false
	d.stale = tree != nil
	s.mu.Unlock()
	s.edited[d] = true // checked by flushEdits, once no other edit is waiting
	return nil, nil
}

// flushEdits publishes the diagnostics of the documents edited since the
// last flush (changed), once each.
func (s *Server) flushEdits() {
	if len(s.edited) == 0 {
		return
	}
	// Every edited buffer's text first: checking one page reads the
	// others (the Resolver's overlay).
	s.mu.Lock()
	for d := range s.edited {
		if d.stale {
			d.text, d.stale = d.tree.text(), false
		}
	}
	s.mu.Unlock()
	for d := range s.edited {
		delete(s.edited, d)
		s.mu.RLock()
		open := s.docs[d.uri] == d
		s.mu.RUnlock()
		if open {
			s.changed(d)
		}
	}
}

func (s *Server) didClose(params json.RawMessage) (any, *rpcError) {
	var p didCloseParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	if d == nil {
		return nil, nil
	}
	if d.markdown {
		// The page's problems are the build's business again.
		s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Diagnostics: []Diagnostic{}})
	}
	if d.proj != "" {
		s.refreshQuoting(map[string]bool{d.proj: true}) // the file on disk counts again
	}
	return nil, nil
}

// changed publishes the diagnostics of d, if it is a page, and of the open
// pages that quote it.
func (s *Server) changed(d *document) {
	if d.markdown {
		s.publish(d)
	}
	if d.proj != "" {
		s.refreshQuoting(map[string]bool{d.proj: true})
	}
}

// refreshQuoting publishes again the diagnostics of every open page that
// quoted one of paths at its last check.
func (s *Server) refreshQuoting(paths map[string]bool) {
	for _, d := range s.openPages() {
		for p := range paths {
			if d.quoted[p] {
				s.publish(d)
				break
			}
		}
	}
}

// openPages returns the open Markdown documents.
func (s *Server) openPages() []*document {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var pages []*document
	for _, d := range s.docs {
		if d.markdown {
			pages = append(pages, d)
		}
	}
	return pages
}

func (s *Server) didChangeWatchedFiles(params json.RawMessage) (any, *rpcError) {
	var p didChangeWatchedFilesParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for _, c := range p.Changes {
		if c.Type != fileChanged {
			// A file created or deleted may be one a page names but did
			// not find, or a directory on the way to one: check every
			// open page.
			for _, d := range s.openPages() {
				s.publish(d)
			}
			return nil, nil
		}
		if proj := s.projectPath(uriPath(c.URI)); proj != "" {
			paths[proj] = true
		}
	}
	s.refreshQuoting(paths)
	return nil, nil
}

// poll publishes again the pages whose quoted files changed on disk since
// the last look: the fallback for clients that cannot watch files, and for
// the files a watching client does not see. A client watches the folder
// it opened, and the project root may be wider (textfrag.toml above it: a
// docs/ folder opened alone, quoting ../src/).
func (s *Server) poll() {
	changed := map[string]bool{}
	seen := map[string]bool{}
	for _, d := range s.openPages() {
		for p := range d.quoted {
			if seen[p] || s.watching && s.clientWatches(p) {
				continue
			}
			seen[p] = true
			st := statOf(filepath.Join(s.cfg.Root, filepath.FromSlash(p)))
			if old, ok := s.stamps[p]; ok && old != st {
				changed[p] = true
			}
			s.stamps[p] = st
		}
	}
	if len(changed) > 0 {
		s.refreshQuoting(changed)
	}
}

// clientWatches reports whether the client's file watching covers the
// file at project path p: it lies in the folder the client opened.
func (s *Server) clientWatches(p string) bool {
	if s.clientDir == "" {
		return false
	}
	rel, err := filepath.Rel(s.clientDir, filepath.Join(s.cfg.Root, filepath.FromSlash(p)))
	return err == nil && filepath.IsLocal(rel)
}

func statOf(path string) stamp {
	info, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	return stamp{mod: info.ModTime(), size: info.Size(), ok: true}
}
