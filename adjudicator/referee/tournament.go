package referee

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
	"titm/rules/scenarios"
)

// The tournament's acts. A tournament's games are made by New as any game
// is, so that their players receive the same mails; the tournament is told
// when one ends (gameEnded, from Orders and Deadline) and pairs the next
// round when the last game of a round is over.

// KindTournament is the kind of a tournament's mails to its players:
// welcome, pairings, bids revealed, standings.
const KindTournament = "tournament"

// NewTournament makes a tournament from its file's text (name is the
// file's name, for the problems), welcomes each player with his token, the
// format and the schedule, and pairs the first round.
func (r *Referee) NewTournament(tx Tx, name string, text []byte, now time.Time) (*Result, error) {
	now = clock(tx, now)
	known := func(sc string) error { _, _, _, err := scenarios.LoadFiles(sc); return err }
	s, err := tournament.Parse(name, text, known)
	if err != nil {
		return nil, err
	}
	secret, err := adjudicator.NewSecret()
	if err != nil {
		return nil, err
	}
	tokens := make([]string, len(s.Players))
	for i := range tokens {
		if tokens[i], err = adjudicator.NewToken(); err != nil {
			return nil, err
		}
	}
	id, err := tx.NewID(slug(s.Name))
	if err != nil {
		return nil, err
	}
	t, err := tournament.New(id, s, secret, tokens, now)
	if err != nil {
		return nil, err
	}
	if err := tx.CreateTournament(t); err != nil {
		return nil, err
	}
	res := &Result{Tournament: t, Outcome: "made tournament " + id}
	for i, e := range t.Entrants {
		p := r.entrantPrinter(t, i)
		res.Mails = append(res.Mails, Mail{Kind: KindWelcome, Secret: true, To: []string{e.Address},
			Subject: p.Sprintf("[%s] welcome to %s", id, t.Name), Text: r.tournamentWelcome(p, t, i, tokens[i])})
	}
	if err := r.nextRound(tx, t, res, now); err != nil {
		return nil, err
	}
	res.Reply = fmt.Sprintf("tournament %s made: %d players, %s, %s; its players are welcomed and round 1 is paired\ncommitment %s",
		id, len(t.Entrants), t.Format, tournament.RoundsText(t.Settings.Rounds), t.Commitment)
	return res, tx.SaveTournament(t)
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slug makes an id's prefix of a tournament's name.
func slug(name string) string {
	s := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(s) > 24 {
		s = strings.TrimRight(s[:24], "-")
	}
	if s == "" {
		s = "tournament"
	}
	return s
}

// nextRound pairs the next round, unless the tournament is paused or over,
// and starts it.
func (r *Referee) nextRound(tx Tx, t *tournament.Tournament, res *Result, now time.Time) error {
	if t.Paused || t.Status == tournament.Over {
		return nil
	}
	recs, err := t.Pair(now)
	if err != nil {
		return err
	}
	res.TournamentRecords = append(res.TournamentRecords, recs...)
	round := t.Current()
	for _, p := range round.Pairings {
		if p.Bye() {
			r.tell(t, res, p.A, func(l *lang.Printer) (string, string) {
				return l.Sprintf("[%s] round %d: a bye", t.ID, round.N), layout(l, l.Sprintf(
					"You have a bye in round %d of %s: there is an odd number of players, and you are the\nlowest-ranked player who has not had one. It counts as a win (1 point).\n", round.N, t.Name))
			})
			continue
		}
		if !p.Sided() {
			for _, i := range []int{p.A, p.B} {
				o := t.Entrants[p.Opponent(i)]
				r.tell(t, res, i, func(l *lang.Printer) (string, string) {
					return l.Sprintf("[%s] round %d: your opponent is %s; send your bid", t.ID, round.N, o.Name), layout(l, l.Sprintf(
						"Round %d of %s pairs you with %s <%s>, in scenario %s.\n\n"+
							"The sides go by sealed bids. Answer with your tournament token and your bid:\n\n    TOURNAMENT %s\n    TOKEN your-tournament-token\n    BID german 3\n\n"+
							"a side and the VP you give up to play it (0 or more). The bids stay sealed until both are\n"+
							"in or the bids close at %s; then both are revealed to both of you.\n"+
							"Two bids for different sides give each his side, and nobody gives VP. Two for the same\n"+
							"side give it to the higher bid, whose VP are added to the opponent's result; equal bids\n"+
							"are decided by the tournament's dice, and so are two missing bids. A lone bid takes its\n"+
							"side for nothing.\n",
						round.N, t.Name, o.Name, o.Address, round.Scenario, t.ID, adjudicator.FormatTime(round.BidsDue)))
				})
			}
		}
	}
	return r.makeGames(tx, t, res, now)
}

// makeGames makes the games of the round in play whose sides are decided,
// with New, and tells both players their opponent, side and game.
func (r *Referee) makeGames(tx Tx, t *tournament.Tournament, res *Result, now time.Time) error {
	round := t.Current()
	for k, p := range round.Pairings {
		if p.Bye() || !p.Sided() || p.Game != "" || p.Done {
			continue
		}
		g, a := t.Entrants[p.German], t.Entrants[p.Opponent(p.German)]
		// The game's log commits to the players' addresses with the
		// tournament's salt: its commitments are the entrants', so that
		// verify sees, even in the public export, who played it.
		c, err := r.New(tx, NewGame{Scenario: round.Scenario, German: g.Address, Allied: a.Address, Deadline: t.Deadline,
			Languages: map[rules.Side]string{rules.German: g.Language, rules.Allied: a.Language}, Salt: t.Salt}, now)
		if err != nil {
			return fmt.Errorf("round %d pairing %d: %w", round.N, k+1, err)
		}
		res.Mails = append(res.Mails, c.Mails...)
		res.TournamentRecords = append(res.TournamentRecords, t.GameMade(round.N, k+1, c.Game.ID, now))
		for _, i := range []int{p.A, p.B} {
			side, o, id := p.SideOf(i), t.Entrants[p.Opponent(i)], c.Game.ID
			r.tell(t, res, i, func(l *lang.Printer) (string, string) {
				text := l.Sprintf("Round %d of %s: you play the %s side against %s <%s> in game %s (scenario %s).\n"+
					"The game's welcome mail brings your token for it; JOIN to begin.\n",
					round.N, t.Name, side, o.Name, o.Address, id, round.Scenario)
				if p.Bids[0] != nil || p.Bids[1] != nil {
					text += l.Sprintf("\nThe bids, revealed: %s bid %s, %s bid %s.\n", t.Entrants[p.A].Name, bidText(p.Bids[0]), t.Entrants[p.B].Name, bidText(p.Bids[1]))
				}
				if p.Give != 0 {
					giver := rules.German
					if p.Give < 0 {
						giver = rules.Allied
					}
					text += l.Sprintf("The %s side gives %d VP: they are added to the %s result at the game's end.\n", giver, abs(p.Give), giver.Enemy())
				}
				if t.ForfeitAfter == 0 {
					text += l.Sprintf("The tournament has no forfeit rule: a missed deadline never loses the game.\n")
				} else {
					text += l.Sprintf("A player who misses %s of this game loses it.\n", forfeitRule(t))
				}
				return l.Sprintf("[%s] round %d: game %s, the %s side against %s", t.ID, round.N, id, side, o.Name), layout(l, text)
			})
		}
	}
	return nil
}

// forfeitRule is the tournament's forfeit rule: the deadlines of a game
// that lose it to the player who misses them ("3 deadlines"). A
// tournament without one says so in sentences of their own.
func forfeitRule(t *tournament.Tournament) rules.Message {
	return rules.M("%d deadlines", t.ForfeitAfter)
}

// bidText is a bid as the players read it: "german 3", as BID takes it,
// or "no bid".
func bidText(b *tournament.Bid) rules.Message {
	if b == nil {
		return rules.M("no bid")
	}
	return rules.Plain(tournament.BidText(b))
}

// layout lays out a tournament's mail: English keeps the lines as the
// code writes them; another language, whose catalog writes paragraphs, is
// wrapped to 78 columns by display width.
func layout(p *lang.Printer, s string) string {
	if p.Code() == lang.English {
		return s
	}
	return wrap(s)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// entrantPrinter is the printer of a tournament's player's language: the
// one the tournament's file chose for him, else the one his address is
// given by the referee's settings, else the referee's. A player who takes
// another's place has no language of the file's (Tournament.Replace).
func (r *Referee) entrantPrinter(t *tournament.Tournament, i int) *lang.Printer {
	e := t.Entrants[i]
	return lang.For(r.languageOf(e.Language, e.Address))
}

// tell mails a tournament's player, in his language: write makes the
// subject and the text.
func (r *Referee) tell(t *tournament.Tournament, res *Result, i int, write func(p *lang.Printer) (subject, text string)) {
	subject, text := write(r.entrantPrinter(t, i))
	res.Mails = append(res.Mails, Mail{Kind: KindTournament, To: []string{t.Entrants[i].Address}, Subject: subject, Text: text})
}

// tellAll mails every player of a tournament and its director, each in
// his language (the director in the referee's), the text made once for
// each language.
func (r *Referee) tellAll(t *tournament.Tournament, res *Result, write func(p *lang.Printer) (subject, text string)) {
	type made struct{ subject, text string }
	by := map[string]made{}
	get := func(p *lang.Printer) made {
		m, ok := by[p.Code()]
		if !ok {
			m.subject, m.text = write(p)
			by[p.Code()] = m
		}
		return m
	}
	for i := range t.Entrants {
		m := get(r.entrantPrinter(t, i))
		res.Mails = append(res.Mails, Mail{Kind: KindTournament, To: []string{t.Entrants[i].Address}, Subject: m.subject, Text: m.text})
	}
	m := get(r.defaultPrinter())
	res.Mails = append(res.Mails, Mail{Kind: KindTournament, To: []string{t.Director}, Subject: m.subject, Text: m.text})
}

func (r *Referee) tournamentWelcome(p *lang.Printer, t *tournament.Tournament, i int, token string) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("Welcome to %s, a tournament of Tigers in the Mist (%s).\n\n", t.Name, t.ID))
	b.WriteString(p.Sprintf("Format: %s, %s; %d players. Scenario: %s.\n", tournament.FormatText(t.Format), rules.M("%d rounds", t.Settings.Rounds), len(t.Entrants), rules.List(t.Scenarios)))
	if t.ForfeitAfter == 0 {
		b.WriteString(p.Sprintf("Each impulse gives a player %s; the tournament has no forfeit rule: a missed deadline never loses a game.\n", human(t.Deadline)))
	} else {
		b.WriteString(p.Sprintf("Each impulse gives a player %s; a player who misses %s of a game loses it.\n", human(t.Deadline), forfeitRule(t)))
	}
	b.WriteString(p.Sprintf("Sides: %s. Tie-breaks after the points: %s.\n", tournament.SidesText(t.Sides), tournament.TieBreaksText(t.TieBreaks)))
	if t.RateUnplayed {
		b.WriteString(p.Sprintf("Ratings: a game not played out on the board (a forfeit, a withdrawal, the director's decision) is rated as a played one.\n\n"))
	} else {
		b.WriteString(p.Sprintf("Ratings: a game not played out on the board (a forfeit, a withdrawal, the director's decision) is left out.\n\n"))
	}
	now := rules.M("round 1 is paired now")
	if n := len(t.Rounds); n > 0 {
		now = rules.M("round %d of %d is in play", n, t.Settings.Rounds)
	}
	b.WriteString(p.Sprintf("Schedule: %s; each next round is paired when the last game of the\nround before ends. Each game of a round is made at once, with its own welcome mail.\n\n", now))
	b.WriteString(p.Sprintf("Your secret tournament token:\n\n    %s\n\n", token))
	b.WriteString(p.Sprintf("Put it on a TOKEN line, with TOURNAMENT %s, in the mails you send to the referee\n(%s) about the tournament:\n\n", t.ID, r.opt.Address))
	if t.Sides == tournament.SidesBids {
		b.WriteString(p.Sprintf("    BID german 3     your sealed bid for a round's sides (VP you give up to play it)\n"))
	}
	b.WriteString(p.Sprintf("    STANDINGS        the standings\n\nThe players:\n"))
	for j, e := range t.Entrants {
		fmt.Fprintf(&b, "  %2d  %s <%s>\n", j+1, e.Name, e.Address)
	}
	b.WriteString(p.Sprintf("\nThe side decisions are kept in the tournament's log with every die; the commitment to\nthe seed of its dice is %s.\n", t.Commitment))
	return layout(p, b.String()) + otherLanguages(p, true)
}

// TournamentRequest is what a tournament's player asks by mail: a bid
// (BID german 3), the standings (STANDINGS), the lines he may write (HELP).
type TournamentRequest struct {
	Bid       []string // the words after BID; nil if none
	Standings bool
	Help      bool
}

// Tournament answers a tournament's player: his bid is taken or refused
// with the reason (nothing changed), and STANDINGS answered. The door has
// checked his address; token is his tournament token.
func (r *Referee) Tournament(tx Tx, id, address, token string, q TournamentRequest, now time.Time) (*Result, error) {
	now = clock(tx, now)
	t, err := tx.Tournament(id)
	if err != nil {
		return nil, err
	}
	res := &Result{Tournament: t}
	i := t.Player(address)
	if i < 0 || !t.Authentic(i, token) {
		// Whose mail it is the token would say: the address's language.
		p := lang.For(r.languageOf("", address))
		res.Refused, res.Outcome = true, "refused: missing or wrong tournament token"
		res.Reply = layout(p, p.Sprintf("Your mail to tournament %s was refused: it had no TOKEN line with your tournament token,\nor a wrong one. Nothing in it was applied.\n", id))
		return res, nil
	}
	p := r.entrantPrinter(t, i)
	var answers []string
	if q.Bid != nil {
		b, err := tournament.ParseBid(q.Bid)
		if err == nil {
			var recs []tournament.Record
			recs, err = t.Bid(i, b, now)
			if err == nil {
				res.TournamentRecords = append(res.TournamentRecords, recs...)
				answers = append(answers, layout(p, p.Sprintf("Your bid, %s, is in and sealed. It is revealed to both of you when your opponent's\nis in or the bids close at %s.", bidText(&b), adjudicator.FormatTime(t.Current().BidsDue))))
				if err := r.makeGames(tx, t, res, now); err != nil {
					return nil, err
				}
				if err := tx.SaveTournament(t); err != nil {
					return nil, err
				}
				res.Outcome = "bid"
			}
		}
		if err != nil {
			var eb *tournament.ErrBid
			if !errors.As(err, &eb) {
				return nil, err
			}
			return res.refuse(p.Sprintf("BID: %s.\nNothing was changed.\n", rules.MessageOf(err)), "bid: "+err.Error()), nil
		}
	}
	if q.Standings {
		answers = append(answers, standingsText(p, t))
		if res.Outcome == "" {
			res.Outcome = "standings"
		}
	}
	if q.Help {
		answers = append(answers, EntrantHelp(p))
		if res.Outcome == "" {
			res.Outcome = "help"
		}
	}
	res.Reply = strings.Join(answers, "\n\n") + "\n"
	return res, nil
}

// standingsText writes the standings with the round in play, in p's
// language. The table is the tournament's own (Tournament.WriteStandingsIn).
func standingsText(p *lang.Printer, t *tournament.Tournament) string {
	var b strings.Builder
	done := 0
	for _, r := range t.Rounds {
		if r.Done() {
			done++
		}
	}
	if t.Status == tournament.Over {
		b.WriteString(p.Sprintf("Standings of %s (%s) after %d of %s: final", t.Name, t.ID, done, rules.M("%d rounds", t.Settings.Rounds)))
	} else {
		b.WriteString(p.Sprintf("Standings of %s (%s) after %d of %s", t.Name, t.ID, done, rules.M("%d rounds", t.Settings.Rounds)))
	}
	b.WriteString("\n\n")
	t.WriteStandingsIn(p, &b)
	b.WriteString(p.Sprintf("\nPoints: 1 a win or a bye, 1/2 a draw. Tie-breaks: %s.\nLog head %s\n", tournament.TieBreaksText(t.TieBreaks), t.Head))
	return b.String()
}

// TournamentStandings is the standings' text in English, as STANDINGS
// answers it.
func TournamentStandings(t *tournament.Tournament) string { return standingsText(lang.EN(), t) }

// gameEnded tells a game's tournament, if it has one, that the game is
// over: its result enters the standings; the last game of a round has the
// standings mailed to everyone and the next round paired. A game of a
// tournament whose player has missed the tournament's number of
// deadlines is first ended as his forfeit.
func (r *Referee) gameEnded(tx Tx, res *Result, now time.Time) error {
	g := res.Game
	if g == nil || len(res.Records) == 0 {
		return nil
	}
	if g.Status != adjudicator.Finished && g.Players[rules.German].Missed == 0 && g.Players[rules.Allied].Missed == 0 {
		// Neither over nor late: no need to look for its tournament.
		return nil
	}
	id, err := tx.TournamentOf(g.ID)
	if err != nil || id == "" {
		return err
	}
	t, err := tx.Tournament(id)
	if err != nil {
		return err
	}
	if g.Status != adjudicator.Finished && t.ForfeitAfter > 0 {
		for _, side := range sides {
			if g.Players[side].Missed >= t.ForfeitAfter {
				// The log keeps the reason in English, as every reason.
				reason := rules.M("the %s player missed %d deadlines (the tournament's forfeit rule)", side, g.Players[side].Missed)
				recs, err := g.Adjudicate(side, reason.String(), now)
				if err != nil {
					return err
				}
				if err := tx.SaveGame(g, recs); err != nil {
					return err
				}
				res.Records = append(res.Records, recs...)
				r.toAll(res, g, func(p *lang.Printer) string {
					return p.Sprintf("Game %s is over: %s, so the %s side wins by forfeit.\nThe game's seed is revealed in its log.", g.ID, reason, side.Enemy())
				})
				break
			}
		}
	}
	if g.Status != adjudicator.Finished {
		return nil
	}
	return r.enterResult(tx, t, g, "", res, now)
}

// enterResult enters a finished game's result into its tournament.
func (r *Referee) enterResult(tx Tx, t *tournament.Tournament, g *adjudicator.Game, how string, res *Result, now time.Time) error {
	_, p, _ := t.Find(g.ID)
	if p == nil || p.Done {
		return nil
	}
	s, err := g.Rules()
	if err != nil {
		return fmt.Errorf("tournament %s: the result of game %s: %w", t.ID, g.ID, err)
	}
	// tournament.End is what verify derives the result with, from the
	// game's export.
	e := tournament.End(g.Result, g.State.VP, p.Give, &s.Victory, how)
	recs, err := t.Result(g.ID, e, now)
	if err != nil {
		return err
	}
	res.TournamentRecords = append(res.TournamentRecords, recs...)
	res.Tournament = t
	if err := r.roundOver(tx, t, res, now); err != nil {
		return err
	}
	return tx.SaveTournament(t)
}

// roundOver, once every pairing of the round in play is over, sends every
// player the standings and pairs the next round.
func (r *Referee) roundOver(tx Tx, t *tournament.Tournament, res *Result, now time.Time) error {
	if round := t.Current(); round.Done() {
		r.tellAll(t, res, func(p *lang.Printer) (string, string) {
			text := standingsText(p, t)
			if t.Paused && t.Status != tournament.Over {
				// Nothing is paired while paused: the players are not
				// to wait for the next round's mail.
				text += "\n" + layout(p, p.Sprintf("The tournament is paused by the director: round %d is paired when the director resumes it.\n", round.N+1))
			}
			return p.Sprintf("[%s] standings after round %d", t.ID, round.N), text
		})
		if err := r.nextRound(tx, t, res, now); errors.Is(err, tournament.ErrNoPairing) {
			// The result stands; the director decides what comes next.
			p := r.defaultPrinter()
			res.Mails = append(res.Mails, Mail{Kind: KindTournament, To: []string{t.Director},
				Subject: p.Sprintf("[%s] round %d cannot be paired", t.ID, round.N+1),
				Text:    layout(p, p.Sprintf("Round %d of %s cannot be paired: %s.\nThe tournament waits; end it with TOURNAMENT PAUSE, or withdraw a player.\n", round.N+1, t.Name, rules.MessageOf(err)))})
		} else if err != nil {
			return err
		}
	}
	return nil
}

// TournamentTick closes the bids that are due and pairs a round a paused
// tournament held back, in every running tournament: the daemon's clock
// calls it. The bids close when due even while the tournament is paused,
// and the games they decide are made, as the games in play go on: the
// players were told when the bids close, and a pause holds back only the
// pairing of the next round (docs/tournaments.md).
func (r *Referee) TournamentTick(tx Tx, now time.Time) (*Result, error) {
	now = clock(tx, now)
	ts, err := tx.Tournaments()
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, s := range ts {
		if s.Status == tournament.Over {
			continue
		}
		c := s.Current()
		due := c != nil && !c.Done() && s.BidsOpen() && !now.Before(c.BidsDue)
		if held := c == nil || c.Done(); !due && (!held || s.Paused) {
			continue
		}
		t, err := tx.Tournament(s.ID)
		if err != nil {
			return nil, err
		}
		n := len(res.TournamentRecords)
		recs, err := t.CloseBids(now)
		if err != nil {
			return nil, err
		}
		res.TournamentRecords = append(res.TournamentRecords, recs...)
		if err := r.makeGames(tx, t, res, now); err != nil {
			return nil, err
		}
		if c := t.Current(); c == nil || c.Done() {
			// nextRound pairs nothing while the tournament is paused.
			if err := r.nextRound(tx, t, res, now); err != nil {
				return nil, err
			}
		}
		if len(res.TournamentRecords) > n {
			if err := tx.SaveTournament(t); err != nil {
				return nil, err
			}
		}
	}
	res.Outcome = fmt.Sprintf("%d tournament record(s)", len(res.TournamentRecords))
	return res, nil
}

// The director's acts on a tournament.

// TournamentPause pauses a tournament: no round is paired until it
// resumes. The games in play go on.
func (r *Referee) TournamentPause(tx Tx, id, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (text, error) {
		rec, err := t.Pause(reason, now)
		res.TournamentRecords = append(res.TournamentRecords, rec)
		return func(p *lang.Printer) string {
			return p.Sprintf("The director has paused %s: %s.\nThe games in play go on, and the bids of the round in play close when due; no round is paired until the director resumes it.", t.Name, reason)
		}, err
	})
}

// TournamentResume resumes a paused tournament, pairing the next round if
// the one before is over.
func (r *Referee) TournamentResume(tx Tx, id, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (text, error) {
		rec, err := t.Resume(reason, now)
		if err != nil {
			return nil, err
		}
		res.TournamentRecords = append(res.TournamentRecords, rec)
		if c := t.Current(); c == nil || c.Done() {
			if err := r.nextRound(tx, t, res, now); err != nil {
				return nil, err
			}
		}
		return func(p *lang.Printer) string { return p.Sprintf("The director has resumed %s: %s.", t.Name, reason) }, nil
	})
}

// TournamentReplace gives a player's place to another: his game in play
// goes on with the new address and a new token, and the new player is
// welcomed with both tokens. who is the old player's address or name.
// Without a name the new player is called by his address's local part: the
// standings go to every player, and an address is not shown to them.
func (r *Referee) TournamentReplace(tx Tx, id, who, name, address, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	address = strings.ToLower(strings.TrimSpace(address))
	if name == "" {
		name, _, _ = strings.Cut(address, "@")
	}
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (text, error) {
		i := findPlayer(t, who)
		if i < 0 {
			return nil, fmt.Errorf("no player %s in tournament %s", who, t.ID)
		}
		old, oldName := t.Entrants[i].Address, t.Entrants[i].Name
		token, err := adjudicator.NewToken()
		if err != nil {
			return nil, err
		}
		impulse, err := takenOver(tx, t, i)
		if err != nil {
			return nil, err
		}
		rec, err := t.Replace(i, name, address, token, reason, impulse, now)
		if err != nil {
			return nil, err
		}
		res.TournamentRecords = append(res.TournamentRecords, rec)
		np := r.entrantPrinter(t, i)
		text := r.tournamentWelcome(np, t, i, token)
		for _, round := range t.Rounds {
			for _, p := range round.Pairings {
				if p.Of(i) < 0 || p.Game == "" || p.Done {
					continue
				}
				g, err := tx.Game(p.Game)
				if err != nil {
					return nil, err
				}
				side := p.SideOf(i)
				gt, err := adjudicator.NewToken()
				if err != nil {
					return nil, err
				}
				g.ReplacePlayer(side, address, adjudicator.HashToken(gt))
				// His predecessor's language is not his: his address's,
				// or the referee's.
				g.Players[side].Language = r.addressLanguage(address)
				if err := tx.SaveGame(g, nil); err != nil {
					return nil, err
				}
				if err := tx.IndexGame(g); err != nil {
					return nil, err
				}
				text += layout(np, np.Sprintf("\nYou take over the %s side of game %s, where it stands. Your token for that game:\n\n    %s\n\nSend STATUS (with GAME %s and that TOKEN) to see the position.\n", side, g.ID, gt, g.ID))
				op := r.printer(g, side.Enemy())
				res.send(g, KindReport, g.Players[side.Enemy()].Address, op.Sprintf("[%s] your opponent is replaced", g.ID),
					layout(op, op.Sprintf("The director has replaced your opponent in game %s: %s <%s> plays the %s side from now on (%s).\n", g.ID, t.Entrants[i].Name, address, side, reason)), nil)
			}
		}
		res.Mails = append(res.Mails, Mail{Kind: KindWelcome, Secret: true, To: []string{address}, Subject: np.Sprintf("[%s] welcome to %s: you take a player's place", t.ID, t.Name), Text: text})
		newName := t.Entrants[i].Name
		return func(p *lang.Printer) string {
			return p.Sprintf("The director has replaced %s <%s> by %s <%s> in %s: %s.", oldName, old, newName, address, t.Name, reason)
		}, nil
	})
}

// takenOver returns the impulse in play of place i's game in play, from
// which a new player takes it over, or "" when the place has no game in
// play or none of its impulses has been played (it is wholly the new
// player's).
func takenOver(tx Tx, t *tournament.Tournament, i int) (string, error) {
	c := t.Current()
	if c == nil {
		return "", nil
	}
	for _, p := range c.Pairings {
		if p.Of(i) < 0 || p.Done || p.Game == "" {
			continue
		}
		g, err := tx.Game(p.Game)
		if err != nil {
			return "", err
		}
		log, err := tx.Log(p.Game)
		if err != nil {
			return "", err
		}
		for _, r := range log {
			if r.Kind == adjudicator.KindImpulse {
				return g.Next.String(), nil
			}
		}
	}
	return "", nil
}

// TournamentWithdraw takes a player who drops out, with nobody to take his
// place, out of the rounds to come: his game in play is his forfeit, a
// pairing of his whose game is not made yet (its bids open) gets none and
// is his forfeit too (tournament.Withdraw), and his opponents in the
// rounds to come have byes.
func (r *Referee) TournamentWithdraw(tx Tx, id, who, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (text, error) {
		i := findPlayer(t, who)
		if i < 0 {
			return nil, fmt.Errorf("no player %s in tournament %s", who, t.ID)
		}
		recs, err := t.Withdraw(i, reason, now)
		if err != nil {
			return nil, err
		}
		res.TournamentRecords = append(res.TournamentRecords, recs...)
		name := t.Entrants[i].Name
		// A pairing of the round in play whose game was not made (its
		// bids open) ended with the withdrawal as his forfeit: everyone
		// is told, and the round may be over with it.
		unmade, round := -1, t.Current()
		for k := 0; round != nil && k < len(round.Pairings); k++ {
			if p := round.Pairings[k]; p.Of(i) >= 0 && p.Unmade() {
				unmade = p.Opponent(i)
			}
		}
		notice := func(p *lang.Printer) string {
			text := p.Sprintf("%s has withdrawn from %s: %s.", name, t.Name, reason)
			if unmade >= 0 {
				text += "\n" + p.Sprintf("%s's round %d pairing with %s has no game: it counts as %s's forfeit, a win for %s.", name, round.N, t.Entrants[unmade].Name, name, t.Entrants[unmade].Name)
			}
			return text
		}
		if unmade >= 0 {
			if err := r.roundOver(tx, t, res, now); err != nil {
				return nil, err
			}
		}
		for _, round := range t.Rounds {
			for _, p := range round.Pairings {
				if p.Of(i) < 0 || p.Game == "" || p.Done {
					continue
				}
				g, err := tx.Game(p.Game)
				if err != nil {
					return nil, err
				}
				if g.Status != adjudicator.Finished {
					recs, err := g.Adjudicate(p.SideOf(i), "the player withdrew from the tournament: "+reason, now)
					if err != nil {
						return nil, err
					}
					if err := tx.SaveGame(g, recs); err != nil {
						return nil, err
					}
					res.Game, res.Records = g, recs
					r.toAll(res, g, func(p *lang.Printer) string {
						return p.Sprintf("Game %s is over: %s.\nThe game's seed is revealed in its log.", g.ID, resultText(p, g.Result))
					})
				}
				if err := r.enterResult(tx, t, g, "forfeit", res, now); err != nil {
					return nil, err
				}
			}
		}
		return notice, nil
	})
}

// findPlayer finds a tournament's player by address or name, or -1.
func findPlayer(t *tournament.Tournament, who string) int {
	i := t.Player(strings.ToLower(who))
	for j, e := range t.Entrants {
		if i < 0 && strings.EqualFold(e.Name, who) {
			i = j
		}
	}
	return i
}

// TournamentAdjudicate ends a stalled game of a tournament: decision is
// "draw", or the side that forfeits ("german", "allied"). Both players are
// told, and the game's log and the tournament's keep it.
func (r *Referee) TournamentAdjudicate(tx Tx, id, game, decision, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (text, error) {
		var side rules.Side
		switch strings.ToLower(decision) {
		case "draw":
		case "german", "allied":
			side = rules.Side(strings.ToLower(decision))
		default:
			return nil, fmt.Errorf("the decision %q is draw, german or allied (the side that forfeits)", decision)
		}
		rec, err := t.Adjudicate(game, decision+": "+reason, now)
		if err != nil {
			return nil, err
		}
		res.TournamentRecords = append(res.TournamentRecords, rec)
		g, err := tx.Game(game)
		if err != nil {
			return nil, err
		}
		recs, err := g.Adjudicate(side, reason, now)
		if err != nil {
			return nil, err
		}
		if err := tx.SaveGame(g, recs); err != nil {
			return nil, err
		}
		res.Game, res.Records = g, recs
		r.toAll(res, g, func(p *lang.Printer) string {
			return p.Sprintf("The director has ended game %s: %s (%s).\nThe game's seed is revealed in its log.", g.ID, resultText(p, g.Result), reason)
		})
		if err := r.enterResult(tx, t, g, "adjudicated", res, now); err != nil {
			return nil, err
		}
		return func(p *lang.Printer) string {
			return p.Sprintf("The director has adjudicated game %s of %s: %s.", g.ID, t.Name, resultText(p, g.Result))
		}, nil
	})
}

// directT runs one of the director's acts on a tournament: logged, the
// players told, nothing kept if it is refused.
func (r *Referee) directT(tx Tx, id string, act func(*tournament.Tournament, *Result) (text, error)) (*Result, error) {
	t, err := tx.Tournament(id)
	if err != nil {
		return nil, err
	}
	res := &Result{Tournament: t}
	notice, err := act(t, res)
	if err != nil {
		return nil, err
	}
	if err := tx.SaveTournament(t); err != nil {
		return nil, err
	}
	r.tellAll(t, res, func(p *lang.Printer) (string, string) {
		n := notice(p)
		// The subject is the notice's first line whole, the reason with
		// it: wrapped, a long reason would be cut.
		return "[" + t.ID + "] " + subjectOf(n), wrap(n) + "\n"
	})
	res.Reply = "done\ntournament log head " + t.Head
	res.Outcome = "tournament " + t.ID + ": " + res.TournamentRecords[0].Kind
	return res, nil
}

// TournamentExport is a tournament's export with each of its games'.
func TournamentExport(tx Tx, id string) (*tournament.Export, error) {
	t, err := tx.Tournament(id)
	if err != nil {
		return nil, err
	}
	var games []*adjudicator.Export
	for _, round := range t.Rounds {
		for _, p := range round.Pairings {
			if p.Game == "" {
				continue
			}
			g, err := tx.Game(p.Game)
			if err != nil {
				return nil, err
			}
			log, err := tx.Log(p.Game)
			if err != nil {
				return nil, err
			}
			games = append(games, adjudicator.MakeExport(g, log))
		}
	}
	return tournament.MakeExport(t, games), nil
}

// Ratings rates every player of the finished games of the store by
// Glicko-2 (docs/tournaments.md), each game credited to the players who
// held its sides at its end: one who took over a game in play, as the
// tournament's record names him (Tournament.PlayedBy). A game that gives
// no side the game (both sides lose) is left out, and so is a game not
// played out on the board (a forfeit, a withdrawal, the director's
// decision: its log has the adjudication), unless its tournament's
// settings rate those (rate_unplayed).
func Ratings(tx Tx) ([]tournament.Rating, error) {
	gs, err := tx.Games()
	if err != nil {
		return nil, err
	}
	var games []tournament.Game
	for _, g := range gs {
		if g.Status != adjudicator.Finished {
			continue
		}
		e := tournament.EndOf(g.Result)
		score := 0.5
		switch {
		case e.BothLose:
			continue
		case e.Winner == rules.German:
			score = 1
		case e.Winner == rules.Allied:
			score = 0
		}
		log, err := tx.Log(g.ID)
		if err != nil {
			return nil, err
		}
		if !playedOut(log) {
			rate, err := ratesUnplayed(tx, g.ID)
			if err != nil {
				return nil, err
			}
			if !rate {
				continue
			}
		}
		games = append(games, tournament.Game{German: g.Players[rules.German].Address, Allied: g.Players[rules.Allied].Address, Score: score, End: log[len(log)-1].Time})
	}
	return tournament.Ratings(games), nil
}

// playedOut reports whether a game's log shows it played out on the
// board: it was not ended by an adjudication (a forfeit for missed
// deadlines, a withdrawal, the director's decision).
func playedOut(log []adjudicator.Record) bool {
	for _, r := range log {
		if r.Kind == adjudicator.KindAdjudicated {
			return false
		}
	}
	return true
}

// ratesUnplayed reports whether the game's tournament, if it has one,
// rates its games not played out on the board.
func ratesUnplayed(tx Tx, game string) (bool, error) {
	id, err := tx.TournamentOf(game)
	if err != nil || id == "" {
		return false, err
	}
	t, err := tx.Tournament(id)
	if err != nil {
		return false, err
	}
	return t.RateUnplayed, nil
}

// tournamentExtensions returns the extensions a player may ask for in a
// game of a tournament, by its file, and false for a game of none.
func (r *Referee) tournamentExtensions(tx Tx, game string) (int, bool) {
	id, err := tx.TournamentOf(game)
	if err != nil || id == "" {
		return 0, false
	}
	t, err := tx.Tournament(id)
	if err != nil || t.MaxExtensions < 0 {
		return 0, false
	}
	return t.MaxExtensions, true
}
