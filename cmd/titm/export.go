package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
)

var exportCmd = &command{
	name:    "export",
	args:    "GAME",
	summary: "write a game's whole log as JSON, for titm verify: orders, every die, outcomes, hashes, seeds",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		sf := addStoreFlags(fs)
		outFile := fs.String("o", "", "write to this file instead of the standard output")
		public := fs.Bool("public", false, "leave out the players' and observers' addresses and the salt of their commitments: an export to publish, which verifies all the same")
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "export", Game: id}, false)
			if err != nil {
				return err
			}
			x := resp.Export
			if *public {
				x = x.Public()
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
	summary: "check an export: the seed against the commitment, every die, every impulse replayed, every hash; of a tournament, every side decision and game too",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
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
			data, err := io.ReadAll(r)
			if err != nil {
				return err
			}
			if tournament.IsExport(data) {
				return verifyTournament(out, data, *head)
			}
			x, err := adjudicator.ReadExport(bytes.NewReader(data))
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
			printAddresses(out, v.Committed, v.Addresses)
			return nil
		}
	},
}

var dicelogCmd = &command{
	name:    "dicelog",
	args:    "GAME",
	summary: "every die a game rolled: record, impulse, purpose, roll",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		sf := addStoreFlags(fs)
		asCSV := fs.Bool("csv", false, "print CSV: record,impulse,die,purpose,roll,draw")
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "log", Game: id}, false)
			if err != nil {
				return err
			}
			log := resp.Records
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

// printAddresses tells what verify made of the addresses a log commits to:
// checked, or, in a public export, not given. A log from before
// commitments is verified as it was, and nothing is said.
func printAddresses(out io.Writer, committed, checked int) {
	switch {
	case committed == 0:
	case checked == 0:
		fmt.Fprintf(out, "(a public export: the log commits to %d addresses, which it does not give; everything else was checked)\n", committed)
	default:
		fmt.Fprintf(out, "addresses: %d checked against the log's commitments\n", checked)
	}
}
