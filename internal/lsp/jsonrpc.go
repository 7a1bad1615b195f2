package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds one message's body: a client that announces more is
// refused rather than buffered (64 MiB holds any Markdown page an editor
// sends whole).
const maxMessage = 64 << 20

// JSON-RPC 2.0 error codes the server answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeNotInitialized = -32002
	codeRequestFailed  = -32803
)

// message is any JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method alone) or a response (ID with Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// conn reads and writes messages framed as the base protocol says: a
// Content-Length header, an empty line, and that many bytes of JSON.
type conn struct {
	r  *bufio.Reader
	mu sync.Mutex // one message written at a time
	w  io.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReader(r), w: w}
}

// read returns the next message's body. It fails on a malformed header or
// a body larger than maxMessage; io.EOF at a message boundary ends the
// stream.
func (c *conn) read() ([]byte, error) {
	length := -1
	for first := true; ; first = false {
		// ReadSlice reads at most the buffer's 4 KiB: a header line is
		// never buffered without bound.
		raw, err := c.r.ReadSlice('\n')
		switch {
		case err == io.EOF && first && len(raw) == 0:
			return nil, io.EOF
		case err == bufio.ErrBufferFull || len(raw) > 1024:
			return nil, errors.New("a message header line is longer than 1 KiB")
		case err != nil:
			return nil, fmt.Errorf("reading a message header: %w", err)
		}
		line := strings.TrimRight(string(raw), "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("malformed message header %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("malformed Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("a message has no Content-Length header")
	}
	if length > maxMessage {
		return nil, fmt.Errorf("a message of %d bytes is larger than the limit of %d", length, maxMessage)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return nil, fmt.Errorf("reading a message body: %w", err)
	}
	return body, nil
}

// write sends v as one message.
func (c *conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(body))
	buf.Write(body)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.w.Write(buf.Bytes())
	return err
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
}

// request sends a request with the given id; its response is read by the
// main loop like any message.
func (c *conn) request(id int, method string, params any) error {
	return c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", id, method, params})
}

// reply answers the request with id: its result, or err.
func (c *conn) reply(id json.RawMessage, result any, err *rpcError) error {
	if err != nil {
		return c.write(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *rpcError       `json:"error"`
		}{"2.0", id, err})
	}
	return c.write(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}
