package referee

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/picture"
	"titm/rules"
)

// The map picture (Options.MapPicture) is drawn when its mail is sent, not
// when the mail is queued: the store keeps the position it is drawn from,
// some 40 KB an impulse, instead of the picture in every mail, and the
// drawing runs beside the handling of the next mail instead of before it.

// MapRef names the picture a mail carries: the snapshot it is drawn from,
// the attachment's file name and the language it is drawn in. The
// snapshot says the language too: a picture in each language read is
// kept, and drawn once for all the mails in that language.
type MapRef struct {
	Snapshot string `json:"snapshot"`
	Name     string `json:"name"`
	Language string `json:"language,omitempty"` // a lang code; "" English
}

// Snapshot is what a picture is drawn from, as the store keeps it.
type Snapshot struct {
	Game       string             `json:"game"`
	Title      string             `json:"title"`
	State      json.RawMessage    `json:"state"`
	Highlights picture.Highlights `json:"highlights"`
	// Language is the language of the picture's texts (its title, the
	// line under it, the legend), a lang code; "" is English, as the
	// snapshots kept before pictures had a language.
	Language string `json:"language,omitempty"`
}

// Draw draws the picture of a snapshot on its game's scenario, in its
// language, and writes its PNG to w as it is put together (see
// picture.RenderTo): the mail puts it in base64 as it comes.
func (sn *Snapshot) Draw(w io.Writer, s *rules.Scenario) error {
	st, err := rules.LoadState(s, sn.State)
	if err != nil {
		return fmt.Errorf("the position of game %s: %w", sn.Game, err)
	}
	return picture.RenderTo(w, s, st, sn.options())
}

func (sn *Snapshot) options() *picture.Options {
	return &picture.Options{Title: sn.Title, Highlights: sn.Highlights, Lang: lang.For(sn.Language)}
}

// The impulses mapRef is given for a picture that is not of the position
// after an impulse: the position as it stands, as STATUS shows it, and
// the scenario's start, as the game's first mail and BRIEF show it.
const (
	statusPicture = "in play"
	startPicture  = "start"
)

// pictureTitle is the title of the picture of a game after an impulse, or
// of the position as it stands (statusPicture): before the impulse to play
// next. The start's picture is of the position before the first impulse.
func pictureTitle(p *lang.Printer, g *adjudicator.Game, impulse string) string {
	if impulse != statusPicture && impulse != startPicture {
		return picture.TitleAfter(p, g.ID, impulse, g.State.VP)
	}
	if g.State.Over {
		return picture.TitleOver(p, g.ID, g.State.VP)
	}
	return picture.TitleBefore(p, g.ID, g.State.Next, g.State.VP)
}

// mapRef keeps the snapshot of a game's position for the picture of a
// mail in the language of p, when the referee sends pictures. The
// snapshot of an English picture is kept under the key it always had;
// another language's under that key and its code.
func (r *Referee) mapRef(tx Tx, g *adjudicator.Game, impulse string, events []rules.Event, p *lang.Printer) (*MapRef, error) {
	if !r.opt.MapPicture {
		return nil, nil
	}
	st, err := json.Marshal(g.State)
	if err != nil {
		return nil, err
	}
	code := p.Code()
	if code == lang.English {
		code = ""
	}
	snap, err := json.Marshal(Snapshot{Game: g.ID, State: st, Highlights: picture.HighlightsOf(events),
		Title: pictureTitle(p, g, impulse), Language: code})
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s/%d/%s", g.ID, g.Log, strings.ReplaceAll(impulse, " ", "-"))
	if code != "" {
		key += "/" + code
	}
	if err := tx.PutSnapshot(key, packSnapshot(snap)); err != nil {
		return nil, err
	}
	return &MapRef{Snapshot: key, Name: strings.ReplaceAll(fmt.Sprintf("%s-%s.png", g.ID, impulse), " ", "-"), Language: code}, nil
}

// A snapshot is kept deflated: the position's JSON, some 18 KB for the
// campaign, deflates to 3 KB, and the store writes, and the daemon maps into
// memory, every snapshot of every report until its mails are sent.

// packSnapshot deflates a snapshot's JSON.
func packSnapshot(js []byte) []byte {
	var b bytes.Buffer
	b.WriteString(snapshotMagic)
	snapshotWriter.Lock()
	defer snapshotWriter.Unlock()
	if snapshotWriter.w == nil {
		snapshotWriter.w, _ = flate.NewWriter(nil, flate.BestSpeed) // only a level out of range fails
	}
	zw := snapshotWriter.w
	zw.Reset(&b)
	zw.Write(js) // a bytes.Buffer fails not
	zw.Close()
	zw.Reset(nil) // nor is b kept
	return b.Bytes()
}

// snapshotWriter is the deflate writer of packSnapshot, kept for the
// process's life: a writer is some 600 KB of tables, too many to make for
// every report. A sync.Pool did not keep it: the collector empties the
// pool, and a daemon under its soft memory limit, drawing map pictures,
// collects several times between two reports.
var snapshotWriter struct {
	sync.Mutex
	w *flate.Writer
}

// snapshotMagic begins a deflated snapshot; a snapshot kept before they
// were deflated is JSON, which begins with "{".
const snapshotMagic = "titm-snapshot-deflate\n"

// ReadSnapshot reads a snapshot as the store keeps it.
func ReadSnapshot(data []byte) (*Snapshot, error) {
	var snap Snapshot
	rest, ok := bytes.CutPrefix(data, []byte(snapshotMagic))
	if !ok {
		if err := json.Unmarshal(data, &snap); err != nil {
			return nil, err
		}
		return &snap, nil
	}
	snapshotReader.Lock()
	defer snapshotReader.Unlock()
	sr := &snapshotReader
	src := bytes.NewReader(rest)
	if sr.r == nil {
		sr.r = flate.NewReader(src)
	} else if err := sr.r.(flate.Resetter).Reset(src, nil); err != nil {
		return nil, fmt.Errorf("inflating the snapshot: %w", err)
	}
	sr.js.Reset()
	_, err := sr.js.ReadFrom(sr.r)
	sr.r.(flate.Resetter).Reset(bytes.NewReader(nil), nil) // nor is rest kept
	if err != nil {
		return nil, fmt.Errorf("inflating the snapshot: %w", err)
	}
	// The JSON is read from the buffer kept, and nothing of the
	// snapshot holds on to it: Unmarshal copies what it keeps.
	if err := json.Unmarshal(sr.js.Bytes(), &snap); err != nil {
		return nil, err
	}
	return &snap, nil
}

// snapshotReader is the inflater of ReadSnapshot and the buffer of the
// JSON it reads, kept as snapshotWriter is: a reader is some 40 KB and
// its window 32 KB, and every map picture drawn reads a snapshot.
var snapshotReader struct {
	sync.Mutex
	r  io.ReadCloser
	js bytes.Buffer
}
