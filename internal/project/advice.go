package project

import (
	"errors"
	"fmt"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// This file says where the root is in errors about files outside it, for
// every command and for the language server (its Advise and Explain).

// widenRoot says how to widen the root.
const widenRoot = "to quote files outside it, give a wider --root DIR, or set root = \"DIR\" in " + ConfigName

// RootAdvice says how to widen the root, for errors about files outside
// it: where the root is, how it was found, and how to widen it.
func (p *Project) RootAdvice() string {
	return fmt.Sprintf("the project root is %s (%s); %s", p.Root, p.Origin, widenRoot)
}

// ExplainTarget is target.Explain for a link that failed to resolve under
// root, with how to widen the root when the file is outside it (but not
// when it is a secret: that stays out whatever the root).
func ExplainTarget(err error, root string) string {
	msg := target.Explain(err, "")
	if target.Kind(err) == "outside" && !errors.Is(err, target.ErrSecret) {
		msg += fmt.Sprintf("; the project root is %s; %s", root, widenRoot)
	}
	return msg
}

// AdviseRoot adds RootAdvice to the problems about files outside the
// root, and names the root in those about missing files that a link
// starting with / names. Each problem gets it once, even when it is
// shared by two calls. A nil p does nothing.
func (p *Project) AdviseRoot(problems []*textfrag.Problem) {
	if p == nil {
		return
	}
	advice := p.RootAdvice()
	where := fmt.Sprintf("the project root is %s (%s)", p.Root, p.Origin)
	for _, q := range problems {
		switch {
		case q.Kind == "outside" && !errors.Is(q.Err, target.ErrSecret) && !strings.HasSuffix(q.Message, advice):
			q.Message += "; " + advice
		case q.Kind == "missing" && strings.HasPrefix(q.Link, "/") && !strings.HasSuffix(q.Message, where):
			q.Message += "; " + where
		}
	}
}
