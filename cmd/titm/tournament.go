package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"titm/adjudicator/referee"
	"titm/adjudicator/tournament"
	"titm/store"
)

// tourRequest is a tournament command's part of a request.
type tourRequest struct {
	ID       string `json:"id,omitempty"`
	File     string `json:"file,omitempty"` // new: the file's name, for the problems
	Text     string `json:"text,omitempty"` // new: the file's text
	Who      string `json:"who,omitempty"`  // replace: the player's address or name
	Name     string `json:"name,omitempty"` // replace: the new player's name
	Address  string `json:"address,omitempty"`
	Game     string `json:"game,omitempty"`     // adjudicate
	Decision string `json:"decision,omitempty"` // adjudicate: draw, german, allied
}

// tourResponse is what a tournament request gives.
type tourResponse struct {
	Tournament *tournament.Tournament `json:"tournament,omitempty"`
	Standings  []tournament.Standing  `json:"standings,omitempty"`
	Export     *tournament.Export     `json:"export,omitempty"`
	Ratings    []tournament.Rating    `json:"ratings,omitempty"`
	Text       string                 `json:"text,omitempty"`
}

// tournamentRequests adds the tournament commands' requests to the tables.
func tournamentRequests(acts map[string]actFunc, views map[string]viewFunc) {
	acts["tournament-new"] = func(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
		res, err := h.ref.NewTournament(tx, req.Tour.File, []byte(req.Tour.Text), now)
		return tourResult(res, err)
	}
	acts["tournament-pause"] = func(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
		return tourResult(h.ref.TournamentPause(tx, req.Tour.ID, req.Reason, now))
	}
	acts["tournament-resume"] = func(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
		return tourResult(h.ref.TournamentResume(tx, req.Tour.ID, req.Reason, now))
	}
	acts["tournament-replace"] = func(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
		q := req.Tour
		return tourResult(h.ref.TournamentReplace(tx, q.ID, q.Who, q.Name, q.Address, req.Reason, now))
	}
	acts["tournament-withdraw"] = func(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
		return tourResult(h.ref.TournamentWithdraw(tx, req.Tour.ID, req.Tour.Who, req.Reason, now))
	}
	acts["tournament-adjudicate"] = func(h *host, tx *store.Tx, req request, now time.Time) (*referee.Result, *response, error) {
		q := req.Tour
		return tourResult(h.ref.TournamentAdjudicate(tx, q.ID, q.Game, q.Decision, req.Reason, now))
	}
	views["tournament-show"] = func(h *host, req request) (*response, error) {
		resp := &response{Tour: &tourResponse{}}
		err := h.st.View(func(tx *store.Tx) error {
			t, err := tx.Tournament(req.Tour.ID)
			if err != nil {
				return err
			}
			resp.Tour.Tournament, resp.Tour.Standings, resp.Tour.Text = t.Public(), t.Standings(), referee.TournamentStandings(t)
			return nil
		})
		return resp, err
	}
	views["tournament-export"] = func(h *host, req request) (*response, error) {
		resp := &response{Tour: &tourResponse{}}
		err := h.st.View(func(tx *store.Tx) error {
			var err error
			resp.Tour.Export, err = referee.TournamentExport(tx, req.Tour.ID)
			return err
		})
		return resp, err
	}
	views["ratings"] = func(h *host, req request) (*response, error) {
		resp := &response{Tour: &tourResponse{}}
		err := h.st.View(func(tx *store.Tx) error {
			var err error
			resp.Tour.Ratings, err = referee.Ratings(tx)
			return err
		})
		return resp, err
	}
}

// tourResult is a tournament act's result as a command's.
func tourResult(res *referee.Result, err error) (*referee.Result, *response, error) {
	if err != nil {
		return nil, nil, err
	}
	return res, &response{Tour: &tourResponse{Tournament: res.Tournament.Public()}}, nil
}

var tournamentCmd = &command{
	name:    "tournament",
	summary: "run a tournament: pairing, sides, standings, by mail or here",
	subs: []*command{tournamentNewCmd, tournamentShowCmd, tournamentPauseCmd, tournamentResumeCmd,
		tournamentReplaceCmd, tournamentWithdrawCmd, tournamentAdjudicateCmd, tournamentExportCmd},
}

var tournamentNewCmd = &command{
	name:    "tournament new",
	args:    "FILE",
	summary: "make a tournament from its file: its players are welcomed with their tokens, and round 1 is paired",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		return func(args []string) error {
			if len(args) != 1 {
				return usageError{"name the tournament's file (docs/tournaments.md describes it)"}
			}
			data, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "tournament-new", Tour: &tourRequest{File: filepath.Base(args[0]), Text: string(data)}}, true)
			if err != nil {
				return err
			}
			fmt.Fprintln(c.out, resp.Reply)
			mailed(c.out, resp)
			return nil
		}
	},
}

var tournamentShowCmd = &command{
	name:    "tournament show",
	args:    "ID",
	summary: "a tournament's format, rounds, pairings and standings",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		asJSON := fs.Bool("json", false, "print JSON: the tournament and its standings")
		return func(args []string) error {
			if len(args) != 1 {
				return usageError{"name one tournament"}
			}
			resp, err := c.do(sf, request{Act: "tournament-show", Tour: &tourRequest{ID: args[0]}}, false)
			if err != nil {
				return err
			}
			q := resp.Tour
			if *asJSON {
				return writeJSON(c.out, struct {
					Tournament *tournament.Tournament `json:"tournament"`
					Standings  []tournament.Standing  `json:"standings"`
				}{q.Tournament, q.Standings})
			}
			t := q.Tournament
			fmt.Fprintf(c.out, "%s (%s): %s, %s, sides %s, %s", t.Name, t.ID, t.Format, tournament.RoundsText(t.Settings.Rounds), t.Sides, t.Status)
			if t.Paused {
				fmt.Fprint(c.out, ", paused")
			}
			fmt.Fprintf(c.out, "\ndirector %s; commitment %s\n\n", t.Director, t.Commitment)
			for _, r := range t.Rounds {
				fmt.Fprintf(c.out, "Round %d (%s):\n", r.N, r.Scenario)
				for k, p := range r.Pairings {
					fmt.Fprintf(c.out, "  %d. %s\n", k+1, pairingLine(t, r.N, p))
				}
			}
			fmt.Fprintln(c.out)
			fmt.Fprint(c.out, q.Text)
			return nil
		}
	},
}

// pairingLine writes a pairing of round n as show lists it, naming who
// played it: a player replaced later keeps his rounds.
func pairingLine(t *tournament.Tournament, n int, p *tournament.Pairing) string {
	name := func(i int) string { return t.NameIn(i, n) }
	if p.Bye() {
		return name(p.A) + ": a bye"
	}
	var s string
	switch {
	case p.Unmade():
		// A withdrawal ended it before its sides were decided: no game,
		// no sides.
		return fmt.Sprintf("%s v %s: no game, %s withdrew: %s, %g-%g", name(p.A), name(p.B), name(p.Opponent(p.Winner())), p.How, p.Points[0], p.Points[1])
	case p.Sided():
		s = fmt.Sprintf("%s (German) v %s (Allied)", name(p.German), name(p.Opponent(p.German)))
	default:
		s = fmt.Sprintf("%s v %s: waiting for the bids", name(p.A), name(p.B))
		// A bid shows only that it came in (Public seals it) until the
		// sides are decided.
		for j, i := range [2]int{p.A, p.B} {
			if p.Sealed[j] {
				s += fmt.Sprintf(", %s's is in", name(i))
			}
		}
	}
	switch {
	case p.Give > 0:
		s += fmt.Sprintf(", bids: the German side gives %d VP", p.Give)
	case p.Give < 0:
		s += fmt.Sprintf(", bids: the Allied side gives %d VP", -p.Give)
	}
	if p.Game != "" {
		s += ", game " + p.Game
	}
	if p.Done {
		s += fmt.Sprintf(": %s, %g-%g", p.How, p.Points[p.Of(p.German)], p.Points[1-p.Of(p.German)])
	}
	return s
}

// tourDirectorCmd makes the director's tournament commands.
func tourDirectorCmd(name, args, summary string, extra func(fs *flag.FlagSet) func(q *tourRequest, args []string) error) *command {
	return &command{
		name:    "tournament " + name,
		args:    args,
		summary: summary,
		setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
			sf := addStoreFlags(fs)
			reason := fs.String("reason", "", "why, for the log and the players (required)")
			fill := extra(fs)
			return func(args []string) error {
				if len(args) < 1 {
					return usageError{"name the tournament"}
				}
				if strings.TrimSpace(*reason) == "" {
					return usageError{"--reason is required: it goes into the tournament's log"}
				}
				q := &tourRequest{ID: args[0]}
				if err := fill(q, args[1:]); err != nil {
					return err
				}
				resp, err := c.do(sf, request{Act: "tournament-" + name, Reason: *reason, Tour: q}, true)
				if err != nil {
					return err
				}
				fmt.Fprintln(c.out, resp.Reply)
				mailed(c.out, resp)
				return nil
			}
		},
	}
}

func noArgs(*flag.FlagSet) func(*tourRequest, []string) error {
	return func(_ *tourRequest, args []string) error {
		if len(args) > 0 {
			return usageError{"too many arguments"}
		}
		return nil
	}
}

var tournamentPauseCmd = tourDirectorCmd("pause", "ID", "the director pauses a tournament: no round is paired until resume", noArgs)

var tournamentResumeCmd = tourDirectorCmd("resume", "ID", "the director resumes a tournament, pairing the next round if it is due", noArgs)

var tournamentReplaceCmd = tourDirectorCmd("replace", "ID PLAYER NEW-ADDRESS", "the director gives a player's place to another: his game goes on with the new address and token",
	func(fs *flag.FlagSet) func(*tourRequest, []string) error {
		name := fs.String("name", "", "the new player's name (default: his address)")
		return func(q *tourRequest, args []string) error {
			if len(args) != 2 {
				return usageError{"name the player (address or name) and the new player's address"}
			}
			q.Who, q.Address, q.Name = args[0], args[1], *name
			if q.Name == "" {
				q.Name = q.Address
			}
			return nil
		}
	})

var tournamentWithdrawCmd = tourDirectorCmd("withdraw", "ID PLAYER", "the director takes out a player who drops out with nobody to take his place: his game in play is his forfeit, his next opponents have byes",
	func(fs *flag.FlagSet) func(*tourRequest, []string) error {
		return func(q *tourRequest, args []string) error {
			if len(args) != 1 {
				return usageError{"name the player: his address or name"}
			}
			q.Who = args[0]
			return nil
		}
	})

var tournamentAdjudicateCmd = tourDirectorCmd("adjudicate", "ID GAME draw|german|allied", "the director ends a stalled game: a draw, or the side named forfeits",
	func(fs *flag.FlagSet) func(*tourRequest, []string) error {
		return func(q *tourRequest, args []string) error {
			if len(args) != 2 {
				return usageError{"name the game and the decision: draw, or the side that forfeits (german, allied)"}
			}
			q.Game, q.Decision = args[0], args[1]
			return nil
		}
	})

var tournamentExportCmd = &command{
	name:    "tournament export",
	args:    "ID",
	summary: "write a tournament's whole log and its games' as JSON, for titm verify",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		outFile := fs.String("o", "", "write to this file instead of the standard output")
		public := fs.Bool("public", false, "leave out the director's and players' addresses and the salt of their commitments, in the tournament's log and its games': an export to publish, which verifies all the same")
		return func(args []string) error {
			if len(args) != 1 {
				return usageError{"name one tournament"}
			}
			resp, err := c.do(sf, request{Act: "tournament-export", Tour: &tourRequest{ID: args[0]}}, false)
			if err != nil {
				return err
			}
			x := resp.Tour.Export
			if *public {
				if x, err = x.Public(); err != nil {
					return err
				}
			}
			if *outFile == "" {
				return writeJSON(c.out, x)
			}
			f, err := os.Create(*outFile)
			if err != nil {
				return err
			}
			if err := writeJSON(f, x); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		}
	},
}

var ratingsCmd = &command{
	name:    "ratings",
	summary: "Glicko-2 ratings of every player, over all the finished games in the store",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		asJSON := fs.Bool("json", false, "print JSON")
		return func(args []string) error {
			if len(args) != 0 {
				return usageError{"ratings takes no arguments"}
			}
			resp, err := c.do(sf, request{Act: "ratings"}, false)
			if err != nil {
				return err
			}
			rs := resp.Tour.Ratings
			if *asJSON {
				if rs == nil {
					rs = []tournament.Rating{}
				}
				return writeJSON(c.out, rs)
			}
			fmt.Fprintf(c.out, "%-4s %-32s %7s %6s %10s %5s\n", "rank", "player", "rating", "RD", "volatility", "games")
			for i, r := range rs {
				fmt.Fprintf(c.out, "%-4d %-32s %7.1f %6.1f %10.5f %5d\n", i+1, r.Player, r.Rating, r.RD, r.Vol, r.Games)
			}
			return nil
		}
	},
}

// verifyTournament checks a tournament's export: its log replayed, every
// side decision and die, and every game.
func verifyTournament(out io.Writer, data []byte, head string) error {
	x, err := tournament.ReadExport(bytes.NewReader(data))
	if err != nil {
		return err
	}
	v, err := tournament.Verify(x)
	if err != nil {
		fmt.Fprintf(out, "NOT verified: tournament %s: %v\n", x.ID, err)
		return errProblems
	}
	if head != "" {
		found := false
		for _, r := range x.Records {
			found = found || r.Hash == strings.ToLower(head)
		}
		if !found {
			fmt.Fprintf(out, "NOT verified: tournament %s: no record of its log has the hash %s\n", x.ID, head)
			return errProblems
		}
	}
	fmt.Fprintf(out, "verified: tournament %s: %d records, %d side decisions, %d games with %d impulses, %d dice\n", x.ID, v.Records, v.Sides, v.Games, v.Impulses, v.Dice)
	if !v.DiceChecked {
		fmt.Fprintln(out, "(the tournament's seed is revealed when it is over: its dice were taken as logged, and everything that follows from them was checked)")
	}
	printAddresses(out, v.Committed, v.Addresses)
	return nil
}
