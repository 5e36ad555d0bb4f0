package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/mail"
	"titm/rules"
)

var ordersCmd = &command{
	name:    "orders",
	summary: "check order mails and show the order language",
	subs:    []*command{ordersCheckCmd, ordersHelpCmd},
}

var ordersCheckCmd = &command{
	name:    "orders check",
	args:    "FILE (- for standard input)",
	summary: "check the orders of a mail body as the referee would, without a game position: print them in canonical form, or every error",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		name := fs.String("scenario", "", "scenario name or file (required)")
		side := fs.String("side", "", "the writer's side, german or allied: then units and targets are checked to be his and the enemy's")
		language := addLanguageFlag(fs, "en")
		return func(args []string) error {
			if len(args) != 1 {
				return usageError{"give one FILE with the mail body, or - for standard input"}
			}
			p, err := languagePrinter(*language)
			if err != nil {
				return err
			}
			if *side != "" && *side != "german" && *side != "allied" {
				return usageError{"--side must be german or allied"}
			}
			s, err := loadScenario(*name)
			if err != nil {
				return err
			}
			body, err := c.readInput(args[0])
			if err != nil {
				return err
			}
			if looksHTML(body) {
				body = mail.HTMLToText(body)
			}
			o, err := referee.ParseOrders(body, s, rules.Side(*side))
			// A greeting or a sign-off is named as a comment, as the
			// referee's reply names it.
			aside := p.Text(o.IgnoredMessage())
			var es rules.OrderErrors
			if errors.As(err, &es) {
				written := make([]string, len(es))
				for i, e := range es {
					written[i] = p.Error(e)
					fmt.Fprintln(out, written[i])
				}
				if aside != "" && !strings.Contains(strings.Join(written, "\n"), aside) {
					fmt.Fprintln(out, "# "+aside)
				}
				fmt.Fprintln(out, p.Text(referee.CheckRefused(len(es))))
				return errProblems
			}
			if err != nil {
				return err
			}
			for _, ord := range o.List {
				if _, ok := ord.(adjudicator.TokenLine); ok {
					fmt.Fprintln(out, p.Text(referee.CheckToken()))
					continue
				}
				fmt.Fprintln(out, ord)
			}
			if aside != "" {
				fmt.Fprintln(out, "# "+aside)
			}
			return nil
		}
	},
}

// looksHTML reports whether a body is HTML rather than text.
func looksHTML(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	return strings.HasPrefix(t, "<!doctype html") || strings.HasPrefix(t, "<html") ||
		strings.HasPrefix(t, "<div") || strings.HasPrefix(t, "<p>") || strings.HasPrefix(t, "<body")
}

var ordersHelpCmd = &command{
	name:    "orders help",
	summary: "print the HELP text a player receives, with examples from his units that are legal at the scenario's start",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		name := fs.String("scenario", "campaign", "scenario name or file")
		side := fs.String("side", "german", "the player's side, german or allied")
		language := addLanguageFlag(fs, "en")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			p, err := languagePrinter(*language)
			if err != nil {
				return err
			}
			if *side != "german" && *side != "allied" {
				return usageError{"--side must be german or allied"}
			}
			s, err := loadScenario(*name)
			if err != nil {
				return err
			}
			fmt.Fprint(out, referee.HelpIn(p, s, nil, rules.Side(*side)))
			return nil
		}
	},
}
