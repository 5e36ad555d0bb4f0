package embedded

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// envelope is the ENVELOPE of a message, or nil when its header cannot be
// read.
func envelope(buf []byte) *imap.Envelope {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(buf)))
	if err != nil {
		return nil
	}
	return imapserver.ExtractEnvelope(h)
}

// entity is the message parsed; an unreadable one is an empty message.
func entity(buf []byte) *gomessage.Entity {
	e, _ := gomessage.Read(bytes.NewReader(buf))
	if e == nil {
		e, _ = gomessage.New(gomessage.Header{}, bytes.NewReader(nil))
	}
	return e
}

// search reports whether the message m, numbered seq in the client's view
// (0 when it has not seen it yet), meets the criteria; body gives the
// message, read only when a criterion needs it.
func search(seq uint32, m *message, body func() []byte, c *imap.SearchCriteria) bool {
	if !matchNumbers(seq, m, c) || !matchState(m, c) || !matchHeader(body, c) || !matchText(body, c) {
		return false
	}
	for i := range c.Not {
		if search(seq, m, body, &c.Not[i]) {
			return false
		}
	}
	for i := range c.Or {
		if !search(seq, m, body, &c.Or[i][0]) && !search(seq, m, body, &c.Or[i][1]) {
			return false
		}
	}
	return true
}

// matchNumbers matches the message's sequence number and UID.
func matchNumbers(seq uint32, m *message, c *imap.SearchCriteria) bool {
	for _, set := range c.SeqNum {
		if seq == 0 || !set.Contains(seq) {
			return false
		}
	}
	for _, set := range c.UID {
		if !set.Contains(m.uid) {
			return false
		}
	}
	return true
}

// matchState matches what the server keeps of the message: its internal
// date, flags and size.
func matchState(m *message, c *imap.SearchCriteria) bool {
	if !matchDate(m.t, c.Since, c.Before) {
		return false
	}
	for _, f := range c.Flag {
		if !m.has(f) {
			return false
		}
	}
	for _, f := range c.NotFlag {
		if m.has(f) {
			return false
		}
	}
	return !(c.Larger != 0 && m.size <= c.Larger || c.Smaller != 0 && m.size >= c.Smaller)
}

// matchHeader matches the header fields and the date the message was sent.
func matchHeader(body func() []byte, c *imap.SearchCriteria) bool {
	if len(c.Header) == 0 && c.SentSince.IsZero() && c.SentBefore.IsZero() {
		return true
	}
	h := mail.Header{Header: entity(body()).Header}
	for _, f := range c.Header {
		if !matchFields(h.FieldsByKey(f.Key), f.Value) {
			return false
		}
	}
	if !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
		t, err := h.Date()
		if err != nil || !matchDate(t, c.SentSince, c.SentBefore) {
			return false
		}
	}
	return true
}

// matchText matches the TEXT and BODY criteria.
func matchText(body func() []byte, c *imap.SearchCriteria) bool {
	for _, text := range c.Text {
		if !matchEntity(entity(body()), text, true) {
			return false
		}
	}
	for _, text := range c.Body {
		if !matchEntity(entity(body()), text, false) {
			return false
		}
	}
	return true
}

// matchDate compares dates without their time and zone, as RFC 9051, 6.4.4
// asks.
func matchDate(t, since, before time.Time) bool {
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return (since.IsZero() || !t.Before(since)) && (before.IsZero() || t.Before(before))
}

func matchFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}
	pattern = strings.ToLower(pattern)
	for fields.Next() {
		if v, _ := fields.Text(); strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}

func matchEntity(e *gomessage.Entity, pattern string, header bool) bool {
	if pattern == "" {
		return true
	}
	if header && matchFields(e.Header.Fields(), pattern) {
		return true
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			part, err := mr.NextPart()
			if err != nil {
				return false // io.EOF: no part matched
			}
			if matchEntity(part, pattern, header) {
				return true
			}
		}
	}
	t, _, err := e.Header.ContentType()
	if err != nil || !strings.HasPrefix(t, "text/") && !strings.HasPrefix(t, "message/") {
		return false
	}
	buf, err := io.ReadAll(e.Body)
	return err == nil && bytes.Contains(bytes.ToLower(buf), []byte(strings.ToLower(pattern)))
}
