package mail

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
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

// draw draws the picture of a snapshot, and logs it (at debug level) with
// the time it took: drawing is the heaviest part of sending a report.
func draw(tx *store.Tx, key string, log *slog.Logger) ([]byte, error) {
	start := time.Now()
	data := tx.Snapshot(key)
	if data == nil {
		return nil, fmt.Errorf("the picture's snapshot %s is missing", key)
	}
	snap, err := referee.ReadSnapshot(data)
	if err != nil {
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
	log.Debug("map picture drawn", "game", snap.Game, "snapshot", key, "bytes", len(png), "took", time.Since(start))
	return png, nil
}

// pictures are the pictures of the mails of one Flush, each drawn once for
// the mails that carry it (both players' reports of an impulse, and the
// observers'), which may be sent at the same time, and forgotten when the
// last of them is made; the last few drawn are kept in recent besides, for
// the mails of the same impulse a later Flush sends (a retry, or a
// recipient's mail queued after the others).
type pictures struct {
	mu     sync.Mutex
	m      map[string]*picture // by snapshot
	recent *recentPictures
	log    *slog.Logger
}

type picture struct {
	once sync.Once
	png  []byte
	err  error
	left int // mails still to be made with it
}

func newPictures(due []*store.Mail, recent *recentPictures, log *slog.Logger) *pictures {
	p := &pictures{m: map[string]*picture{}, recent: recent, log: log}
	for _, m := range due {
		if m.Deferred && m.Snapshot != "" {
			if p.m[m.Snapshot] == nil {
				p.m[m.Snapshot] = &picture{}
			}
			p.m[m.Snapshot].left++
		}
	}
	return p
}

// get returns a mail's picture: one drawn lately, or drawn now by the first
// mail that asks for it.
func (p *pictures) get(tx *store.Tx, m *store.Mail) ([]byte, error) {
	p.mu.Lock()
	pic := p.m[m.Snapshot]
	p.mu.Unlock()
	draw := func() ([]byte, error) {
		if png := p.recent.get(m.Snapshot); png != nil {
			return png, nil
		}
		png, err := draw(tx, m.Snapshot, p.log)
		if err == nil {
			p.recent.put(m.Snapshot, png)
		}
		return png, err
	}
	if pic == nil {
		return draw()
	}
	pic.once.Do(func() { pic.png, pic.err = draw() })
	return pic.png, pic.err
}

// done forgets a mail's picture once the last mail that carries it is made.
func (p *pictures) done(m *store.Mail) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pic := p.m[m.Snapshot]; pic != nil {
		if pic.left--; pic.left <= 0 {
			delete(p.m, m.Snapshot)
		}
	}
}

// recentPictures keeps the last few pictures drawn, by snapshot: a
// snapshot never changes once kept, nor does its picture.
type recentPictures struct {
	mu   sync.Mutex
	keys []string // the latest last
	pngs map[string][]byte
}

// keptPictures is how many recentPictures keeps: a picture is 130 to 400
// KB, and the mails of one impulse are queued together.
const keptPictures = 2

func (r *recentPictures) get(key string) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	png := r.pngs[key]
	if png != nil {
		i := slices.Index(r.keys, key)
		r.keys = append(slices.Delete(r.keys, i, i+1), key)
	}
	return png
}

func (r *recentPictures) put(key string, png []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pngs == nil {
		r.pngs = map[string][]byte{}
	}
	if _, ok := r.pngs[key]; ok {
		return
	}
	if len(r.keys) == keptPictures {
		delete(r.pngs, r.keys[0])
		r.keys = slices.Delete(r.keys, 0, 1)
	}
	r.keys = append(r.keys, key)
	r.pngs[key] = png
}

// message returns the message of a queued mail: stored whole, or composed
// now with its picture.
func (s *Sender) message(m *store.Mail, pics *pictures) ([]byte, error) {
	var data, png []byte
	var err error
	s.st.View(func(tx *store.Tx) error {
		data = tx.MailData(m.ID)
		if m.Deferred && m.Snapshot != "" {
			png, err = pics.get(tx, m)
			pics.done(m)
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
	if d.Out.Map != nil && png != nil {
		d.Out.Attachments = append(d.Out.Attachments, Attachment{Name: d.Out.Map.Name, Type: "image/png", Data: png})
	}
	msg, _, err := ComposeAs(s.from, &d.Out, d.Date, d.MessageID)
	return msg, err
}
