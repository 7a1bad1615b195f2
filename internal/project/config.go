package project

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/internal/realm"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// maxConfigSize bounds how much of a textfrag.toml is read: the file is
// part of the tree, and a settings file is a few hundred bytes.
const maxConfigSize = 1 << 20

// Config is what a textfrag.toml sets: the settings every command would
// otherwise repeat as flags. A key left out is nil (or an empty list), and
// the flag's default holds; a flag given on the command line overrides the
// file.
//
// The file is part of the repository, which a pull request can change, so
// no key can widen the realm, add hosts, or run or publish anything (see
// SECURITY.md, "What textfrag.toml can do"). Each field's flag tag names the
// command flag the key sets; ",path" marks a path, made absolute against the
// file's directory and confined to the repository that holds it;
// ",command-line" marks a key that only the command line can set (Load
// keeps its value but Settings leaves it out, with a warning). A key with a
// flag that a command lacks (output for check) does nothing there. A new
// key is one line here, and one row in SECURITY.md.
//
//	root = "."                  # --root: the project root
//	source = "docs"             # SRC of build and serve, PATHS of check and pin
//	output = "public"           # -o of build
//	charsets = ["*.latin1=ISO-8859-1"]
//	allowHosts = ["raw.example.org"]
//	remoteTimeout = "10s"
//	remoteMaxBytes = 8388608
//	offline = false
//	cacheDir = ".cache/textfrag"
//	sourceURL = "https://github.com/o/r/blob/main/{path}#L{start}-L{end}"
//	lenient = false
//	strict = true
//	highlight = true
//	highlightCache = true
//	style = "github"
//	darkStyle = "github-dark"
type Config struct {
	Root           *string  `toml:"root" flag:"root,path"`
	Source         *string  `toml:"source" flag:",path"` // a positional argument, see Project.Source
	Output         *string  `toml:"output" flag:"o,path"`
	Charsets       []string `toml:"charsets" flag:"charset"`
	AllowHosts     []string `toml:"allowHosts" flag:"allow-host,command-line"`
	RemoteTimeout  *string  `toml:"remoteTimeout" flag:"remote-timeout"`
	RemoteMaxBytes *int64   `toml:"remoteMaxBytes" flag:"remote-max-bytes"`
	Offline        *bool    `toml:"offline" flag:"offline"`
	CacheDir       *string  `toml:"cacheDir" flag:"cache-dir,path"`
	SourceURL      *string  `toml:"sourceURL" flag:"source-url"`
	Lenient        *bool    `toml:"lenient" flag:"lenient"`
	Strict         *bool    `toml:"strict" flag:"strict"`
	Highlight      *bool    `toml:"highlight" flag:"highlight"`
	HighlightCache *bool    `toml:"highlightCache" flag:"highlight-cache"`
	Style          *string  `toml:"style" flag:"style"`
	DarkStyle      *string  `toml:"darkStyle" flag:"dark-style"`
	AllowSecrets   []string `toml:"allowSecrets" flag:"allow-secret,command-line"`

	// Warnings say which settings of the file were not applied as
	// written (see Load); the command prints them.
	Warnings []string `toml:"-"`
}

// Setting is one key a textfrag.toml sets, as the values of a command
// flag: one value, or one per list element (a repeatable flag).
type Setting struct {
	Key    string   // the TOML key, "allowHosts"
	Flag   string   // the flag it sets, "allow-host"
	Values []string // as a flag.Value's Set takes them
}

// Settings returns the keys the file set that stand for flags, in the
// order of Config's fields.
func (c *Config) Settings() []Setting {
	var out []Setting
	v := reflect.ValueOf(c).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		flagName, opts, _ := strings.Cut(f.Tag.Get("flag"), ",")
		fv := v.Field(i)
		if flagName == "" || opts == "command-line" || fv.IsNil() {
			continue
		}
		s := Setting{Key: f.Tag.Get("toml"), Flag: flagName}
		if fv.Kind() == reflect.Slice {
			for j := range fv.Len() {
				s.Values = append(s.Values, fv.Index(j).String())
			}
		} else {
			s.Values = []string{formatValue(fv.Elem())}
		}
		out = append(out, s)
	}
	return out
}

func formatValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	}
	return v.String()
}

// Ceilings of the remote limits that textfrag.toml may set: a larger value
// is lowered to the ceiling, with a warning, so that a pull request cannot
// make a command wait for hours or read a streaming server until memory
// runs out. The command line may set any.
const (
	MaxRepositoryRemoteBytes   = 64 << 20
	MaxRepositoryRemoteTimeout = time.Minute
)

// Load reads the textfrag.toml at file: through an os.Root of the
// repository that holds it (a file that is a symbolic link leading out of
// the repository is refused, unread), a regular file (never a FIFO or a
// device), of at most 1 MiB. Every error names the file, and where the TOML
// reader knows it, the line: a syntax error, a value of the wrong type, and
// a key Config does not know (a typo must not be a setting silently
// ignored); no error quotes the file's content but a key's name. Paths
// come back absolute, resolved against the file's directory, and must stay
// inside the repository that holds the file. sourceURL must be an http or
// https URL, or relative. Remote limits above the ceilings are lowered,
// and allowHosts and allowSecrets are kept but not applied, each with a
// warning in Warnings.
func Load(file string) (Config, error) {
	var c Config
	data, err := readConfig(file)
	if err != nil {
		return c, err
	}
	if err := checkKeys(file, data); err != nil {
		return c, err
	}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, configError(file, err)
	}
	dir := filepath.Dir(file)
	limit := repositoryOf(dir)
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		_, opts, _ := strings.Cut(f.Tag.Get("flag"), ",")
		if opts != "path" || v.Field(i).IsNil() {
			continue
		}
		p := v.Field(i).Elem()
		if p.String() == "" {
			return c, fmt.Errorf("%s: %s: an empty path; leave the key out for the default", file, f.Tag.Get("toml"))
		}
		abs, err := confine(dir, limit, p.String())
		if err != nil {
			return c, fmt.Errorf("%s: %s: %v", file, f.Tag.Get("toml"), err)
		}
		p.SetString(abs)
	}
	if c.CacheDir != nil {
		if err := noLinks(limit, *c.CacheDir); err != nil {
			return c, fmt.Errorf("%s: cacheDir: %v", file, err)
		}
	}
	if c.SourceURL != nil {
		if err := CheckSourceURL(*c.SourceURL); err != nil {
			return c, fmt.Errorf("%s: sourceURL: %v", file, err)
		}
	}
	c.Warnings = c.untrusted(file)
	return c, nil
}

// readConfig reads file through an os.Root of the repository that holds
// it, so that a textfrag.toml committed as a link to a file outside is
// refused without being read: its content would otherwise reach the
// messages of a public CI log.
func readConfig(file string) ([]byte, error) {
	dir := filepath.Dir(file)
	top := repositoryOf(dir)
	rel, err := filepath.Rel(top, file)
	if err != nil || !filepath.IsLocal(rel) {
		top, rel = dir, filepath.Base(file)
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	defer root.Close()
	data, err := realm.ReadFile(root, rel, maxConfigSize)
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, realm.ErrNotRegular):
		return nil, fmt.Errorf("%s: not a regular file; textfrag reads its settings from a regular file only", file)
	case errors.Is(err, realm.ErrTooLarge):
		return nil, fmt.Errorf("%s: larger than %d bytes", file, maxConfigSize)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: a symbolic link that leads nowhere, or no such file", file)
	case strings.Contains(err.Error(), "escapes from parent") || strings.Contains(err.Error(), "path escapes"):
		return nil, fmt.Errorf("%s: a symbolic link that leads outside %s (or an absolute one), not read: the settings must be a file of the repository; replace the link by a copy", file, top)
	}
	return nil, fmt.Errorf("%s: not read: %v", file, err)
}

// noLinks refuses a path p inside the directory top that passes through a
// symbolic link below top, or is one: a cache directory is written and
// pruned, and a committed link (.cache/textfrag -> /elsewhere, or one that
// leads nowhere yet) must not take its writes elsewhere.
func noLinks(top, p string) error {
	rel, err := filepath.Rel(top, p)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return nil // the top itself, or outside: confine judged it
	}
	cur := top
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		info, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: a cache directory set in %s must be a directory of the repository (or give --cache-dir)", cur, ConfigName)
		}
	}
	return nil
}

// CheckSourceURL refuses a sourceURL template that is not an http or https
// URL, or a relative one: every caption links to it, so javascript: or
// data: would run script in the site's pages. Control characters and
// spaces are refused anywhere, as browsers drop some of them from a URL
// ("java\tscript:").
func CheckSourceURL(tmpl string) error { return textfrag.CheckSourceURL(tmpl) }

// untrusted applies what a repository may not decide: it lowers remote
// limits above the ceilings, and says that allowHosts and allowSecrets are
// not applied. It returns the warnings, naming file.
func (c *Config) untrusted(file string) []string {
	var ws []string
	if c.RemoteMaxBytes != nil && *c.RemoteMaxBytes > MaxRepositoryRemoteBytes {
		ws = append(ws, fmt.Sprintf("%s: remoteMaxBytes = %d is more than %s allows (%d bytes, 64 MiB); using %d (a larger limit only on the command line: --remote-max-bytes)", file, *c.RemoteMaxBytes, ConfigName, MaxRepositoryRemoteBytes, MaxRepositoryRemoteBytes))
		n := int64(MaxRepositoryRemoteBytes)
		c.RemoteMaxBytes = &n
	}
	if c.RemoteTimeout != nil {
		if d, err := time.ParseDuration(*c.RemoteTimeout); err == nil && d > MaxRepositoryRemoteTimeout {
			ws = append(ws, fmt.Sprintf("%s: remoteTimeout = %q is more than %s allows (%s); using %s (a longer one only on the command line: --remote-timeout)", file, *c.RemoteTimeout, ConfigName, MaxRepositoryRemoteTimeout, MaxRepositoryRemoteTimeout))
			s := MaxRepositoryRemoteTimeout.String()
			c.RemoteTimeout = &s
		}
	}
	if len(c.AllowHosts) > 0 {
		var flags []string
		for _, h := range c.AllowHosts {
			flags = append(flags, "--allow-host "+strconv.Quote(h))
		}
		ws = append(ws, fmt.Sprintf("%s: allowHosts is not applied: a pull request can edit %s, and only the command line may open the network (give %s); links to those hosts stay links", file, ConfigName, strings.Join(flags, " ")))
	}
	if len(c.AllowSecrets) > 0 {
		var flags []string
		for _, g := range c.AllowSecrets {
			flags = append(flags, "--allow-secret "+strconv.Quote(g))
		}
		ws = append(ws, fmt.Sprintf("%s: allowSecrets is not applied: a pull request can edit %s, and only the command line may bring back files that commonly hold secrets (give %s)", file, ConfigName, strings.Join(flags, " ")))
	}
	return ws
}

// configError names file and the line of a decoding error.
func configError(file string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		msgs := make([]string, 0, len(strict.Errors))
		for _, e := range strict.Errors {
			row, col := e.Position()
			msgs = append(msgs, fmt.Sprintf("%s:%d:%d: unknown key %q (the keys are %s)", file, row, col, strings.Join(e.Key(), "."), keyList()))
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Errorf("%s:%d:%d: %v", file, row, col, de.Error())
	}
	return fmt.Errorf("%s: %v", file, err)
}

// checkKeys reports the first key in data that Config does not know, by
// file, line and column. The decoder alone would match keys regardless of
// letter case, and TOML keys are case-sensitive; the file is flat, so a
// table or a dotted key is unknown too. Syntax errors are left to the
// decoder.
func checkKeys(file string, data []byte) error {
	known := map[string]bool{}
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		known[t.Field(i).Tag.Get("toml")] = true
	}
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.KeyValue && e.Kind != unstable.Table && e.Kind != unstable.ArrayTable {
			continue
		}
		var parts []string
		var first *unstable.Node
		for it := e.Key(); it.Next(); {
			if first == nil {
				first = it.Node()
			}
			parts = append(parts, string(it.Node().Data))
		}
		key := strings.Join(parts, ".")
		if e.Kind == unstable.KeyValue && len(parts) == 1 && known[key] {
			continue
		}
		pos := p.Shape(first.Raw).Start
		what := "unknown key"
		if e.Kind != unstable.KeyValue {
			what = "unknown table"
		}
		return fmt.Errorf("%s:%d:%d: %s %q (the keys are %s)", file, pos.Line, pos.Column, what, key, keyList())
	}
	return nil
}

// keyList lists the keys Config knows, for the unknown-key message.
func keyList() string {
	t := reflect.TypeFor[Config]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("toml")
	}
	return strings.Join(keys, ", ")
}
