package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"titm/adjudicator"
	"titm/rules"
	"titm/store"
)

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
				waiting = append(waiting, side.Title())
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
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		sf := addStoreFlags(fs)
		asJSON := fs.Bool("json", false, "print JSON: games[] {id, scenario, status, impulse, to_move, deadline, head}")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			resp, err := c.do(sf, request{Act: "games"}, false)
			if err != nil {
				return err
			}
			rows := resp.Rows
			if *asJSON {
				if rows == nil {
					rows = []gameRow{}
				}
				return writeJSON(out, map[string]any{"games": rows})
			}
			if len(rows) == 0 {
				fmt.Fprintf(out, "no games in %s\n", sf.db)
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "GAME\tSCENARIO\tIMPULSE\tTO MOVE\tDEADLINE\tSTATUS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Scenario, dash(r.Impulse), dash(sideTitle(r.ToMove)), dash(r.Deadline), r.Status)
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

// sideTitle names a side, given as a value, as people read it: German, or
// Allied; "" stays "".
func sideTitle(s string) string {
	if s == "" {
		return ""
	}
	return rules.Side(s).Title()
}

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
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		sf := addStoreFlags(fs)
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "show", Game: id}, false)
			if err != nil {
				return err
			}
			showGame(out, resp.Game, resp.Records, resp.Mails)
			return nil
		}
	},
}

// showGame prints a game, the end of its log and its mails.
func showGame(w io.Writer, g *adjudicator.Game, log []adjudicator.Record, mails []*store.Mail) {
	r := rowOf(g)
	fmt.Fprintf(w, "game %s: %s, %s\n", g.ID, g.Scenario, r.Status)
	fmt.Fprintf(w, "made %s, %s a side and impulse\n", g.Created.Format(time.RFC3339), human(g.Deadline))
	if g.Status == adjudicator.Playing {
		fmt.Fprintf(w, "impulse %s, %s to move", r.Impulse, g.ToMove().Title())
		if g.Paused {
			fmt.Fprintf(w, ", paused with %s left", human(g.Left))
		} else {
			fmt.Fprintf(w, ", due %s", r.Deadline)
		}
		fmt.Fprintf(w, "; German VP %d\n", g.State.VP)
	}
	if g.DrawOffer != "" {
		fmt.Fprintf(w, "the %s player offers a draw\n", g.DrawOffer.Title())
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		p := g.Players[side]
		fmt.Fprintf(w, "%-6s %s", side.Title(), p.Address)
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
	for _, rec := range log {
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
		fmt.Fprintf(&b, " %s", r.Side.Title())
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
