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
	))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(
		util.Prioritized(&htmlRenderer{cfg: e.cfg}, 500),
	))
}

// resolverOnce makes the Resolver from the options on first use, so that
// New itself cannot fail and the working directory is read at convert time.
func (e *extender) resolverOnce() (*target.Resolver, error) {
	e.once.Do(func() {
		if e.cfg.resolver == nil {
			e.cfg.resolver, e.err = target.New(e.cfg.targetOptions)
		}
	})
	return e.cfg.resolver, e.err
}
