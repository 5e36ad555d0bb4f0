package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/mail"
	"titm/rules"
	"titm/store"
)

// The game commands are requests: a command reads its flags into a
// request, has it served, on the store it opened or by the daemon that
// holds the store (through the control socket), and prints the response.
// Either way the same code serves it, with the referee's acts, so a
// command tells the players what a mail would.

// protocol is the version of the control socket's requests and responses.
const protocol = 1

// request is one game command, as the control socket carries it.
type request struct {
	Version int    `json:"version"`
	Act     string `json:"act"` // see (*host).serve
	Game    string `json:"game,omitempty"`

	Side   rules.Side    `json:"side,omitempty"`
	Seed   string        `json:"seed,omitempty"`   // join
	Text   string        `json:"text,omitempty"`   // play: the orders
	Reason string        `json:"reason,omitempty"` // the director's acts
	By     time.Duration `json:"by,omitempty"`     // extend
	To     string        `json:"to,omitempty"`     // rollback: the impulse
	// Impulse names an impulse of a stored game (report, render), "" for
	// the last played.
	Impulse string `json:"impulse,omitempty"`
	// Language is the code of the language of a report, "" for the
	// language of the player who played its impulse.
	Language string           `json:"language,omitempty"`
	New      *referee.NewGame `json:"new,omitempty"`
	Tour     *tourRequest     `json:"tour,omitempty"` // the tournament commands
}

// response is what serving a request gave: the fields of its act.
type response struct {
	Version int    `json:"version"`
	Error   string `json:"error,omitempty"`
	// ErrorKind says how the command reports Error: "usage" (a wrong
	// command line), "nogame" (no such game), or "" (any other).
	ErrorKind string `json:"error_kind,omitempty"`

	Game    *adjudicator.Game    `json:"game,omitempty"`    // the game after the act, or shown
	Records []adjudicator.Record `json:"records,omitempty"` // the act's records, or the game's log
	Events  []string             `json:"events,omitempty"`  // of the impulse played
	Errors  rules.OrderErrors    `json:"errors,omitempty"`  // the orders' errors, when refused for them
	Reply   string               `json:"reply,omitempty"`   // the referee's answer, as a player reads it
	Refused bool                 `json:"refused,omitempty"`
	// Queued is the number of mails queued to the players and observers;
	// Referee the address they come from ("" when none is known: no
	// daemon has run on the store, and none is queued).
	Queued  int    `json:"queued,omitempty"`
	Referee string `json:"referee,omitempty"`

	Tokens     map[rules.Side]string `json:"tokens,omitempty"` // new
	Rows       []gameRow             `json:"rows,omitempty"`   // games
	Mails      []*store.Mail         `json:"mails,omitempty"`  // show: the game's mails, without their text
	Export     *adjudicator.Export   `json:"export,omitempty"` // export
	Text       string                `json:"text,omitempty"`   // report
	Data       []byte                `json:"data,omitempty"`   // render: the PNG
	ImpulseRan string                `json:"impulse_ran,omitempty"`
	Ops        *opsResult            `json:"ops,omitempty"`  // backup, check-store, compact, status
	Tour       *tourResponse         `json:"tour,omitempty"` // the tournament commands, ratings
}

// host serves requests on an open store: in the daemon for the control
// socket, or in the command's own process.
type host struct {
	st   *store.Store
	ref  *referee.Referee
	from gomail.Address   // the referee's address; empty: no mail is queued
	now  func() time.Time // the clock
	wake func()           // tells the daemon's sender that mail is queued; nil outside it
	// status is the daemon's status; nil outside it.
	status func() (*mail.Status, error)
	// damage is where the daemon remembers damage met; nil outside it.
	damage *damage
}

// localHost is the host of a command that opened the store itself: the
// referee as the last daemon on the store ran it, whose mails that daemon
// sends when it next runs.
func localHost(st *store.Store, now func() time.Time) (*host, error) {
	h := &host{st: st, now: now}
	err := st.View(func(tx *store.Tx) error {
		opt, from, err := mail.StoredReferee(tx)
		h.ref, h.from = referee.New(opt), from
		return err
	})
	return h, err
}

// serve serves one request. An error of the request's own (a wrong game,
// orders refused) is in the response; a fault reaching the store is too,
// as the command reports any error the same way.
func (h *host) serve(req request) *response {
	resp, err := h.dispatch(req)
	if resp == nil {
		resp = &response{}
	}
	resp.Version = protocol
	if err != nil {
		resp.Error = err.Error()
		var ue usageError
		switch {
		case errors.As(err, &ue):
			resp.ErrorKind = "usage"
		case errors.Is(err, store.ErrNoGame):
			resp.ErrorKind = "nogame"
		}
	}
	return resp
}

func (h *host) dispatch(req request) (*response, error) {
	if req.Version != protocol {
		return nil, fmt.Errorf("a request of version %d; this daemon speaks version %d: run the same titm as the daemon", req.Version, protocol)
	}
	if act, ok := acts[req.Act]; ok {
		return h.act(req, act)
	}
	if view, ok := views[req.Act]; ok {
		return view(h, req)
	}
	if op, ok := ops[req.Act]; ok {
		return op(h, req)
	}
	return nil, fmt.Errorf("no act %q", req.Act)
}

// actFunc does a request's act with the referee, in tx.
type actFunc func(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error)

// acts are the requests that change a game, each a referee's act; views
// the requests that read.
var acts, views = requests()

// requests returns the tables of the requests: the games' and the
// tournaments'.
func requests() (map[string]actFunc, map[string]viewFunc) {
	acts := map[string]actFunc{
		"new":      actNew,
		"join":     actJoin,
		"play":     actPlay,
		"pause":    actPause,
		"resume":   actResume,
		"extend":   actExtend,
		"rollback": actRollback,
	}
	views := gameViews()
	tournamentRequests(acts, views)
	return acts, views
}

// act runs an act in one transaction with the queueing of its mails, then
// wakes the sender.
func (h *host) act(req request, act actFunc) (*response, error) {
	var resp *response
	err := h.st.Update(func(tx *store.Tx) error {
		now := h.now()
		res, r, err := act(h, tx, req, now)
		if err != nil {
			return err
		}
		resp = r
		if resp == nil {
			resp = &response{}
		}
		resp.Game, resp.Records, resp.Reply, resp.Refused, resp.Errors = res.Game, res.Records, res.Reply, res.Refused, res.Errors
		for _, e := range res.Events {
			resp.Events = append(resp.Events, e.String())
		}
		if h.from.Address == "" || res.Refused {
			return nil
		}
		resp.Referee, resp.Queued = h.from.Address, len(res.Mails)
		return mail.Queue(tx, h.from, res.Mails, now)
	})
	if err != nil {
		return nil, err
	}
	if resp.Queued > 0 && h.wake != nil {
		h.wake()
	}
	return resp, nil
}

func actNew(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
	if req.New == nil {
		return nil, nil, usageError{"new: no game described"}
	}
	c, err := h.ref.New(tx, *req.New, now)
	var ps rules.Problems
	if errors.As(err, &ps) {
		return nil, nil, fmt.Errorf("scenario %s cannot be used; its data has %d problem(s):\n%w", req.New.Scenario, len(ps), ps)
	}
	if err != nil {
		return nil, nil, err
	}
	return c.Result, &response{Tokens: c.Tokens}, nil
}

func actJoin(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
	res, err := h.ref.Join(tx, req.Game, req.Side, req.Seed, now)
	if err == nil && res.Refused {
		// A command that cannot be done is an error, as with the
		// director's acts, not an answer.
		return nil, nil, errors.New(firstLine(res.Reply))
	}
	return res, nil, err
}

func actPlay(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
	g, err := tx.Summary(req.Game)
	if err != nil {
		return nil, nil, err
	}
	// The command is the operator's, who needs no token; a TOKEN line
	// given is checked as a mail's is, and refused with the same words.
	if res := h.ref.Unproven(g, req.Side, referee.ReadHeading(req.Text).Token, "", false); res != nil {
		return nil, nil, errors.New(strings.TrimSpace(res.Reply))
	}
	res, err := h.ref.Orders(tx, req.Game, req.Side, req.Text, now)
	return res, nil, err
}

func actPause(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
	res, err := h.ref.Pause(tx, req.Game, req.Reason, now)
	return res, nil, err
}

func actResume(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
	res, err := h.ref.Resume(tx, req.Game, req.Reason, now)
	return res, nil, err
}

func actExtend(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
	res, err := h.ref.Extend(tx, req.Game, req.By, req.Reason, now)
	return res, nil, err
}

func actRollback(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
	to, err := rules.ParseImpulse(req.To)
	if err != nil {
		return nil, nil, usageError{fmt.Sprintf("--to %q: %v; give the impulse as G17-2 or A17-2", req.To, err)}
	}
	res, err := h.ref.Rollback(tx, req.Game, to, req.Reason, now)
	return res, nil, err
}

// responseError is the error a response carries, as the command reports it.
func (r *response) err() error {
	switch {
	case r.Error == "":
		return nil
	case r.ErrorKind == "usage":
		return usageError{r.Error}
	case r.ErrorKind == "nogame":
		return noGame(r.Error)
	}
	return errors.New(r.Error)
}

// noGame is store.ErrNoGame as the daemon told it.
type noGame string

func (e noGame) Error() string        { return string(e) }
func (e noGame) Is(target error) bool { return target == store.ErrNoGame }
