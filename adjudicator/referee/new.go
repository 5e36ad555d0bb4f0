package referee

import (
	"errors"
	"fmt"
	netmail "net/mail"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
	"titm/rules/scenarios"
)

// NewGame describes a game to make.
type NewGame struct {
	ID        string // "" for the scenario's name and a number
	Scenario  string // a shipped scenario's name or a scenario file
	German    string // the players' addresses
	Allied    string
	Observers []string
	Deadline  time.Duration // per impulse; 0 for the referee's
	// Languages are the players' languages (lang codes) as the director
	// chose them; a side not in it has his address's (Options.Languages)
	// or else the referee's.
	Languages map[rules.Side]string
	// Salt is the salt of the log's address commitments (adjudicator.
	// NewAddressSalt); "" draws one. A tournament gives its own.
	Salt string
}

// Created is a game just made: its id, commitment and the players' tokens,
// which are kept nowhere else once the welcome mails are sent.
type Created struct {
	*Result
	Commitment string
	Tokens     map[rules.Side]string
}

// New makes a game and welcomes each player with his token, to answer
// with JOIN.
func (r *Referee) New(tx Tx, o NewGame, now time.Time) (*Created, error) {
	now = clock(tx, now)
	s, files, main, err := scenarios.LoadFiles(o.Scenario)
	if err != nil {
		return nil, err
	}
	addrs := append([]string{o.German, o.Allied}, o.Observers...)
	for i, a := range addrs {
		ad, err := netmail.ParseAddress(a)
		if err != nil {
			return nil, fmt.Errorf("%q is not a mail address: %v", a, err)
		}
		addrs[i] = strings.ToLower(ad.Address)
	}
	if addrs[0] == addrs[1] {
		return nil, errors.New("the two players need two addresses: the address tells the sides apart")
	}
	if o.Deadline == 0 {
		o.Deadline = r.opt.Deadline
	}
	langs := map[rules.Side]string{}
	for side, code := range o.Languages {
		if code == "" {
			continue
		}
		if langs[side], err = lang.Parse(code); err != nil {
			return nil, fmt.Errorf("the %s player's language: %w", side.Title(), err)
		}
	}
	secret, err := adjudicator.NewSecret()
	if err != nil {
		return nil, err
	}
	tokens := map[rules.Side]string{}
	for _, side := range sides {
		if tokens[side], err = adjudicator.NewToken(); err != nil {
			return nil, err
		}
	}
	id := o.ID
	if id == "" {
		if id, err = tx.NewID(s.Name); err != nil {
			return nil, err
		}
	}
	g, recs, err := adjudicator.New(adjudicator.Options{ID: id, Scenario: s, Files: files, Main: main,
		German: addrs[0], Allied: addrs[1], Observers: addrs[2:], Deadline: o.Deadline,
		Tokens: tokens, Secret: secret, Salt: o.Salt, Now: now})
	if err != nil {
		return nil, err
	}
	// The game keeps each player's language as it is made: the
	// director's choice, else his address's (languageOf).
	for _, side := range sides {
		if code := langs[side]; code != "" || r.addressLanguage(g.Players[side].Address) != "" {
			g.Players[side].Language = r.languageOf(code, g.Players[side].Address)
		}
	}
	if err := tx.CreateGame(g, recs); err != nil {
		return nil, err
	}
	res := &Result{Game: g, Records: recs, Outcome: "made game " + id}
	res.Reply = fmt.Sprintf("game %s made; its players are welcomed and asked to JOIN", id)
	for _, side := range sides {
		p := r.printer(g, side)
		res.Mails = append(res.Mails, Mail{Game: id, Kind: KindWelcome, Secret: true, To: []string{g.Players[side].Address},
			Subject: p.Sprintf("[%s] welcome: you play the %s side", g.ID, side),
			Text:    welcomeText(p, g, side, tokens[side], r.opt.Address)})
	}
	return &Created{Result: res, Commitment: g.Commitment, Tokens: tokens}, nil
}
