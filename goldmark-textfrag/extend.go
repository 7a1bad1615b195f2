package textfrag

import (
	"math"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// New returns the extension. With no options, links resolve against the
// current working directory, which is the only allowed root; errors fail the
// conversion (strict); boxes are highlighted with chroma and hold at most
// DefaultMaxLines lines.
//
//	md := goldmark.New(goldmark.WithExtensions(textfrag.New()))
//
// One goldmark instance may convert many documents concurrently: give each
// conversion its own parser.Context, with SetDocument.
func New(opts ...Option) goldmark.Extender {
	return &extender{cfg: newConfig(opts)}
}

type extender struct {
	cfg  *config
	once sync.Once
	base *target.Resolver // made from the options; each conversion uses a Fresh copy
	err  error
}

// Extend implements goldmark.Extender.
func (e *extender) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(
		// goldmark runs transformers in increasing order of priority value:
		// linksAsWritten first of all (it notes every link as the parser
		// made it, so that links another transformer rewrites or drops are
		// verified too), textfrag's own at WithPriority's (DefaultPriority),
		// before most transformers that rewrite links.
		util.Prioritized(linksAsWritten{}, math.MinInt),
		util.Prioritized(&transformer{ext: e}, e.cfg.priority),
		// failureFirst last of all: an error fails Convert before it
		// writes what later transformers put first in the document.
		util.Prioritized(failureFirst{}, math.MaxInt),
	))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(
		util.Prioritized(&htmlRenderer{cfg: e.cfg, md: m}, 500),
	))
}

// resolver returns the Resolver for one conversion: WithResolver's, shared,
// or else a fresh one made from the options, so that each conversion quotes
// the files as they are when it runs. The options are turned into a
// Resolver on first use, so that New itself cannot fail and the working
// directory is read at convert time.
func (e *extender) resolver() (*target.Resolver, error) {
	if e.cfg.resolver != nil {
		return e.cfg.resolver, nil
	}
	e.once.Do(func() { e.base, e.err = target.New(e.cfg.targetOptions) })
	if e.err != nil {
		return nil, e.err
	}
	return e.base.Fresh(), nil
}
