package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/net/websocket"
)

// maxMessage bounds one message from Chromium. A full-page screenshot of a
// long page comes as one base64 message, which may be well over the default
// limit of 32 MB.
const maxMessage = 256 << 20

// origin is the Origin header sent when connecting to the DevTools
// endpoint. The websocket handshake here always sends one, and Chromium
// refuses a connection with an Origin it was not told to allow
// (--remote-allow-origins), so that a web page cannot drive the browser. A
// .invalid name can never be the origin of a real page, so allowing it lets
// in this client alone.
const origin = "http://titm-browser.invalid"

// errClosed is the reason given to calls made on, or waiting on, a
// connection closed by Close.
var errClosed = errors.New("connection to Chromium closed")

// message is any message of the DevTools protocol: a command sent (ID,
// Method, Params), its response (ID, Result or Error) or an event (Method,
// Params).
type message struct {
	ID     int64           `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params any             `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *ProtocolError  `json:"error,omitempty"`
}

// incoming is a message as read: Params left raw until a subscriber decodes
// it.
type incoming struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *ProtocolError  `json:"error"`
}

// ProtocolError is an error response of the DevTools protocol to a command,
// e.g. for a method that does not exist or a malformed parameter.
type ProtocolError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

// Error implements error.
func (e *ProtocolError) Error() string {
	if e.Data != "" {
		return fmt.Sprintf("%s (%d): %s", e.Message, e.Code, e.Data)
	}
	return fmt.Sprintf("%s (%d)", e.Message, e.Code)
}

// conn is a DevTools protocol connection to one target (the browser or a
// page). One reader goroutine reads every message and hands each response to
// the call waiting on its id and each event to those subscribed to its
// method, so that a caller never reads a message meant for another.
type conn struct {
	ws *websocket.Conn

	writeMu sync.Mutex // one command on the wire at a time, with its deadline

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan incoming // calls awaiting their response, by id
	subs    map[*subscription]struct{}
	err     error // why the reader stopped; set before done is closed

	done chan struct{} // closed when the reader has returned
}

// subscription receives the parameters of the events of one method.
type subscription struct {
	method string
	ch     chan json.RawMessage
}

// dial connects to a DevTools websocket URL and starts the reader.
func dial(ctx context.Context, url string) (*conn, error) {
	cfg, err := websocket.NewConfig(url, origin)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", url, err)
	}
	ws, err := cfg.DialContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", url, err)
	}
	ws.MaxPayloadBytes = maxMessage
	c := &conn{
		ws:      ws,
		pending: make(map[int64]chan incoming),
		subs:    make(map[*subscription]struct{}),
		done:    make(chan struct{}),
	}
	go c.read()
	return c, nil
}

// read is the reader goroutine. It returns when the connection fails or is
// closed, failing every call still waiting.
func (c *conn) read() {
	var err error
	for {
		var data []byte
		if err = websocket.Message.Receive(c.ws, &data); err != nil {
			break
		}
		var m incoming
		if json.Unmarshal(data, &m) != nil {
			// Not a protocol message: nothing can be waiting for it.
			continue
		}
		c.mu.Lock()
		if m.ID != 0 {
			if ch, ok := c.pending[m.ID]; ok {
				delete(c.pending, m.ID)
				ch <- m // buffered: never blocks
			}
		} else if m.Method != "" {
			for s := range c.subs {
				if s.method != m.Method {
					continue
				}
				// A subscriber that has not taken the events before
				// loses the newest rather than stall every other call.
				select {
				case s.ch <- m.Params:
				default:
				}
			}
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = fmt.Errorf("connection to Chromium lost: %w", err)
	}
	c.mu.Unlock()
	close(c.done)
}

// call sends a command and waits for its response, whose result is decoded
// into result unless that is nil.
func (c *conn) call(ctx context.Context, method string, params, result any) error {
	ch := make(chan incoming, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	data, err := json.Marshal(message{ID: id, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("%s: encoding the parameters: %w", method, err)
	}
	if err := c.send(ctx, data); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}

	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %w", method, m.Error)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("%s: decoding the result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, context.Cause(ctx))
	case <-c.done:
		return fmt.Errorf("%s: %w", method, c.err)
	}
}

// send writes one message, giving up at the context's deadline so that a
// browser that stopped reading cannot hold the caller forever.
func (c *conn) send(ctx context.Context, data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	deadline, _ := ctx.Deadline() // the zero time: no deadline
	if err := c.ws.SetWriteDeadline(deadline); err != nil {
		return err
	}
	return websocket.Message.Send(c.ws, string(data))
}

// subscribe starts collecting the events of a method. Subscribing before
// the command that causes the event means the event cannot be missed, however
// fast it comes. cancel must be called when the events are no longer wanted.
func (c *conn) subscribe(method string) (s *subscription, cancel func()) {
	s = &subscription{method: method, ch: make(chan json.RawMessage, 256)}
	c.mu.Lock()
	c.subs[s] = struct{}{}
	c.mu.Unlock()
	return s, func() {
		c.mu.Lock()
		delete(c.subs, s)
		c.mu.Unlock()
	}
}

// close closes the connection and waits for the reader to return, so that
// no goroutine outlives it.
func (c *conn) close() {
	c.mu.Lock()
	if c.err == nil {
		c.err = errClosed
	}
	c.mu.Unlock()
	// Close writes a closing frame first: a browser that stopped reading
	// must not hold it up.
	_ = c.ws.SetWriteDeadline(time.Now().Add(time.Second))
	c.ws.Close() // ends the reader's Receive at once
	<-c.done
}
