package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"titm/adjudicator/referee"
	"titm/rules"
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
// the time it took: drawing is the heaviest part of sending a report. The
// snapshot is read in a transaction of its own, and drawn after it: a read
// transaction held open would keep bbolt from growing the file meanwhile.
func draw(st *store.Store, key string, log *slog.Logger) ([]byte, error) {
	start := time.Now()
	var snap *referee.Snapshot
	var s *rules.Scenario
	err := st.View(func(tx *store.Tx) error {
		data := tx.Snapshot(key)
		if data == nil {
			return fmt.Errorf("the picture's snapshot %s is missing", key)
		}
		var err error
		if snap, err = referee.ReadSnapshot(data); err != nil {
			return fmt.Errorf("snapshot %s: %w", key, err)
		}
		s, err = tx.Scenario(snap.Game)
		return err
	})
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
//
// The pictures are drawn ahead of the mails (render), in lanes of their
// own, as many as the processor has cores: while the mails of one impulse
// go out, the pictures of the next are drawn. A picture drawn ahead holds
// one of picturesAhead places until its last mail is made, which bounds
// the memory they take: a render takes a few MB while it runs, and a
// picture up to 550 KB once drawn and put in base64, which is done once
// for all its mails. A mail whose picture no lane has begun
// draws it itself.
type pictures struct {
	mu     sync.Mutex
	m      map[string]*picture // by snapshot
	order  []string            // the snapshots, in the order of their first mails
	places chan struct{}       // a token for each picture drawn ahead and not yet taken by all its mails
	st     *store.Store
	recent *recentPictures
	log    *slog.Logger
}

type picture struct {
	claimed atomic.Bool   // someone draws it, or has drawn it
	ready   chan struct{} // closed once drawn
	enc     []byte        // the PNG in base64, as the mails carry it
	err     error
	left    int  // mails still to be made with it
	ahead   bool // drawn ahead, holding a place
}

// picturesAhead is how many pictures at most are drawn ahead of their
// mails, drawing or drawn.
const picturesAhead = 4

func newPictures(due []*store.Mail, st *store.Store, recent *recentPictures, log *slog.Logger) *pictures {
	p := &pictures{m: map[string]*picture{}, places: make(chan struct{}, picturesAhead), st: st, recent: recent, log: log}
	for _, m := range due {
		if m.Deferred && m.Snapshot != "" {
			if p.m[m.Snapshot] == nil {
				p.m[m.Snapshot] = &picture{ready: make(chan struct{})}
				p.order = append(p.order, m.Snapshot)
			}
			p.m[m.Snapshot].left++
		}
	}
	return p
}

// render draws the pictures ahead of their mails, in up to lanes at once,
// until all are drawn or ctx ends; the returned function waits for the
// lanes to end.
func (p *pictures) render(ctx context.Context, lanes int) (wait func()) {
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(lanes, len(p.order), picturesAhead) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(p.order) {
					return
				}
				select {
				case p.places <- struct{}{}:
				case <-ctx.Done():
					return
				}
				p.mu.Lock()
				pic := p.m[p.order[i]]
				p.mu.Unlock()
				if pic == nil || !pic.claimed.CompareAndSwap(false, true) {
					<-p.places // a mail draws it, or has: no place is held
					continue
				}
				pic.ahead = true
				pic.enc, pic.err = p.draw(p.order[i])
				close(pic.ready)
			}
		})
	}
	return wg.Wait
}

// draw draws a picture and encodes it in base64 as the mails carry it,
// once for all of them, or takes it from the recent ones.
func (p *pictures) draw(key string) ([]byte, error) {
	if enc := p.recent.get(key); enc != nil {
		return enc, nil
	}
	png, err := draw(p.st, key, p.log)
	if err != nil {
		return nil, err
	}
	enc := encodeBase64(png)
	p.recent.put(key, enc)
	return enc, nil
}

// get returns a mail's picture, in base64: drawn ahead, or lately, or
// drawn now by the first mail that asks for it.
func (p *pictures) get(m *store.Mail) ([]byte, error) {
	p.mu.Lock()
	pic := p.m[m.Snapshot]
	p.mu.Unlock()
	if pic == nil {
		return p.draw(m.Snapshot)
	}
	if pic.claimed.CompareAndSwap(false, true) {
		pic.enc, pic.err = p.draw(m.Snapshot)
		close(pic.ready)
	}
	<-pic.ready
	return pic.enc, pic.err
}

// done forgets a mail's picture once the last mail that carries it is
// made, and frees its place if it was drawn ahead.
func (p *pictures) done(m *store.Mail) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pic := p.m[m.Snapshot]; pic != nil {
		if pic.left--; pic.left <= 0 {
			delete(p.m, m.Snapshot)
			if pic.ahead {
				<-p.places
			}
		}
	}
}

// recentPictures keeps the last few pictures drawn, by snapshot, in
// base64: a snapshot never changes once kept, nor does its picture.
type recentPictures struct {
	mu   sync.Mutex
	keys []string // the latest last
	pngs map[string][]byte
}

// keptPictures is how many recentPictures keeps: a picture is 130 to 400
// KB, 180 to 550 in base64, and the mails of one impulse are queued
// together.
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
// now with its picture, into buf, whose bytes it returns then.
func (s *Sender) message(m *store.Mail, pics *pictures, buf *bytes.Buffer) ([]byte, error) {
	var data []byte
	s.st.View(func(tx *store.Tx) error {
		data = tx.MailData(m.ID)
		return nil
	})
	if !m.Deferred {
		return data, nil
	}
	var enc []byte
	if m.Snapshot != "" {
		var err error
		enc, err = pics.get(m)
		pics.done(m)
		if err != nil {
			return nil, fmt.Errorf("mail %d: drawing its map: %w", m.ID, err)
		}
	}
	var d deferred
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("mail %d: %w", m.ID, err)
	}
	if d.Out.Map != nil && enc != nil {
		d.Out.Attachments = append(d.Out.Attachments, Attachment{Name: d.Out.Map.Name, Type: "image/png", encoded: enc})
	}
	buf.Reset()
	if _, err := composeTo(buf, s.from, &d.Out, d.Date, d.MessageID); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
