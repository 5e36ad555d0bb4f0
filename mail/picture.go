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

// draw draws the picture of a snapshot in base64, as a mail carries it
// (see base64Lines), onto the end of out, and logs it (at debug level)
// with the time it took: drawing is the heaviest part of sending a report.
// The PNG goes from the renderer into its base64 as it is written, with
// no buffer of its own. The snapshot is read in a transaction of its own,
// and drawn after it: a read transaction held open would keep bbolt from
// growing the file meanwhile.
func draw(out []byte, st *store.Store, key string, log *slog.Logger) ([]byte, error) {
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
		return out, err
	}
	b := base64Lines{b: out}
	if err := snap.Draw(&b, s); err != nil {
		return out, fmt.Errorf("snapshot %s: %w", key, err)
	}
	log.Debug("map picture drawn", "game", snap.Game, "snapshot", key, "bytes", b.in, "took", time.Since(start))
	return b.close(), nil
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
	enc     *picture64    // the PNG in base64, as the mails carry it; the entry holds a reference until its last mail
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
// once for all of them, or takes it from the recent ones; the caller
// holds a reference to it, to give back (recentPictures.release).
func (p *pictures) draw(key string) (*picture64, error) {
	if enc := p.recent.get(key); enc != nil {
		return enc, nil
	}
	enc := p.recent.buffer()
	var err error
	if enc.b, err = draw(enc.b, p.st, key, p.log); err != nil {
		p.recent.release(enc)
		return nil, err
	}
	p.recent.put(key, enc)
	return enc, nil
}

// take returns a mail's picture, in base64: drawn ahead, or lately, or
// drawn now by the first mail that asks for it; the caller holds a
// reference to it, to give back once the mail is composed
// (recentPictures.release). The picture is forgotten once the last mail
// that carries it has taken it, and its place freed if it was drawn ahead.
func (p *pictures) take(m *store.Mail) (*picture64, error) {
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
	p.mu.Lock()
	defer p.mu.Unlock()
	// The entry's reference is given back under p.mu only, once: a
	// picture taken here is held while the entry still holds it, never
	// after its buffer may have gone to another picture.
	enc, err := pic.enc, pic.err
	if enc != nil {
		enc.refs.Add(1)
	}
	if pic.left--; pic.left <= 0 && p.m[m.Snapshot] == pic {
		delete(p.m, m.Snapshot)
		if pic.enc != nil {
			p.recent.release(pic.enc)
			pic.enc = nil
		}
		if pic.ahead {
			<-p.places
		}
	}
	if enc == nil && err == nil {
		return p.draw(m.Snapshot) // taken more often than it was queued: the entry's gone
	}
	return enc, err
}

// picture64 is a picture in base64, as the mails carry it, in a buffer
// used again for a later picture once nothing holds it: not the pictures
// of a Flush (the entry of its snapshot, until its last mail is taken),
// nor the recent ones, nor a mail being composed with it. Each holds a
// reference; the last to give its reference back frees the buffer.
type picture64 struct {
	b    []byte
	refs atomic.Int32
}

// recentPictures keeps the last few pictures drawn, by snapshot, in
// base64: a snapshot never changes once kept, nor does its picture. It
// keeps the buffers of the pictures nothing holds any more, for the next
// pictures: a picture is some 500 KB in base64, which a buffer of its own
// for each allocated and cleared.
type recentPictures struct {
	mu      sync.Mutex
	keys    []string // the latest last
	pngs    map[string]*picture64
	free    [][]byte
	largest int // the size of the largest picture freed
	// scribble, set by a test before the sender runs, has freed buffers
	// cleared: a mail composed with a picture freed too early then
	// carries zeros, not a PNG.
	scribble bool
}

// keptPictures is how many recentPictures keeps: a picture is 130 to 400
// KB, 180 to 550 in base64, and the mails of one impulse are queued
// together.
const keptPictures = 2

// freeBuffers is how many buffers no picture holds are kept: as many
// pictures are freed as drawn, so that one or two are enough.
const freeBuffers = 2

// get returns a picture kept, with a reference for the caller.
func (r *recentPictures) get(key string) *picture64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	enc := r.pngs[key]
	if enc != nil {
		enc.refs.Add(1) // under r.mu: the recent ones' reference is held still
		i := slices.Index(r.keys, key)
		r.keys = append(slices.Delete(r.keys, i, i+1), key)
	}
	return enc
}

// put keeps a picture, which the caller holds, unless one of its snapshot
// is kept already.
func (r *recentPictures) put(key string, enc *picture64) {
	r.mu.Lock()
	if r.pngs == nil {
		r.pngs = map[string]*picture64{}
	}
	if _, ok := r.pngs[key]; ok {
		r.mu.Unlock()
		return
	}
	var old *picture64
	if len(r.keys) == keptPictures {
		old = r.pngs[r.keys[0]]
		delete(r.pngs, r.keys[0])
		r.keys = slices.Delete(r.keys, 0, 1)
	}
	r.keys = append(r.keys, key)
	enc.refs.Add(1)
	r.pngs[key] = enc
	r.mu.Unlock()
	if old != nil {
		r.release(old)
	}
}

// buffer returns a new picture to draw in, a buffer no picture holds any
// more or a new one, with one reference for the caller.
func (r *recentPictures) buffer() *picture64 {
	enc := &picture64{}
	enc.refs.Store(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.free); n > 0 {
		enc.b, r.free = r.free[n-1], r.free[:n-1]
	} else {
		// As large as the largest picture yet and an eighth: one
		// allocation, where appending 500 KB would make several, and
		// room for a picture somewhat larger.
		enc.b = make([]byte, 0, r.largest+r.largest/8)
	}
	return enc
}

// release gives back a reference to a picture, and its buffer to the free
// ones if it was the last.
func (r *recentPictures) release(enc *picture64) {
	switch n := enc.refs.Add(-1); {
	case n < 0:
		panic("mail: a picture given back more often than it was held")
	case n > 0:
		return
	}
	n := len(enc.b)
	b := enc.b[:0]
	if r.scribble {
		clear(enc.b)
	}
	enc.b = nil
	r.mu.Lock()
	defer r.mu.Unlock()
	r.largest = max(r.largest, n)
	// A buffer smaller than the largest picture would most likely grow
	// for the next, which costs more than one of its own.
	if len(r.free) < freeBuffers && cap(b) >= r.largest {
		r.free = append(r.free, b)
	}
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
	var enc *picture64
	if m.Snapshot != "" {
		var err error
		if enc, err = pics.take(m); err != nil {
			return nil, fmt.Errorf("mail %d: drawing its map: %w", m.ID, err)
		}
		// Given back once the mail is composed, its picture copied.
		defer pics.recent.release(enc)
	}
	var d deferred
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("mail %d: %w", m.ID, err)
	}
	if d.Out.Map != nil && enc != nil {
		d.Out.Attachments = append(d.Out.Attachments, Attachment{Name: d.Out.Map.Name, Type: "image/png", encoded: enc.b})
	}
	buf.Reset()
	if _, err := composeTo(buf, s.from, &d.Out, d.Date, d.MessageID); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
