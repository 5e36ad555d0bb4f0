package mail

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/picture"
	"titm/rules"
	"titm/store"
)

// The map picture (referee.map_picture) is drawn when its mail is sent, not
// when the mail is queued: the store keeps the position it is drawn from,
// some 40 KB an impulse, instead of the picture in every mail, and the
// drawing runs beside the handling of the next mail instead of before it.

// MapRef names the picture a mail carries: the snapshot it is drawn from
// and the attachment's file name.
type MapRef struct {
	Snapshot string `json:"snapshot"`
	Name     string `json:"name"`
}

// snapshot is what a picture is drawn from.
type snapshot struct {
	Game       string             `json:"game"`
	Title      string             `json:"title"`
	State      json.RawMessage    `json:"state"`
	Highlights picture.Highlights `json:"highlights"`
}

// deferred is a mail composed when it is sent.
type deferred struct {
	Out       Outgoing  `json:"out"`
	MessageID string    `json:"message_id"`
	Date      time.Time `json:"date"`
}

// mapRef keeps the snapshot of a game's position for the picture of a
// mail, when the configuration asks for pictures.
func (w *work) mapRef(g *adjudicator.Game, impulse string, events []rules.Event) (*MapRef, error) {
	if !w.h.cfg.Referee.MapPicture {
		return nil, nil
	}
	st, err := json.Marshal(g.State)
	if err != nil {
		return nil, err
	}
	snap, err := json.Marshal(snapshot{Game: g.ID, State: st, Highlights: picture.HighlightsOf(events),
		Title: fmt.Sprintf("Game %s — after impulse %s — German VP %d", g.ID, impulse, g.State.VP)})
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s/%d/%s", g.ID, g.Log, strings.ReplaceAll(impulse, " ", "-"))
	if err := w.tx.PutSnapshot(key, snap); err != nil {
		return nil, err
	}
	return &MapRef{Snapshot: key, Name: strings.ReplaceAll(fmt.Sprintf("%s-%s.png", g.ID, impulse), " ", "-")}, nil
}

// draw draws the picture of a snapshot.
func draw(tx *store.Tx, key string) ([]byte, error) {
	data := tx.Snapshot(key)
	if data == nil {
		return nil, fmt.Errorf("the picture's snapshot %s is missing", key)
	}
	var snap snapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", key, err)
	}
	s, err := tx.Scenario(snap.Game)
	if err != nil {
		return nil, err
	}
	st, err := rules.LoadState(s, snap.State)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", key, err)
	}
	return picture.Render(s, st, &picture.Options{Title: snap.Title, Highlights: snap.Highlights})
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
