package journal

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/picture"
	"titm/rules"
)

func (j *Journal) serveListJSON(w http.ResponseWriter, r *http.Request) {
	d, err := j.readList()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	p, err := j.listPage("api-list", d, func() (*page, error) {
		return jsonPage(struct {
			Games []row `json:"games"`
		}{d.Games}, d.mod, "api-list", d.heads)
	})
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

func (j *Journal) serveGameJSON(w http.ResponseWriter, r *http.Request, id string) {
	v, err := j.view(id, j.locOf(r).p)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	p, err := jsonPage(v, v.Changed, "api-game-"+v.Lang, v.Head, v.tourTag)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

// impulseJSON is one impulse as /api/games/{id}/impulses/{imp} gives it.
type impulseJSON struct {
	Game string `json:"game"`
	Lang string `json:"lang"` // the language of the report
	*impulse
	Step   int        `json:"step"`  // its place among the impulses that stand, from 1
	Steps  int        `json:"steps"` // how many stand
	Orders string     `json:"orders"`
	Rolls  []rollJSON `json:"rolls"`
	Report string     `json:"report"`
	Prev   string     `json:"prev,omitempty"`
	Next   string     `json:"next,omitempty"`
}

// rollJSON is a die as the JSON gives it.
type rollJSON struct {
	N       int    `json:"n"`
	Purpose string `json:"purpose"`
	Value   int    `json:"roll"`
	Draw    uint64 `json:"draw"`
}

// impulseOf finds a game's impulse named in a URL, or answers 400 for a
// name that is no impulse and 404 for one not played.
func (j *Journal) impulseOf(w http.ResponseWriter, r *http.Request, id, name string) (*gameView, *impulse, bool) {
	v, err := j.view(id, j.locOf(r).p)
	if err != nil {
		j.gameError(w, r, id, err)
		return nil, nil, false
	}
	imp, err := parseImpulse(name)
	if err != nil {
		j.fail(w, r, http.StatusBadRequest, rules.M("Not an impulse"), rules.M("%q is not an impulse: an impulse is written as G16-1 (the German impulse 1 of 16 December) or A16-1.", name))
		return nil, nil, false
	}
	iv := v.find(imp)
	if iv == nil {
		j.fail(w, r, http.StatusNotFound, rules.M("No such impulse"), rules.M("Game %s has not played impulse %s, or it was rolled back.", id, imp))
		return nil, nil, false
	}
	return v, iv, true
}

func (j *Journal) serveImpulseJSON(w http.ResponseWriter, r *http.Request, id, name string) {
	v, iv, ok := j.impulseOf(w, r, id, name)
	if !ok {
		return
	}
	out := impulseJSON{Game: v.ID, Lang: v.Lang, impulse: iv, Step: iv.step + 1, Steps: len(v.line), Orders: iv.orders, Report: iv.Report(), Rolls: []rollJSON{}}
	for n, d := range iv.rolls {
		out.Rolls = append(out.Rolls, rollJSON{N: n + 1, Purpose: d.Purpose, Value: d.Value, Draw: d.Draw})
	}
	if iv.step > 0 {
		out.Prev = v.line[iv.step-1].API
	}
	if iv.step+1 < len(v.line) {
		out.Next = v.line[iv.step+1].API
	}
	p, err := jsonPage(out, iv.Played, "api-impulse-"+iv.Impulse+"-"+v.Lang, iv.Head, v.Head)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

func (j *Journal) serveImpulsePicture(w http.ResponseWriter, r *http.Request, id, name string) {
	v, iv, ok := j.impulseOf(w, r, id, name)
	if !ok {
		return
	}
	data, err := j.impulsePicture(v, iv)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	// The picture of an impulse changes only when a rollback plays it
	// again, which changes its head.
	j.send(w, r, newPage(data, typePNG, iv.Played, "picture-"+iv.Impulse+"-"+v.Lang, iv.Head), "")
}

// impulsePicture returns the picture of the map as an impulse left it, in
// the view's language: drawn once, then kept.
func (j *Journal) impulsePicture(v *gameView, iv *impulse) ([]byte, error) {
	return j.pictures.do(v.ID+"\x00"+v.Lang+"\x00"+iv.Impulse+"\x00"+iv.Head, func() ([]byte, int64, error) {
		data, err := j.drawImpulse(v, iv)
		return data, int64(len(data)), err
	})
}

// drawImpulse draws the map as an impulse left it, from the game's log
// replayed up to it, with its battles and moves highlighted: the picture
// the report's mail carried.
func (j *Journal) drawImpulse(v *gameView, iv *impulse) ([]byte, error) {
	defer j.work()()
	g, log, err := j.src.Game(v.ID)
	if err != nil {
		return nil, err
	}
	if len(log) < iv.end || log[iv.end-1].Hash != iv.Head {
		return nil, errors.New("the log is not the one its page was made from")
	}
	s, err := g.Rules()
	if err != nil {
		return nil, err
	}
	rp, err := adjudicator.ReplayWith(s, g.Header(), log[:iv.end], v.seed)
	if err != nil {
		return nil, fmt.Errorf("replaying its log to %s: %w", iv.Impulse, err)
	}
	start := time.Now()
	data, err := adjudicator.PictureIn(v.p, rp.Game, iv.Impulse, rp.Events[iv.seq])
	j.log.Debug("journal: drew a picture", "game", v.ID, "impulse", iv.Impulse, "took", time.Since(start))
	return data, err
}

func (j *Journal) serveCurrentPicture(w http.ResponseWriter, r *http.Request, id string) {
	v, err := j.view(id, j.locOf(r).p)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	var data []byte
	if v.start {
		data, err = j.pictures.do(id+"\x00"+v.Lang+"\x00start\x00"+v.Head, func() ([]byte, int64, error) {
			data, err := j.drawStart(v)
			return data, int64(len(data)), err
		})
	} else {
		// The position now is the one the last impulse that stands left:
		// its picture is the same, and kept once.
		data, err = j.impulsePicture(v, v.line[len(v.line)-1])
	}
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	j.send(w, r, newPage(data, typePNG, v.Changed, "picture-"+v.Lang, v.Head), "")
}

// drawStart draws the map before the first impulse.
func (j *Journal) drawStart(v *gameView) ([]byte, error) {
	defer j.work()()
	g, _, err := j.src.Game(v.ID)
	if err != nil {
		return nil, err
	}
	s, err := g.Rules()
	if err != nil {
		return nil, err
	}
	return picture.Render(s, g.State, &picture.Options{Title: picture.TitleBefore(v.p, g.ID, g.State.Next, g.State.VP), Lang: v.p})
}

func (j *Journal) serveExport(w http.ResponseWriter, r *http.Request, id string) {
	s, err := j.src.Summary(id)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	if s.Status != adjudicator.Finished {
		j.fail(w, r, http.StatusNotFound, rules.M("Not published yet"), rules.M("The export of game %s is published when the game ends: before, it would tell the players' standing orders, and the seed is not revealed.", id))
		return
	}
	g, log, err := j.src.Game(id)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	// The public export: no record holds an address (a log commits to
	// each with a salted hash), and the export leaves out the addresses
	// and the salt, whatever the journal shows; titm verify checks the
	// rest of it.
	x := adjudicator.MakeExport(g, log).Public()
	p, err := jsonPage(x, log[len(log)-1].Time, "public-export", g.Head)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", id+".json"))
	j.send(w, r, p, "")
}
