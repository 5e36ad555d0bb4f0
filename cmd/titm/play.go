package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// parseSide reads --side of a player's command.
func parseSide(s string) (rules.Side, error) {
	switch strings.ToLower(s) {
	case "german":
		return rules.German, nil
	case "allied":
		return rules.Allied, nil
	}
	return "", usageError{fmt.Sprintf("--side is german or allied, not %q", s)}
}

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

var joinCmd = &command{
	name:    "join",
	args:    "GAME",
	summary: "a player joins a game, with a seed of his own for the dice (as JOIN by mail)",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
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
			resp, err := c.do(sf, request{Act: "join", Game: id, Side: side, Seed: *seed}, true)
			if err != nil {
				return err
			}
			g := resp.Game
			fmt.Fprintf(c.out, "the %s player joined game %s with seed %q\n", side.Title(), g.ID, *seed)
			if g.Status == adjudicator.Playing {
				fmt.Fprintf(c.out, "both players have joined: the game begins; %s impulse %s, due %s\n", g.ToMove().Title(), g.State.Next, g.Due.Format(time.RFC3339))
			} else {
				fmt.Fprintf(c.out, "waiting for the %s player to join\n", side.Enemy().Title())
			}
			mailed(c.out, resp)
			return nil
		}
	},
}

// mailed says who was told, when the act queued mails.
func mailed(w io.Writer, resp *response) {
	if resp.Queued > 0 {
		fmt.Fprintf(w, "%d mail(s) queued from %s to the players and observers\n", resp.Queued, resp.Referee)
	}
}

var playCmd = &command{
	name:    "play",
	args:    "GAME",
	summary: "submit a player's orders to a game, as a mail would (standing orders alone are kept; IMPULSE plays)",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
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
			text, err := c.readInput(*ordersFile)
			if err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "play", Game: id, Side: side, Text: text}, true)
			if err != nil {
				return err
			}
			return printPlayed(c.out, *ordersFile, side, resp)
		}
	},
}

// printPlayed prints what titm play did.
func printPlayed(out io.Writer, file string, side rules.Side, resp *response) error {
	if len(resp.Errors) > 0 {
		for _, e := range resp.Errors {
			fmt.Fprintf(out, "%s:%d: %q: %s\n", file, e.Line, e.Text, e.Msg)
		}
		fmt.Fprintf(out, "%s: %d error(s): nothing applied\n", file, len(resp.Errors))
		return errProblems
	}
	if resp.Refused {
		return fmt.Errorf("%s", strings.TrimSuffix(firstLine(resp.Reply), "."))
	}
	for _, r := range resp.Records {
		switch r.Kind {
		case adjudicator.KindStanding:
			fmt.Fprintf(out, "standing orders of the %s player kept:\n%s", side.Title(), lang.Indent(r.Text))
		case adjudicator.KindImpulse:
			fmt.Fprintf(out, "%s played\n", r.Impulse)
			for _, e := range resp.Events {
				fmt.Fprintf(out, "  %s\n", e)
			}
			for _, d := range r.Dice {
				fmt.Fprintf(out, "  die %d: %s\n", d.Value, d.Purpose)
			}
		case adjudicator.KindFinished:
			fmt.Fprintf(out, "the game is over: %s\nthe game's seed, revealed: %s\n", r.Result, r.Seed)
		}
	}
	g := resp.Game
	if g.Status == adjudicator.Playing {
		fmt.Fprintf(out, "next: %s impulse %s, due %s; German VP %d\n", g.ToMove().Title(), g.State.Next, g.Due.Format(time.RFC3339), g.State.VP)
	}
	fmt.Fprintf(out, "log head %s\n", g.Head)
	mailed(out, resp)
	return nil
}

// firstLine is a text's first line.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// readInput reads a file, or the standard input for "-".
func (c *cli) readInput(name string) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(c.stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	return string(data), nil
}
