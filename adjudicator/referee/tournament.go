package referee

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"titm/adjudicator"
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
		res.Mails = append(res.Mails, Mail{Kind: KindWelcome, Secret: true, To: []string{e.Address},
			Subject: fmt.Sprintf("[%s] welcome to %s", id, t.Name), Text: r.tournamentWelcome(t, i, tokens[i])})
	}
	if err := r.nextRound(tx, t, res, now); err != nil {
		return nil, err
	}
	res.Reply = fmt.Sprintf("tournament %s made: %d players, %s, %d rounds; its players are welcomed and round 1 is paired\ncommitment %s",
		id, len(t.Entrants), t.Format, t.Settings.Rounds, t.Commitment)
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
			r.tell(t, res, p.A, fmt.Sprintf("[%s] round %d: a bye", t.ID, round.N), fmt.Sprintf(
				"You have a bye in round %d of %s: there is an odd number of players, and you are the\nlowest-ranked player who has not had one. It counts as a win (1 point).\n", round.N, t.Name))
			continue
		}
		if !p.Sided() {
			for _, i := range []int{p.A, p.B} {
				r.tell(t, res, i, fmt.Sprintf("[%s] round %d: your opponent is %s; send your bid", t.ID, round.N, t.Entrants[p.Opponent(i)].Name), fmt.Sprintf(
					"Round %d of %s pairs you with %s <%s>, in scenario %s.\n\n"+
						"The sides go by sealed bids. Answer with your tournament token and your bid:\n\n    TOURNAMENT %s\n    TOKEN your-tournament-token\n    BID german 3\n\n"+
						"a side and the VP you give up to play it (0 or more). The bids stay sealed until both are\n"+
						"in or the bids close at %s; then both are revealed to both of you.\n"+
						"Two bids for different sides give each his side, and nobody gives VP. Two for the same\n"+
						"side give it to the higher bid, whose VP are added to the opponent's result; equal bids\n"+
						"are decided by the tournament's dice, and so are two missing bids. A lone bid takes its\n"+
						"side for nothing.\n",
					round.N, t.Name, t.Entrants[p.Opponent(i)].Name, t.Entrants[p.Opponent(i)].Address, round.Scenario, t.ID, adjudicator.FormatTime(round.BidsDue)))
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
		if p.Bye() || !p.Sided() || p.Game != "" {
			continue
		}
		g, a := t.Entrants[p.German], t.Entrants[p.Opponent(p.German)]
		c, err := r.New(tx, NewGame{Scenario: round.Scenario, German: g.Address, Allied: a.Address, Deadline: t.Deadline}, now)
		if err != nil {
			return fmt.Errorf("round %d pairing %d: %w", round.N, k+1, err)
		}
		res.Mails = append(res.Mails, c.Mails...)
		res.TournamentRecords = append(res.TournamentRecords, t.GameMade(round.N, k+1, c.Game.ID, now))
		for _, i := range []int{p.A, p.B} {
			side := p.SideOf(i)
			text := fmt.Sprintf("Round %d of %s: you play the %s side against %s <%s> in game %s (scenario %s).\n"+
				"The game's welcome mail brings your token for it; JOIN to begin.\n",
				round.N, t.Name, side.Title(), t.Entrants[p.Opponent(i)].Name, t.Entrants[p.Opponent(i)].Address, c.Game.ID, round.Scenario)
			if p.Bids[0] != nil || p.Bids[1] != nil {
				text += fmt.Sprintf("\nThe bids, revealed: %s bid %s, %s bid %s.\n", t.Entrants[p.A].Name, tournament.BidText(p.Bids[0]), t.Entrants[p.B].Name, tournament.BidText(p.Bids[1]))
			}
			if p.Give != 0 {
				giver := rules.German
				if p.Give < 0 {
					giver = rules.Allied
				}
				text += fmt.Sprintf("The %s side gives %d VP: they are added to the %s result at the game's end.\n", giver.Title(), abs(p.Give), giver.Enemy().Title())
			}
			text += fmt.Sprintf("Games that miss %s go to the opponent.\n", forfeitRule(t))
			r.tell(t, res, i, fmt.Sprintf("[%s] round %d: game %s, the %s side against %s", t.ID, round.N, c.Game.ID, side.Title(), t.Entrants[p.Opponent(i)].Name), text)
		}
	}
	return nil
}

func forfeitRule(t *tournament.Tournament) string {
	if t.ForfeitAfter == 0 {
		return "no deadline count (the tournament has no forfeit rule): never"
	}
	return fmt.Sprintf("%d deadlines of one player", t.ForfeitAfter)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// tell mails a tournament's player.
func (r *Referee) tell(t *tournament.Tournament, res *Result, i int, subject, text string) {
	res.Mails = append(res.Mails, Mail{Kind: KindTournament, To: []string{t.Entrants[i].Address}, Subject: subject, Text: text})
}

// tellAll mails every player of a tournament and its director.
func (r *Referee) tellAll(t *tournament.Tournament, res *Result, subject, text string) {
	for i := range t.Entrants {
		r.tell(t, res, i, subject, text)
	}
	res.Mails = append(res.Mails, Mail{Kind: KindTournament, To: []string{t.Director}, Subject: subject, Text: text})
}

func (r *Referee) tournamentWelcome(t *tournament.Tournament, i int, token string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Welcome to %s, a tournament of Tigers in the Mist (%s).\n\n", t.Name, t.ID)
	fmt.Fprintf(&b, "Format: %s, %d rounds; %d players. Scenario: %s.\n", t.Format, t.Settings.Rounds, len(t.Entrants), strings.Join(t.Scenarios, ", "))
	fmt.Fprintf(&b, "Each impulse gives a player %s; a player who misses %s loses the game.\n", human(t.Deadline), forfeitRule(t))
	fmt.Fprintf(&b, "Sides: %s. Tie-breaks after the points: %s.\n\n", t.Sides, strings.Join(t.TieBreaks, ", "))
	now := "round 1 is paired now"
	if n := len(t.Rounds); n > 0 {
		now = fmt.Sprintf("round %d of %d is in play", n, t.Settings.Rounds)
	}
	fmt.Fprintf(&b, "Schedule: %s; each next round is paired when the last game of the\nround before ends. Each game of a round is made at once, with its own welcome mail.\n\n", now)
	fmt.Fprintf(&b, "Your secret tournament token:\n\n    %s\n\n", token)
	fmt.Fprintf(&b, "Put it on a TOKEN line, with TOURNAMENT %s, in the mails you send to the referee\n(%s) about the tournament:\n\n", t.ID, r.opt.Address)
	if t.Sides == tournament.SidesBids {
		fmt.Fprintf(&b, "    BID german 3     your sealed bid for a round's sides (VP you give up to play it)\n")
	}
	fmt.Fprintf(&b, "    STANDINGS        the standings\n\nThe players:\n")
	for j, e := range t.Entrants {
		fmt.Fprintf(&b, "  %2d  %s <%s>\n", j+1, e.Name, e.Address)
	}
	fmt.Fprintf(&b, "\nThe side decisions are kept in the tournament's log with every die; the commitment to\nthe seed of its dice is %s.\n", t.Commitment)
	return b.String()
}

// TournamentRequest is what a tournament's player asks by mail: a bid
// (BID german 3) or the standings (STANDINGS).
type TournamentRequest struct {
	Bid       []string // the words after BID; nil if none
	Standings bool
}

// Tournament answers a tournament's player: his bid is taken or refused
// with the reason (nothing changed), and STANDINGS answered. The door has
// checked his address; token is his tournament token.
func (r *Referee) Tournament(tx Tx, id, address, token string, q TournamentRequest, now time.Time) (*Result, error) {
	t, err := tx.Tournament(id)
	if err != nil {
		return nil, err
	}
	res := &Result{Tournament: t}
	i := t.Player(address)
	if i < 0 || !t.Authentic(i, token) {
		res.Refused, res.Outcome = true, "refused: missing or wrong tournament token"
		res.Reply = fmt.Sprintf("Your mail to tournament %s was refused: it had no TOKEN line with your tournament token,\nor a wrong one. Nothing in it was applied.\n", id)
		return res, nil
	}
	var answers []string
	if q.Bid != nil {
		b, err := tournament.ParseBid(q.Bid)
		if err == nil {
			var recs []tournament.Record
			recs, err = t.Bid(i, b, now)
			if err == nil {
				res.TournamentRecords = append(res.TournamentRecords, recs...)
				answers = append(answers, fmt.Sprintf("Your bid, %s, is in and sealed. It is revealed to both of you when your opponent's\nis in or the bids close at %s.", tournament.BidText(&b), adjudicator.FormatTime(t.Current().BidsDue)))
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
			return res.refuse(fmt.Sprintf("BID: %v.\nNothing was changed.\n", err), "bid: "+err.Error()), nil
		}
	}
	if q.Standings {
		answers = append(answers, standingsText(t))
		if res.Outcome == "" {
			res.Outcome = "standings"
		}
	}
	res.Reply = strings.Join(answers, "\n\n") + "\n"
	return res, nil
}

// standingsText writes the standings with the round in play.
func standingsText(t *tournament.Tournament) string {
	var b strings.Builder
	done := 0
	for _, r := range t.Rounds {
		if r.Done() {
			done++
		}
	}
	fmt.Fprintf(&b, "Standings of %s (%s) after %d of %d rounds", t.Name, t.ID, done, t.Settings.Rounds)
	if t.Status == tournament.Over {
		b.WriteString(": final")
	}
	b.WriteString("\n\n")
	t.WriteStandings(&b)
	fmt.Fprintf(&b, "\nPoints: 1 a win or a bye, 1/2 a draw. Tie-breaks: %s.\nLog head %s\n", strings.Join(t.TieBreaks, ", "), t.Head)
	return b.String()
}

// TournamentStandings is the standings' text, as STANDINGS answers it.
func TournamentStandings(t *tournament.Tournament) string { return standingsText(t) }

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
				reason := fmt.Sprintf("the %s player missed %d deadlines (the tournament's forfeit rule)", side.Title(), g.Players[side].Missed)
				recs, err := g.Adjudicate(side, reason, now)
				if err != nil {
					return err
				}
				if err := tx.SaveGame(g, recs); err != nil {
					return err
				}
				res.Records = append(res.Records, recs...)
				res.toAll(g, fmt.Sprintf("Game %s is over: %s, so the %s side wins by forfeit.\nThe game's seed is revealed in its log.", g.ID, reason, side.Enemy().Title()))
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
	if round := t.Current(); round.Done() {
		r.tellAll(t, res, fmt.Sprintf("[%s] standings after round %d", t.ID, round.N), standingsText(t))
		if err := r.nextRound(tx, t, res, now); errors.Is(err, tournament.ErrNoPairing) {
			// The result stands; the director decides what comes next.
			res.Mails = append(res.Mails, Mail{Kind: KindTournament, To: []string{t.Director},
				Subject: fmt.Sprintf("[%s] round %d cannot be paired", t.ID, round.N+1),
				Text:    fmt.Sprintf("Round %d of %s cannot be paired: %v.\nThe tournament waits; end it with TOURNAMENT PAUSE, or withdraw a player.\n", round.N+1, t.Name, err)})
		} else if err != nil {
			return err
		}
	}
	return tx.SaveTournament(t)
}

// TournamentTick closes the bids that are due and pairs a round a paused
// tournament held back, in every running tournament: the daemon's clock
// calls it.
func (r *Referee) TournamentTick(tx Tx, now time.Time) (*Result, error) {
	ts, err := tx.Tournaments()
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, s := range ts {
		if s.Status == tournament.Over || s.Paused {
			continue
		}
		if c := s.Current(); c != nil && !c.Done() && !(s.BidsOpen() && !now.Before(c.BidsDue)) {
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
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (string, error) {
		rec, err := t.Pause(reason, now)
		res.TournamentRecords = append(res.TournamentRecords, rec)
		return fmt.Sprintf("The director has paused %s: %s.\nThe games in play go on; no round is paired until the director resumes it.", t.Name, reason), err
	})
}

// TournamentResume resumes a paused tournament, pairing the next round if
// the one before is over.
func (r *Referee) TournamentResume(tx Tx, id, reason string, now time.Time) (*Result, error) {
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (string, error) {
		rec, err := t.Resume(reason, now)
		if err != nil {
			return "", err
		}
		res.TournamentRecords = append(res.TournamentRecords, rec)
		if c := t.Current(); c == nil || c.Done() {
			if err := r.nextRound(tx, t, res, now); err != nil {
				return "", err
			}
		}
		return fmt.Sprintf("The director has resumed %s: %s.", t.Name, reason), nil
	})
}

// TournamentReplace gives a player's place to another: his game in play
// goes on with the new address and a new token, and the new player is
// welcomed with both tokens. who is the old player's address or name.
// Without a name the new player is called by his address's local part: the
// standings go to every player, and an address is not shown to them.
func (r *Referee) TournamentReplace(tx Tx, id, who, name, address, reason string, now time.Time) (*Result, error) {
	address = strings.ToLower(strings.TrimSpace(address))
	if name == "" {
		name, _, _ = strings.Cut(address, "@")
	}
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (string, error) {
		i := findPlayer(t, who)
		if i < 0 {
			return "", fmt.Errorf("no player %s in tournament %s", who, t.ID)
		}
		old, oldName := t.Entrants[i].Address, t.Entrants[i].Name
		token, err := adjudicator.NewToken()
		if err != nil {
			return "", err
		}
		rec, err := t.Replace(i, name, address, token, reason, now)
		if err != nil {
			return "", err
		}
		res.TournamentRecords = append(res.TournamentRecords, rec)
		text := r.tournamentWelcome(t, i, token)
		for _, round := range t.Rounds {
			for _, p := range round.Pairings {
				if p.Of(i) < 0 || p.Game == "" || p.Done {
					continue
				}
				g, err := tx.Game(p.Game)
				if err != nil {
					return "", err
				}
				side := p.SideOf(i)
				gt, err := adjudicator.NewToken()
				if err != nil {
					return "", err
				}
				g.Players[side].Address, g.Players[side].TokenHash = address, adjudicator.HashToken(gt)
				if err := tx.SaveGame(g, nil); err != nil {
					return "", err
				}
				if err := tx.IndexGame(g); err != nil {
					return "", err
				}
				text += fmt.Sprintf("\nYou take over the %s side of game %s, where it stands. Your token for that game:\n\n    %s\n\nSend STATUS (with GAME %s and that TOKEN) to see the position.\n", side.Title(), g.ID, gt, g.ID)
				res.send(g, KindReport, g.Players[side.Enemy()].Address, fmt.Sprintf("[%s] your opponent is replaced", g.ID),
					fmt.Sprintf("The director has replaced your opponent in game %s: %s <%s> plays the %s side from now on (%s).\n", g.ID, t.Entrants[i].Name, address, side.Title(), reason), nil)
			}
		}
		res.Mails = append(res.Mails, Mail{Kind: KindWelcome, Secret: true, To: []string{address}, Subject: fmt.Sprintf("[%s] welcome to %s: you take a player's place", t.ID, t.Name), Text: text})
		return fmt.Sprintf("The director has replaced %s <%s> by %s <%s> in %s: %s.", oldName, old, t.Entrants[i].Name, address, t.Name, reason), nil
	})
}

// TournamentWithdraw takes a player who drops out, with nobody to take his
// place, out of the rounds to come: his game in play is his forfeit, and
// his opponents in the rounds to come have byes.
func (r *Referee) TournamentWithdraw(tx Tx, id, who, reason string, now time.Time) (*Result, error) {
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (string, error) {
		i := findPlayer(t, who)
		if i < 0 {
			return "", fmt.Errorf("no player %s in tournament %s", who, t.ID)
		}
		rec, err := t.Withdraw(i, reason, now)
		if err != nil {
			return "", err
		}
		res.TournamentRecords = append(res.TournamentRecords, rec)
		notice := fmt.Sprintf("%s has withdrawn from %s: %s.", t.Entrants[i].Name, t.Name, reason)
		for _, round := range t.Rounds {
			for _, p := range round.Pairings {
				if p.Of(i) < 0 || p.Game == "" || p.Done {
					continue
				}
				g, err := tx.Game(p.Game)
				if err != nil {
					return "", err
				}
				if g.Status != adjudicator.Finished {
					recs, err := g.Adjudicate(p.SideOf(i), "the player withdrew from the tournament: "+reason, now)
					if err != nil {
						return "", err
					}
					if err := tx.SaveGame(g, recs); err != nil {
						return "", err
					}
					res.Game, res.Records = g, recs
					res.toAll(g, fmt.Sprintf("Game %s is over: %s.\nThe game's seed is revealed in its log.", g.ID, g.Result))
				}
				if err := r.enterResult(tx, t, g, "forfeit", res, now); err != nil {
					return "", err
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
	return r.directT(tx, id, func(t *tournament.Tournament, res *Result) (string, error) {
		var side rules.Side
		switch strings.ToLower(decision) {
		case "draw":
		case "german", "allied":
			side = rules.Side(strings.ToLower(decision))
		default:
			return "", fmt.Errorf("the decision %q is draw, german or allied (the side that forfeits)", decision)
		}
		rec, err := t.Adjudicate(game, decision+": "+reason, now)
		if err != nil {
			return "", err
		}
		res.TournamentRecords = append(res.TournamentRecords, rec)
		g, err := tx.Game(game)
		if err != nil {
			return "", err
		}
		recs, err := g.Adjudicate(side, reason, now)
		if err != nil {
			return "", err
		}
		if err := tx.SaveGame(g, recs); err != nil {
			return "", err
		}
		res.Game, res.Records = g, recs
		res.toAll(g, fmt.Sprintf("The director has ended game %s: %s (%s).\nThe game's seed is revealed in its log.", g.ID, g.Result, reason))
		if err := r.enterResult(tx, t, g, "adjudicated", res, now); err != nil {
			return "", err
		}
		return fmt.Sprintf("The director has adjudicated game %s of %s: %s.", g.ID, t.Name, g.Result), nil
	})
}

// directT runs one of the director's acts on a tournament: logged, the
// players told, nothing kept if it is refused.
func (r *Referee) directT(tx Tx, id string, act func(*tournament.Tournament, *Result) (string, error)) (*Result, error) {
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
	r.tellAll(t, res, fmt.Sprintf("[%s] %s", t.ID, firstLine(notice)), wrap(notice)+"\n")
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
// Glicko-2 (docs/tournaments.md). A game that gives no side the game
// (both sides lose) is left out.
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
		games = append(games, tournament.Game{German: g.Players[rules.German].Address, Allied: g.Players[rules.Allied].Address, Score: score, End: log[len(log)-1].Time})
	}
	return tournament.Ratings(games), nil
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
