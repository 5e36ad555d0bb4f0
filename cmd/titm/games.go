package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	netmail "net/mail"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator"
	"titm/mail"
	"titm/rules"
	"titm/rules/scenarios"
	"titm/store"
)

// now is the clock of the game commands; tests set it.
var now = time.Now

// defaultDB is the store the game commands use without --db.
const defaultDB = "titm.db"

func dbFlag(fs *flag.FlagSet) *string {
	fs.StringVar(&socketFlag, "socket", "", "the control socket of a daemon that holds the store (default: the store's path and .sock, as serve makes it)")
	return fs.String("db", defaultDB, "the store: a bbolt file, made when missing")
}

// socketFlag is the --socket of the command being run.
var socketFlag string

// oneGame checks that args name exactly one game.
func oneGame(args []string) (string, error) {
	if len(args) != 1 {
		return "", usageError{"name one game, as intro-1 (titm games lists them)"}
	}
	return args[0], nil
}

// gameAndSide reads the game's id and --side of a player's command.
func gameAndSide(args []string, sideName string) (string, rules.Side, error) {
	id, err := oneGame(args)
	if err != nil {
		return "", "", err
	}
	side, err := parseSide(sideName)
	return id, side, err
}

// parseSide reads --side.
func parseSide(s string) (rules.Side, error) {
	switch strings.ToLower(s) {
	case "german":
		return rules.German, nil
	case "allied":
		return rules.Allied, nil
	}
	return "", usageError{fmt.Sprintf("--side is german or allied, not %q", s)}
}

// change loads a game, changes it with fn and stores it with the records of
// the change, all in one transaction.
func change(db, id string, fn func(g *adjudicator.Game, tx *store.Tx) ([]adjudicator.Record, error)) (*adjudicator.Game, error) {
	st, release, err := openStore(db, true)
	if err != nil {
		return nil, err
	}
	defer release()
	var g *adjudicator.Game
	err = st.Update(func(tx *store.Tx) error {
		if g, err = tx.Game(id); err != nil {
			return err
		}
		recs, err := fn(g, tx)
		if err != nil {
			return err
		}
		return tx.SaveGame(g, recs)
	})
	return g, err
}

var newCmd = &command{
	name:    "new",
	summary: "make a game: prints its id, its dice commitment and each player's secret token",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		scenario := fs.String("scenario", "", "scenario name or file (required)")
		german := fs.String("german", "", "the German player's address (required)")
		allied := fs.String("allied", "", "the Allied player's address (required)")
		var observers listFlag
		fs.Var(&observers, "observer", "an observer's address, who gets every report; repeat for more")
		deadline := fs.Duration("deadline", 72*time.Hour, "the time a player has for each impulse")
		id := fs.String("id", "", "the game's id (default: the scenario's name and a number)")
		asJSON := fs.Bool("json", false, "print JSON: id, commitment, tokens {german, allied}")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			if *german == "" || *allied == "" {
				return usageError{"--german and --allied are required: the players' mail addresses"}
			}
			addrs := map[string]*string{"--german": german, "--allied": allied}
			for i := range observers {
				addrs[fmt.Sprintf("--observer %d", i+1)] = &observers[i]
			}
			for flagName, a := range addrs {
				ad, err := netmail.ParseAddress(*a)
				if err != nil {
					return usageError{fmt.Sprintf("%s %q is not a mail address: %v", flagName, *a, err)}
				}
				*a = strings.ToLower(ad.Address)
			}
			if *german == *allied {
				return usageError{"the two players need two addresses: the address tells the sides apart"}
			}
			if *deadline < time.Hour {
				return usageError{fmt.Sprintf("--deadline %s is too short for play by mail: an hour at least", *deadline)}
			}
			if *scenario == "" {
				return usageError{"--scenario is required: a shipped scenario (" + strings.Join(scenarios.Names, ", ") + ") or a scenario file"}
			}
			if *id != "" {
				if err := validID(*id); err != nil {
					return err
				}
			}
			st, release, err := openStore(*db, true)
			if err != nil {
				return err
			}
			defer release()
			var g *adjudicator.Game
			var tokens map[rules.Side]string
			var welcomed string
			err = st.Update(func(tx *store.Tx) error {
				// Where a daemon has run on this store, its referee's address
				// is known, and the players are welcomed by mail.
				from := gomail.Address{Address: tx.Meta("referee")}
				id, t, err := mail.NewGame(tx, from, mail.NewGameOptions{ID: *id, Scenario: *scenario, German: *german, Allied: *allied,
					Observers: observers, Deadline: *deadline, Now: now()})
				if err != nil {
					return err
				}
				tokens, welcomed = t, from.Address
				g, err = tx.Summary(id)
				return err
			})
			var ps rules.Problems
			if errors.As(err, &ps) {
				return fmt.Errorf("scenario %s cannot be used; its data has %d problem(s):\n%w", *scenario, len(ps), ps)
			}
			if err != nil {
				return err
			}
			if *asJSON {
				return writeJSON(out, map[string]any{"id": g.ID, "commitment": g.Commitment,
					"tokens": map[string]string{"german": tokens[rules.German], "allied": tokens[rules.Allied]}})
			}
			fmt.Fprintf(out, "game %s made: %s, %s a side and impulse\n", g.ID, g.Scenario, human(*deadline))
			fmt.Fprintf(out, "commitment %s\n  (SHA-256 of the game's secret seed; the seed is revealed when the game ends)\n", g.Commitment)
			fmt.Fprintf(out, "German token %s  for %s\n", tokens[rules.German], *german)
			fmt.Fprintf(out, "Allied token %s  for %s\n", tokens[rules.Allied], *allied)
			if welcomed != "" {
				fmt.Fprintf(out, "Each player is sent a welcome mail from %s with his token, to answer with JOIN.\n", welcomed)
			} else {
				fmt.Fprintln(out, "No daemon has run on this store yet, so no welcome mail is sent: give each player his token.")
			}
			fmt.Fprintf(out, "The tokens are shown only now; the store keeps their hashes. A player joins with\nJOIN by mail, or here: titm join --side german %s\n", g.ID)
			return nil
		}
	},
}

// validID checks a game id given by hand: it goes into subjects and GAME
// lines, so it is one word.
func validID(id string) error {
	if len(id) > 40 {
		return usageError{"--id is at most 40 characters"}
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return usageError{fmt.Sprintf("--id %q: letters, digits, '-', '_' and '.' only", id)}
		}
	}
	return nil
}

// gameRow is a game as titm games lists it.
type gameRow struct {
	ID       string `json:"id"`
	Scenario string `json:"scenario"`
	Status   string `json:"status"`
	Impulse  string `json:"impulse"`
	ToMove   string `json:"to_move"`
	Deadline string `json:"deadline"` // RFC 3339, or "" when no clock runs
	Head     string `json:"head"`
	// Promptness of each player, as tournaments want it: impulses played,
	// average time, deadlines missed, extensions.
	German string `json:"german"`
	Allied string `json:"allied"`
	// Trouble the operator should see: mails that failed or bounced.
	Trouble []string `json:"trouble,omitempty"`
}

func rowOf(g *adjudicator.Game) gameRow {
	r := gameRow{ID: g.ID, Scenario: g.Scenario, Status: string(g.Status), ToMove: string(g.ToMove()), Head: g.Head}
	switch {
	case g.Status == adjudicator.Forming:
		var waiting []string
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if !g.Players[side].HasJoined() {
				waiting = append(waiting, string(side))
			}
		}
		r.Status = fmt.Sprintf("forming since %s: waiting for %s to join", g.Created.Format("2006-01-02"), strings.Join(waiting, " and "))
	case g.Paused:
		r.Status = "paused"
	}
	if g.Status == adjudicator.Playing {
		r.Impulse = g.Next.String()
	}
	if !g.Due.IsZero() {
		r.Deadline = g.Due.Format(time.RFC3339)
	}
	if g.Status == adjudicator.Finished {
		r.Status = "finished: " + g.Result
	}
	r.German, r.Allied = g.Players[rules.German].Promptness(), g.Players[rules.Allied].Promptness()
	return r
}

// trouble lists, by game, the mails that failed for good.
func trouble(tx *store.Tx) (map[string][]string, error) {
	failed, err := tx.Outbox(store.MailFailed)
	out := map[string][]string{}
	for _, m := range failed {
		out[m.Game] = append(out[m.Game], fmt.Sprintf("%s mail to %s failed: %s", m.Kind, strings.Join(m.To, ", "), m.Error))
	}
	return out, err
}

var gamesCmd = &command{
	name:    "games",
	summary: "list the games: scenario, impulse, who is to move and by when",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		asJSON := fs.Bool("json", false, "print JSON: games[] {id, scenario, status, impulse, to_move, deadline, head}")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			st, release, err := openStore(*db, false)
			if err != nil {
				return err
			}
			defer release()
			var rows []gameRow
			err = st.View(func(tx *store.Tx) error {
				games, err := tx.Games()
				if err != nil {
					return err
				}
				bad, err := trouble(tx)
				for _, g := range games {
					r := rowOf(g)
					r.Trouble = bad[g.ID]
					rows = append(rows, r)
				}
				return err
			})
			if err != nil {
				return err
			}
			if *asJSON {
				if rows == nil {
					rows = []gameRow{}
				}
				return writeJSON(out, map[string]any{"games": rows})
			}
			if len(rows) == 0 {
				fmt.Fprintf(out, "no games in %s\n", *db)
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "GAME\tSCENARIO\tIMPULSE\tTO MOVE\tDEADLINE\tSTATUS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Scenario, dash(r.Impulse), dash(r.ToMove), dash(r.Deadline), r.Status)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(out)
			for _, r := range rows {
				fmt.Fprintf(out, "%s  German: %s; Allied: %s\n", r.ID, r.German, r.Allied)
				for _, t := range r.Trouble {
					fmt.Fprintf(out, "%s  TROUBLE: %s\n", r.ID, t)
				}
			}
			return nil
		}
	},
}

// human writes a duration to the minute: 72h, 1h30m, 45m.
func human(d time.Duration) string { return adjudicator.FormatDuration(d.Round(time.Minute)) }

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

var showCmd = &command{
	name:    "show",
	args:    "GAME",
	summary: "show a game: players, promptness, impulse, deadline, dice commitment, the log's head, mails",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			st, release, err := openStore(*db, false)
			if err != nil {
				return err
			}
			defer release()
			return st.View(func(tx *store.Tx) error {
				g, err := tx.Game(id)
				if err != nil {
					return err
				}
				log, err := tx.Log(id)
				if err != nil {
					return err
				}
				mails, err := tx.Outbox("")
				if err != nil {
					return err
				}
				showGame(out, g, log, mails)
				return nil
			})
		}
	},
}

func showGame(w io.Writer, g *adjudicator.Game, log []adjudicator.Record, mails []*store.Mail) {
	r := rowOf(g)
	fmt.Fprintf(w, "game %s: %s, %s\n", g.ID, g.Scenario, r.Status)
	fmt.Fprintf(w, "made %s, %s a side and impulse\n", g.Created.Format(time.RFC3339), human(g.Deadline))
	if g.Status == adjudicator.Playing {
		fmt.Fprintf(w, "impulse %s, %s to move", r.Impulse, r.ToMove)
		if g.Paused {
			fmt.Fprintf(w, ", paused with %s left", human(g.Left))
		} else {
			fmt.Fprintf(w, ", due %s", r.Deadline)
		}
		fmt.Fprintf(w, "; German VP %d\n", g.State.VP)
	}
	if g.DrawOffer != "" {
		fmt.Fprintf(w, "the %s player offers a draw\n", g.DrawOffer)
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		p := g.Players[side]
		fmt.Fprintf(w, "%-6s %s", side, p.Address)
		if p.HasJoined() {
			fmt.Fprintf(w, ", joined %s with seed %q", p.Joined.Format(time.RFC3339), p.Seed)
		} else {
			fmt.Fprint(w, ", not joined")
		}
		fmt.Fprintf(w, "; %s\n", p.Promptness())
	}
	for _, o := range g.Observers {
		fmt.Fprintf(w, "observer %s\n", o)
	}
	fmt.Fprintf(w, "dice: commitment %s; %d dice rolled\n", g.Commitment, g.Rolls)
	if g.Seed != "" {
		fmt.Fprintf(w, "dice: seed %s (revealed)\n", g.Seed)
	}
	fmt.Fprintf(w, "log: %d records, head %s\n", g.Log, g.Head)
	from := max(0, len(log)-5)
	for _, rec := range log[from:] {
		fmt.Fprintf(w, "  %3d %s %s\n", rec.Seq, rec.Time.Format(time.RFC3339), describe(rec))
	}
	var queued, failed []*store.Mail
	for _, m := range mails {
		switch {
		case m.Game != g.ID:
		case m.Status == store.MailQueued:
			queued = append(queued, m)
		case m.Status == store.MailFailed:
			failed = append(failed, m)
		}
	}
	if len(queued) > 0 {
		fmt.Fprintf(w, "%d mail(s) waiting to be sent\n", len(queued))
	}
	for _, m := range failed {
		fmt.Fprintf(w, "mail %d to %s FAILED after %d attempt(s): %s (%s)\n", m.ID, strings.Join(m.To, ", "), m.Attempts, m.Error, m.Subject)
	}
}

// describe says in a few words what a log record is.
func describe(r adjudicator.Record) string {
	var b strings.Builder
	b.WriteString(r.Kind)
	if r.Side != "" && r.Impulse == "" {
		fmt.Fprintf(&b, " %s", r.Side)
	}
	if r.Impulse != "" {
		fmt.Fprintf(&b, " %s", r.Impulse)
	}
	if len(r.Dice) > 0 {
		fmt.Fprintf(&b, ", %d dice", len(r.Dice))
	}
	if r.Deadline != "" && r.Kind == adjudicator.KindExtended {
		fmt.Fprintf(&b, " by %s", r.Deadline)
	}
	if r.Result != "" {
		fmt.Fprintf(&b, ": %s", r.Result)
	}
	if r.Reason != "" {
		fmt.Fprintf(&b, " (%s)", r.Reason)
	}
	return b.String()
}

var exportCmd = &command{
	name:    "export",
	args:    "GAME",
	summary: "write a game's whole log as JSON, for titm verify: orders, every die, outcomes, hashes, seeds",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		outFile := fs.String("o", "", "write to this file instead of the standard output")
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			st, release, err := openStore(*db, false)
			if err != nil {
				return err
			}
			defer release()
			var x *adjudicator.Export
			err = st.View(func(tx *store.Tx) error {
				g, err := tx.Game(id)
				if err != nil {
					return err
				}
				log, err := tx.Log(id)
				x = adjudicator.MakeExport(g, log)
				return err
			})
			if err != nil {
				return err
			}
			if *outFile == "" {
				return writeJSON(out, x)
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

var verifyCmd = &command{
	name:    "verify",
	args:    "FILE",
	summary: "check an export: the seed against the commitment, every die, every impulse replayed, every hash",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		head := fs.String("head", "", "a log head from a report (a receipt): check that the log passes through it")
		return func(args []string) error {
			if len(args) != 1 {
				return usageError{"name one export file (titm export GAME -o FILE makes one), or - for the standard input"}
			}
			var r io.Reader = os.Stdin
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			x, err := adjudicator.ReadExport(r)
			if err != nil {
				return err
			}
			v, err := adjudicator.Verify(x)
			if err != nil {
				fmt.Fprintf(out, "NOT verified: game %s: %v\n", x.ID, err)
				return errProblems
			}
			if *head != "" {
				found := false
				for _, rec := range x.Records {
					found = found || rec.Hash == strings.ToLower(*head)
				}
				if !found {
					fmt.Fprintf(out, "NOT verified: game %s: no record of the log has the hash %s: the log is not the one that receipt came from\n", x.ID, *head)
					return errProblems
				}
			}
			fmt.Fprintf(out, "verified: %d impulses, %d dice\n", v.Impulses, v.Dice)
			if !v.DiceChecked {
				fmt.Fprintln(out, "(the game's seed is revealed when the game ends: the dice were taken as logged, and everything that follows from them was checked)")
			}
			return nil
		}
	},
}

var dicelogCmd = &command{
	name:    "dicelog",
	args:    "GAME",
	summary: "every die a game rolled: record, impulse, purpose, roll",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		asCSV := fs.Bool("csv", false, "print CSV: record,impulse,die,purpose,roll,draw")
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			st, release, err := openStore(*db, false)
			if err != nil {
				return err
			}
			defer release()
			var log []adjudicator.Record
			if err := st.View(func(tx *store.Tx) error { log, err = tx.Log(id); return err }); err != nil {
				return err
			}
			if *asCSV {
				w := csv.NewWriter(out)
				w.Write([]string{"record", "impulse", "die", "purpose", "roll", "draw"})
				for _, r := range log {
					for i, d := range r.Dice {
						w.Write([]string{strconv.Itoa(r.Seq), r.Impulse, strconv.Itoa(i + 1), d.Purpose, strconv.Itoa(d.Value), strconv.FormatUint(d.Draw, 10)})
					}
				}
				w.Flush()
				return w.Error()
			}
			n := 0
			for _, r := range log {
				for _, d := range r.Dice {
					fmt.Fprintf(out, "%2d  %s\n", d.Value, d.Purpose)
					n++
				}
			}
			fmt.Fprintf(out, "%d dice\n", n)
			return nil
		}
	},
}

// directorCmd makes pause, resume, extend and rollback: the director's acts,
// each logged with its reason.
func directorCmd(name, summary string, extra func(fs *flag.FlagSet) func(g *adjudicator.Game, tx *store.Tx, reason string) ([]adjudicator.Record, error)) *command {
	return &command{
		name:    name,
		args:    "GAME",
		summary: summary,
		setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
			db := dbFlag(fs)
			reason := fs.String("reason", "", "why, for the log and the players (required)")
			act := extra(fs)
			return func(args []string) error {
				id, err := oneGame(args)
				if err != nil {
					return err
				}
				if strings.TrimSpace(*reason) == "" {
					return usageError{"--reason is required: it goes into the log, which both players can read"}
				}
				g, err := change(*db, id, func(g *adjudicator.Game, tx *store.Tx) ([]adjudicator.Record, error) {
					return act(g, tx, *reason)
				})
				if err != nil {
					return err
				}
				r := rowOf(g)
				fmt.Fprintf(out, "game %s: %s; impulse %s, %s to move, due %s; log head %s\n", g.ID, r.Status, dash(r.Impulse), dash(r.ToMove), dash(r.Deadline), g.Head)
				return nil
			}
		},
	}
}

var pauseCmd = directorCmd("pause", "the director stops a game's clock; no impulse is played until resume",
	func(*flag.FlagSet) func(*adjudicator.Game, *store.Tx, string) ([]adjudicator.Record, error) {
		return func(g *adjudicator.Game, _ *store.Tx, reason string) ([]adjudicator.Record, error) {
			return g.Pause(reason, now())
		}
	})

var resumeCmd = directorCmd("resume", "the director starts a paused game's clock again, with the time that was left",
	func(*flag.FlagSet) func(*adjudicator.Game, *store.Tx, string) ([]adjudicator.Record, error) {
		return func(g *adjudicator.Game, _ *store.Tx, reason string) ([]adjudicator.Record, error) {
			return g.Resume(reason, now())
		}
	})

var extendCmd = directorCmd("extend", "the director moves the deadline of the impulse in play",
	func(fs *flag.FlagSet) func(*adjudicator.Game, *store.Tx, string) ([]adjudicator.Record, error) {
		by := fs.Duration("by", 24*time.Hour, "how much later")
		return func(g *adjudicator.Game, _ *store.Tx, reason string) ([]adjudicator.Record, error) {
			return g.Extend("", *by, reason, now())
		}
	})

var rollbackCmd = directorCmd("rollback", "the director returns a game to the position before an impulse, for a proven adjudication error",
	func(fs *flag.FlagSet) func(*adjudicator.Game, *store.Tx, string) ([]adjudicator.Record, error) {
		to := fs.String("to", "", "the impulse to play again, as G17-2 (required)")
		return func(g *adjudicator.Game, tx *store.Tx, reason string) ([]adjudicator.Record, error) {
			imp, err := rules.ParseImpulse(*to)
			if err != nil {
				return nil, usageError{fmt.Sprintf("--to %q: %v; give the impulse as G17-2 or A17-2", *to, err)}
			}
			log, err := tx.Log(g.ID)
			if err != nil {
				return nil, err
			}
			return g.Rollback(log, imp, reason, now())
		}
	})

var joinCmd = &command{
	name:    "join",
	args:    "GAME",
	summary: "a player joins a game, with a seed of his own for the dice (as JOIN by mail)",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		sideName := fs.String("side", "", "german or allied (required)")
		seed := fs.String("seed", "", "the player's contribution to the dice, any text (default: one is made)")
		return func(args []string) error {
			id, side, err := gameAndSide(args, *sideName)
			if err != nil {
				return err
			}
			if *seed == "" {
				if *seed, err = adjudicator.NewPlayerSeed(); err != nil {
					return err
				}
			}
			g, err := change(*db, id, func(g *adjudicator.Game, _ *store.Tx) ([]adjudicator.Record, error) {
				return g.Join(side, *seed, now())
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "the %s player joined game %s with seed %q\n", side, g.ID, *seed)
			if g.Status == adjudicator.Playing {
				fmt.Fprintf(out, "both players have joined: the game begins; %s impulse %s, due %s\n", g.ToMove(), g.State.Next, g.Due.Format(time.RFC3339))
			} else {
				fmt.Fprintf(out, "waiting for the %s player to join\n", side.Enemy())
			}
			return nil
		}
	},
}

var playCmd = &command{
	name:    "play",
	args:    "GAME",
	summary: "submit a player's orders to a game, as a mail would (standing orders alone are kept; IMPULSE plays)",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		sideName := fs.String("side", "", "german or allied (required)")
		ordersFile := fs.String("orders", "", "the order file, or - for the standard input (required)")
		return func(args []string) error {
			id, side, err := gameAndSide(args, *sideName)
			if err != nil {
				return err
			}
			if *ordersFile == "" {
				return usageError{"--orders is required: a file of orders as a player mails them"}
			}
			text, err := readInput(*ordersFile)
			if err != nil {
				return err
			}
			var events []rules.Event
			var recs []adjudicator.Record
			g, err := change(*db, id, func(g *adjudicator.Game, _ *store.Tx) ([]adjudicator.Record, error) {
				s, err := g.Rules()
				if err != nil {
					return nil, err
				}
				// A TOKEN line, where there is one, must be the player's.
				if o, err := rules.ParseOrders(text, s, &rules.ParseOptions{Side: side}); err == nil && o.Token() != "" && !g.Authentic(side, o.Token()) {
					return nil, fmt.Errorf("the TOKEN line is not the %s player's token", side)
				}
				recs, events, err = g.Submit(side, text, now())
				return recs, err
			})
			var es rules.OrderErrors
			if errors.As(err, &es) {
				for _, e := range es {
					fmt.Fprintf(out, "%s:%d: %q: %s\n", *ordersFile, e.Line, e.Text, e.Msg)
				}
				fmt.Fprintf(out, "%s: %d error(s): nothing applied\n", *ordersFile, len(es))
				return errProblems
			}
			if err != nil {
				return err
			}
			for _, r := range recs {
				switch r.Kind {
				case adjudicator.KindStanding:
					fmt.Fprintf(out, "standing orders of the %s player kept:\n%s", side, indent(r.Text))
				case adjudicator.KindImpulse:
					fmt.Fprintf(out, "%s played\n", r.Impulse)
					for _, e := range events {
						fmt.Fprintf(out, "  %s\n", e)
					}
					for _, d := range r.Dice {
						fmt.Fprintf(out, "  die %d: %s\n", d.Value, d.Purpose)
					}
				case adjudicator.KindFinished:
					fmt.Fprintf(out, "the game is over: %s\nthe game's seed, revealed: %s\n", r.Result, r.Seed)
				}
			}
			if g.Status == adjudicator.Playing {
				fmt.Fprintf(out, "next: %s impulse %s, due %s; German VP %d\n", g.ToMove(), g.State.Next, g.Due.Format(time.RFC3339), g.State.VP)
			}
			fmt.Fprintf(out, "log head %s\n", g.Head)
			return nil
		}
	},
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

// readInput reads a file, or the standard input for "-".
func readInput(name string) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	return string(data), nil
}
