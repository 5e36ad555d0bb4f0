package mail

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// writeBuffer is the size of the buffer the sender's writes to the SMTP
// server gather in. go-smtp writes a mail through net/textproto's buffer
// of 4 KB: a report with the whole map, some 550 KB, took 140 writes to
// the socket, and the 400 reports of BenchmarkThousandGames 50,000.
const writeBuffer = 64 << 10

// dialTimeout bounds connecting to the SMTP server, TLS handshake included
// where the connection is encrypted from the start: go-smtp's own Dial
// waits as long.
const dialTimeout = 30 * time.Second

// closeFlushTimeout bounds how long Close waits to send what is still
// buffered, as crypto/tls waits to send its close_notify: a server that
// reads nothing any more does not hold the daemon's stop.
const closeFlushTimeout = 5 * time.Second

// bufConn gathers the writes to a connection into writes of up to
// writeBuffer bytes. Whatever is buffered is sent before every read, so
// that a command is on its way before its answer is awaited, and by
// Close. TLS, when used, sits above it: the records are gathered, not the
// clear text.
type bufConn struct {
	net.Conn
	mu sync.Mutex // held while w is written or flushed
	w  *bufio.Writer
}

func newBufConn(c net.Conn) *bufConn {
	return &bufConn{Conn: c, w: bufio.NewWriterSize(c, writeBuffer)}
}

func (c *bufConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Write(p)
}

// Read sends what is buffered, then reads: without the flush a command
// would wait in the buffer for an answer that never comes.
func (c *bufConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	err := c.w.Flush()
	c.mu.Unlock()
	if err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

// Close sends what is buffered, within closeFlushTimeout, and closes the
// connection. A Close that comes while a write waits on the socket (from
// the context ending a send, on another goroutine) closes at once, which
// ends the write.
func (c *bufConn) Close() error {
	if c.mu.TryLock() {
		if c.w.Buffered() > 0 {
			c.Conn.SetWriteDeadline(time.Now().Add(closeFlushTimeout))
			c.w.Flush()
		}
		c.mu.Unlock()
	}
	return c.Conn.Close()
}

// dial connects to the SMTP server, encrypts as configured and logs in.
func (s *Sender) dial(ctx context.Context) (*smtp.Client, error) {
	tc, err := clientTLS(s.cfg.Address, s.cfg.CAFile, s.cfg.InsecureSkipVerify)
	if err != nil {
		return nil, fmt.Errorf("smtp.ca_file: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", s.cfg.Address)
	if err != nil {
		return nil, fmt.Errorf("smtp: connecting to %s: %w", s.cfg.Address, err)
	}
	return s.client(ctx, conn, tc)
}

// client speaks SMTP over conn: it encrypts as configured (tc) and logs
// in. The writes are gathered (bufConn) under the TLS layer, if any; the
// handshake of TLS from the start is bound by ctx. conn is closed if
// anything fails.
func (s *Sender) client(ctx context.Context, conn net.Conn, tc *tls.Config) (*smtp.Client, error) {
	var c *smtp.Client
	var err error
	bc := newBufConn(conn)
	switch s.cfg.Security {
	case "tls":
		t := tls.Client(bc, tc)
		if err = t.HandshakeContext(ctx); err != nil {
			t.Close()
		} else {
			c = smtp.NewClient(t)
		}
	case "none":
		c = smtp.NewClient(bc)
	default:
		// The handshake comes at the EHLO after STARTTLS, bound by the
		// client's command timeout.
		c, err = smtp.NewClientStartTLS(bc, tc)
	}
	if err != nil {
		return nil, fmt.Errorf("smtp: connecting to %s: %w", s.cfg.Address, certHint(err, "smtp"))
	}
	if s.cfg.Username != "" {
		if err := s.login(c); err != nil {
			c.Close()
			// %v, not %w: a refused login (535) is the referee's setup at
			// fault, or a token the provider revoked, not the mail; it must
			// wait for a retry rather than be failed for good.
			return nil, fmt.Errorf("smtp: logging in to %s as %s: %v", s.cfg.Address, s.cfg.Username, err)
		}
	}
	return c, nil
}
