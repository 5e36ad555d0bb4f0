package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Processed records a message handled: the mail daemon writes it in the
// same transaction as the change the message made, and looks for it before
// handling any message, so that no message is applied or answered twice.
type Processed struct {
	Mailbox     string `json:"mailbox"`
	UIDValidity uint32 `json:"uidvalidity"`
	UID         uint32 `json:"uid"`
	MessageID   string `json:"message_id,omitempty"` // for the operator
	// Digest identifies the message by its content: the same mail
	// delivered again has the same digest, another mail that only
	// borrows its Message-ID has not.
	Digest  string    `json:"digest,omitempty"`
	Game    string    `json:"game,omitempty"`
	Time    time.Time `json:"time"`
	Outcome string    `json:"outcome"` // what was done, for the operator
}

func (p *Processed) key() []byte {
	return fmt.Appendf(nil, "%s/%08x/%08x", p.Mailbox, p.UIDValidity, p.UID)
}

// MarkProcessed records a message as handled.
func (t *Tx) MarkProcessed(p Processed) error {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("store: marking a message processed: %w", err)
	}
	if err := put(t.tx, path(bucketProcessed), p.key(), data); err != nil {
		return fmt.Errorf("store: marking a message processed: %w", err)
	}
	if p.Digest != "" {
		if err := put(t.tx, path(bucketDigests), []byte(p.Digest), p.key()); err != nil {
			return fmt.Errorf("store: marking a message processed: %w", err)
		}
	}
	return nil
}

// WasProcessed returns the record of a message handled before: the same
// mailbox, UIDVALIDITY and UID, or, when digest is not empty, the same
// digest (the same mail delivered twice).
//
// With a digest, the same key is not enough: a record under the key with
// another digest is of another mail, which a server that gave the same
// UIDs again (a mailbox made anew without a new UIDVALIDITY) put under the
// same key. WasProcessed then returns that record and false, unless the
// digest itself was processed, so that the new mail is handled and the
// caller can tell of the reused key.
func (t *Tx) WasProcessed(mailbox string, uidValidity, uid uint32, digest string) (*Processed, bool, error) {
	key := (&Processed{Mailbox: mailbox, UIDValidity: uidValidity, UID: uid}).key()
	byKey, err := t.processed(key)
	if err != nil {
		return nil, false, err
	}
	if byKey != nil && (digest == "" || byKey.Digest == "" || byKey.Digest == digest) {
		return byKey, true, nil
	}
	if digest != "" {
		if k := t.tx.Bucket(bucketDigests).Get([]byte(digest)); k != nil {
			p, err := t.processed(k)
			if err != nil || p != nil {
				return p, p != nil, err
			}
		}
	}
	return byKey, false, nil
}

// processed reads the record under key, or nil.
func (t *Tx) processed(key []byte) (*Processed, error) {
	data := t.tx.Bucket(bucketProcessed).Get(key)
	if data == nil {
		return nil, nil
	}
	var p Processed
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("store: reading a processed message: %w", err)
	}
	return &p, nil
}

// Mail statuses in the outbox.
const (
	MailQueued = "queued" // waiting to be sent, or to be tried again
	MailSent   = "sent"
	MailFailed = "failed" // refused for good; kept for the operator
)

// Mail is an outgoing message in the outbox. It is queued in the same
// transaction as the change it tells of, and sent after the commit.
type Mail struct {
	ID        uint64 `json:"id"`
	Game      string `json:"game,omitempty"`
	Kind      string `json:"kind,omitempty"`       // welcome, report, reply, ...: for the operator
	MessageID string `json:"message_id,omitempty"` // the message's own Message-ID
	// Secret marks a mail that carries a token (a welcome): its text is
	// dropped from the store once it is sent, so that tokens are kept only
	// as hashes.
	Secret bool `json:"secret,omitempty"`
	// Deferred marks a mail whose message is made when it is sent: Data
	// holds what to compose, and Snapshot names what its picture is drawn
	// from (PutSnapshot), so that the store holds no picture.
	Deferred bool     `json:"deferred,omitempty"`
	Snapshot string   `json:"snapshot,omitempty"`
	From     string   `json:"from"`
	To       []string `json:"to"`
	Subject  string   `json:"subject"` // for the operator's lists; the message has its own
	// Data is the whole message, RFC 5322. The store keeps it apart from
	// the record until the mail is sent: Outbox leaves it empty, and
	// MailData reads it.
	Data     []byte    `json:"-"`
	Created  time.Time `json:"created"`
	Status   string    `json:"status"`
	Attempts int       `json:"attempts"`
	Next     time.Time `json:"next,omitzero"` // when to try again
	Error    string    `json:"error,omitempty"`
	Sent     time.Time `json:"sent,omitzero"`
}

// Queue puts a mail in the outbox and gives it its id.
func (t *Tx) Queue(m *Mail) error {
	id, err := nextSequence(t.tx, path(bucketOutbox))
	if err != nil {
		return fmt.Errorf("store: queueing a mail: %w", err)
	}
	m.ID = id
	if m.Status == "" {
		m.Status = MailQueued
	}
	if m.MessageID != "" {
		if err := put(t.tx, path(bucketSentIDs), []byte(m.MessageID), u64(id)); err != nil {
			return fmt.Errorf("store: queueing a mail: %w", err)
		}
	}
	return t.PutMail(m)
}

// MailByMessageID returns the mail of the outbox with a Message-ID (without
// angle brackets), or nil when the referee never queued one with it.
func (t *Tx) MailByMessageID(id string) (*Mail, error) {
	k := t.tx.Bucket(bucketSentIDs).Get([]byte(id))
	if k == nil {
		return nil, nil
	}
	v := t.tx.Bucket(bucketOutbox).Get(k)
	if v == nil {
		return nil, nil
	}
	var m Mail
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, fmt.Errorf("store: mail %x: %w", k, err)
	}
	return &m, nil
}

// PutMail stores a mail of the outbox after a change (an attempt, a
// status). Its message is kept while it is queued and given (Data not
// empty), and dropped once it is not queued any more.
func (t *Tx) PutMail(m *Mail) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("store: mail %d: %w", m.ID, err)
	}
	if err := put(t.tx, path(bucketOutbox), u64(m.ID), data); err != nil {
		return fmt.Errorf("store: mail %d: %w", m.ID, err)
	}
	q, msgs := path(bucketQueue), path(bucketMailData)
	switch {
	case m.Status != MailQueued:
		if err = del(t.tx, q, u64(m.ID)); err == nil {
			err = del(t.tx, msgs, u64(m.ID))
		}
	case len(m.Data) > 0:
		if err = put(t.tx, q, u64(m.ID), []byte(m.Snapshot)); err == nil {
			err = put(t.tx, msgs, u64(m.ID), m.Data)
		}
	default:
		err = put(t.tx, q, u64(m.ID), []byte(m.Snapshot))
	}
	if err != nil {
		return fmt.Errorf("store: mail %d: %w", m.ID, err)
	}
	return nil
}

// MailData returns the message of a queued mail, or nil once it is sent.
func (t *Tx) MailData(id uint64) []byte {
	return append([]byte(nil), t.tx.Bucket(bucketMailData).Get(u64(id))...)
}

// Outbox returns the mails of the outbox with the status, or all when
// status is empty, oldest first. The queued mails are read through their
// index, without reading the mails sent.
func (t *Tx) Outbox(status string) ([]*Mail, error) {
	var out []*Mail
	if status == MailQueued {
		box := t.tx.Bucket(bucketOutbox)
		err := t.tx.Bucket(bucketQueue).ForEach(func(k, _ []byte) error {
			var m Mail
			if err := json.Unmarshal(box.Get(k), &m); err != nil {
				return fmt.Errorf("store: mail %x: %w", k, err)
			}
			out = append(out, &m)
			return nil
		})
		return out, err
	}
	err := t.tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		var m Mail
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("store: mail %x: %w", k, err)
		}
		if status == "" || m.Status == status {
			out = append(out, &m)
		}
		return nil
	})
	return out, err
}

// PutSnapshot keeps what a queued mail's picture is drawn from, under a
// key the mail names.
func (t *Tx) PutSnapshot(key string, data []byte) error {
	if err := put(t.tx, path(bucketSnapshots), []byte(key), data); err != nil {
		return fmt.Errorf("store: snapshot %s: %w", key, err)
	}
	return nil
}

// Snapshot returns a snapshot kept with PutSnapshot, or nil.
func (t *Tx) Snapshot(key string) []byte {
	return append([]byte(nil), t.tx.Bucket(bucketSnapshots).Get([]byte(key))...)
}

// DropSnapshot deletes a snapshot once no queued mail names it. The
// queue's index gives each mail's snapshot, so that the sender, which
// calls it for every mail it sends, reads no mail's record: only an entry
// an older titm wrote, without it, sends it to the record.
func (t *Tx) DropSnapshot(key string) error {
	box := t.tx.Bucket(bucketOutbox)
	named := errors.New("named")
	err := t.tx.Bucket(bucketQueue).ForEach(func(k, v []byte) error {
		if len(v) == 0 {
			var m struct {
				Snapshot string `json:"snapshot"`
			}
			if err := json.Unmarshal(box.Get(k), &m); err != nil {
				return fmt.Errorf("store: mail %x: %w", k, err)
			}
			v = []byte(m.Snapshot)
		}
		if string(v) == key {
			return named
		}
		return nil
	})
	switch {
	case err == named:
		return nil
	case err != nil:
		return err
	}
	return del(t.tx, path(bucketSnapshots), []byte(key))
}
