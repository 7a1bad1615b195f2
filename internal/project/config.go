package project

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

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
// Each field's flag tag names the command flag the key sets, and ",path"
// marks a path, made absolute against the file's directory and confined to
// the repository that holds it. A key with a flag that a command lacks
// (output for check) does nothing there. A new key is one line here.
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
	AllowHosts     []string `toml:"allowHosts" flag:"allow-host"`
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
	AllowSecrets   []string `toml:"allowSecrets" flag:"allow-secret"`
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
		flagName, _, _ := strings.Cut(f.Tag.Get("flag"), ",")
		fv := v.Field(i)
		if flagName == "" || fv.IsNil() {
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

// Load reads the textfrag.toml at file. Every error names the file, and
// where the TOML reader knows it, the line: a syntax error, a value of the
// wrong type, and a key Config does not know (a typo must not be a setting
// silently ignored). Paths come back absolute, resolved against the file's
// directory, and must stay inside the repository that holds the file.
func Load(file string) (Config, error) {
	var c Config
	// Stat first: opening a FIFO would wait for a writer.
	if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
		return c, fmt.Errorf("%s: not a regular file", file)
	}
	f, err := os.Open(file)
	if err != nil {
		return c, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		return c, fmt.Errorf("%s: %v", file, err)
	}
	if len(data) > maxConfigSize {
		return c, fmt.Errorf("%s: larger than %d bytes", file, maxConfigSize)
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
	return c, nil
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
