package mail

import (
	"encoding/json"
	"fmt"
	"time"

	"titm/adjudicator/referee"
	"titm/store"
)

// The map picture (referee.map_picture) is drawn when its mail is sent, not
// when the mail is queued: the store keeps the position it is drawn from,
// some 40 KB an impulse, instead of the picture in every mail, and the
// drawing runs beside the handling of the next mail instead of before it.

// deferred is a mail composed when it is sent.
type deferred struct {
	Out       Outgoing  `json:"out"`
	MessageID string    `json:"message_id"`
	Date      time.Time `json:"date"`
}

// draw draws the picture of a snapshot.
func draw(tx *store.Tx, key string) ([]byte, error) {
	data := tx.Snapshot(key)
	if data == nil {
		return nil, fmt.Errorf("the picture's snapshot %s is missing", key)
	}
	var snap referee.Snapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", key, err)
	}
	s, err := tx.Scenario(snap.Game)
	if err != nil {
		return nil, err
	}
	png, err := snap.Draw(s)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", key, err)
	}
	return png, nil
}

// lastPicture is the picture drawn last: the mails that carry the same one
// (both players' reports of an impulse) are queued one after the other.
type lastPicture struct {
	key string
	png []byte
}

// message returns the message of a queued mail: stored whole, or composed
// now with its picture.
func (s *Sender) message(m *store.Mail, last *lastPicture) ([]byte, error) {
	var data []byte
	var err error
	s.st.View(func(tx *store.Tx) error {
		data = tx.MailData(m.ID)
		if m.Deferred && m.Snapshot != "" && last.key != m.Snapshot {
			var png []byte
			if png, err = draw(tx, m.Snapshot); err == nil {
				last.key, last.png = m.Snapshot, png
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mail %d: drawing its map: %w", m.ID, err)
	}
	if !m.Deferred {
		return data, nil
	}
	var d deferred
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("mail %d: %w", m.ID, err)
	}
	if d.Out.Map != nil && last.key == m.Snapshot {
		d.Out.Attachments = append(d.Out.Attachments, Attachment{Name: d.Out.Map.Name, Type: "image/png", Data: last.png})
	}
	msg, _, err := ComposeAs(s.from, &d.Out, d.Date, d.MessageID)
	return msg, err
}
