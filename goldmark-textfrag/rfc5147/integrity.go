package rfc5147

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrIntegrity is matched by the error returned when an entity fails an
// integrity check that the engine understands (length or md5).
var ErrIntegrity = errors.New("integrity check failed")

// ErrNotText is matched by errors for entities that are not text: bytes
// invalid in their charset, or a NUL character.
var ErrNotText = errors.New("not text")

// CheckStatus is the outcome of one integrity check.
type CheckStatus uint8

const (
	// Passed means the entity matches the check.
	Passed CheckStatus = iota + 1
	// Failed means it does not, or cannot be transcoded to the check's charset.
	Failed
	// Ignored means the check is of an unknown kind (RFC 5147 section 3.1).
	Ignored
)

// String returns "passed", "failed" or "ignored".
func (s CheckStatus) String() string {
	switch s {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Ignored:
		return "ignored"
	}
	return "CheckStatus(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the status as its String.
func (s CheckStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// CheckResult is what became of one integrity check.
type CheckResult struct {
	Check  Check       `json:"-"`
	Status CheckStatus `json:"status"`
	// Got is the entity's actual value in the check's charset: an md5 in lower-case
	// hex or a length; empty when ignored or not computable.
	Got string `json:"got,omitempty"`
	// Reason says why a check failed or was ignored.
	Reason string `json:"reason,omitempty"`
}

// Facts are the integrity facts of a whole entity: what length and md5
// checks are compared with.
type Facts struct {
	// Charset the facts are computed in.
	Charset Charset
	// Length is the number of characters, line endings counted as one, no BOM.
	Length int64
	// MD5 is the MD5 of the bytes as stored (BOM and line endings included).
	MD5 [16]byte
}

// MD5Hex returns the md5 in lower-case hex.
func (f Facts) MD5Hex() string { return hex.EncodeToString(f.MD5[:]) }

// IntegrityError reports the checks an entity failed. It wraps ErrIntegrity.
type IntegrityError struct {
	// Failed holds the failed checks.
	Failed []CheckResult
	// Actual are the entity's facts in its own charset, for re-pinning.
	Actual Facts
}

// Error lists the failed checks, then the entity's current md5 and length
// in link syntax (SEMANTICS.md §4), so that a person can re-pin by hand:
// "md5 mismatch: the file changed since the link was pinned; the file now
// has md5=…;length=…". Each md5 appears once: the pinned one is in the
// link every message quotes, the current one in the "now has" part (a
// check in another charset, whose value differs, keeps its Reason).
func (e *IntegrityError) Error() string {
	parts := make([]string, len(e.Failed))
	for i, r := range e.Failed {
		parts[i] = r.Reason
		if r.Check.Kind == MD5 && r.Got == e.Actual.MD5Hex() {
			parts[i] = "md5 mismatch: the file changed since the link was pinned"
		}
	}
	now := fmt.Sprintf("the file now has md5=%s;length=%d", e.Actual.MD5Hex(), e.Actual.Length)
	if cs := e.Actual.Charset.Name; cs != "" && cs != UTF8.Name {
		now += " (in " + cs + ")"
	}
	return strings.Join(append(parts, now), "; ")
}

// Unwrap returns ErrIntegrity.
func (e *IntegrityError) Unwrap() error { return ErrIntegrity }

// transcoder computes the facts of the entity transcoded into another charset.
type transcoder func(Charset) (Facts, error)

// verify checks every check of f against the entity's own facts, and
// against transcoded facts where a check names another charset.
func verify(checks []Check, own Facts, other transcoder) ([]CheckResult, error) {
	if len(checks) == 0 {
		return nil, nil
	}
	results := make([]CheckResult, len(checks))
	var failed []CheckResult
	for i, c := range checks {
		r := verifyOne(c, own, other)
		results[i] = r
		if r.Status == Failed {
			failed = append(failed, r)
		}
	}
	if failed != nil {
		return results, &IntegrityError{Failed: failed, Actual: own}
	}
	return results, nil
}

func verifyOne(c Check, own Facts, other transcoder) CheckResult {
	r := CheckResult{Check: c}
	if c.Kind == Unknown {
		r.Status, r.Reason = Ignored, fmt.Sprintf("unknown integrity check %q ignored (RFC 5147 section 3.1)", c.Name)
		if strings.EqualFold(c.Name, "md5") || strings.EqualFold(c.Name, "length") {
			r.Reason += fmt.Sprintf("; check names are lower case: did you mean %q?", strings.ToLower(c.Name))
		}
		return r
	}
	facts := own
	if c.Charset != "" {
		cs, err := LookupCharset(c.Charset)
		if err != nil {
			r.Status, r.Reason = Failed, fmt.Sprintf("%s: cannot check in charset %q: it is not a known IANA charset name", c.Name, c.Charset)
			return r
		}
		if !own.Charset.names(cs) {
			facts, err = other(cs)
			if err != nil {
				r.Status, r.Reason = Failed, fmt.Sprintf("%s: the text cannot be transcoded from %s to %s: %v", c.Name, own.Charset.Name, cs.Name, err)
				return r
			}
		}
	}
	in := ""
	if facts.Charset.Name != own.Charset.Name {
		in = " in " + facts.Charset.Name
	}
	switch c.Kind {
	case Length:
		r.Got = strconv.FormatInt(facts.Length, 10)
		if facts.Length != c.Length {
			r.Status, r.Reason = Failed, fmt.Sprintf("length mismatch: the link says %d characters, the text%s has %d", c.Length, in, facts.Length)
			return r
		}
	case MD5:
		r.Got = hex.EncodeToString(facts.MD5[:])
		if facts.MD5 != c.Sum {
			r.Status, r.Reason = Failed, fmt.Sprintf("md5 mismatch: the link says %s, the file%s has %s", c.Value, in, r.Got)
			return r
		}
	}
	r.Status = Passed
	return r
}

// transcodedFacts computes facts for text (UTF-8) encoded into cs.
func transcodedFacts(text []byte, length int64, cs Charset) (Facts, error) {
	b, err := encode(text, cs)
	if err != nil {
		return Facts{}, err
	}
	return Facts{Charset: cs, Length: length, MD5: md5.Sum(b)}, nil
}
