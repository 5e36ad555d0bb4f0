package main

import (
	"flag"
	"fmt"
	"strings"
	"time"
)

// directorCmd makes pause, resume, extend and rollback: the director's acts,
// each logged with its reason and told to the players. extra declares the
// act's own flags and fills its request.
func directorCmd(name, summary string, extra func(fs *flag.FlagSet) func(req *request)) *command {
	return &command{
		name:    name,
		args:    "GAME",
		summary: summary,
		setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
			sf := addStoreFlags(fs)
			reason := fs.String("reason", "", "why, for the log and the players (required)")
			fill := extra(fs)
			return func(args []string) error {
				id, err := oneGame(args)
				if err != nil {
					return err
				}
				if strings.TrimSpace(*reason) == "" {
					return usageError{"--reason is required: it goes into the log, which both players can read"}
				}
				req := request{Act: name, Game: id, Reason: *reason}
				fill(&req)
				resp, err := c.do(sf, req, true)
				if err != nil {
					return err
				}
				g := resp.Game
				r := rowOf(g)
				fmt.Fprintf(c.out, "game %s: %s; impulse %s, %s to move, due %s; log head %s\n", g.ID, r.Status, dash(r.Impulse), dash(sideTitle(r.ToMove)), dash(r.Deadline), g.Head)
				mailed(c.out, resp)
				return nil
			}
		},
	}
}

func noFlags(*flag.FlagSet) func(*request) { return func(*request) {} }

var pauseCmd = directorCmd("pause", "the director stops a game's clock; no impulse is played until resume", noFlags)

var resumeCmd = directorCmd("resume", "the director starts a paused game's clock again, with the time that was left", noFlags)

var extendCmd = directorCmd("extend", "the director moves the deadline of the impulse in play",
	func(fs *flag.FlagSet) func(*request) {
		by := fs.Duration("by", 24*time.Hour, "how much later")
		return func(req *request) { req.By = *by }
	})

var rollbackCmd = directorCmd("rollback", "the director returns a game to the position before an impulse, for a proven adjudication error",
	func(fs *flag.FlagSet) func(*request) {
		to := fs.String("to", "", "the impulse to play again, as G17-2 (required)")
		return func(req *request) { req.To = *to }
	})
