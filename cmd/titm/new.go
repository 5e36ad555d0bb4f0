package main

import (
	"flag"
	"fmt"
	netmail "net/mail"
	"path/filepath"
	"strings"
	"time"
	"titm/adjudicator/lang"

	"titm/adjudicator/referee"
	"titm/rules"
	"titm/rules/scenarios"
)

var newCmd = &command{
	name:    "new",
	summary: "make a game: prints its id, its dice commitment and each player's secret token",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		scenario := fs.String("scenario", "", "scenario name or file (required)")
		german := fs.String("german", "", "the German player's address (required)")
		allied := fs.String("allied", "", "the Allied player's address (required)")
		var observers listFlag
		fs.Var(&observers, "observer", "an observer's address, who gets every report; repeat for more")
		deadline := fs.Duration("deadline", 72*time.Hour, "the time a player has for each impulse")
		id := fs.String("id", "", "the game's id (default: the scenario's name and a number)")
		asJSON := fs.Bool("json", false, "print JSON: id, commitment, tokens {german, allied}")
		langGerman := fs.String("language-german", "", "the German player's language: en or ja (default: his address's in [referee.languages], else referee.language)")
		langAllied := fs.String("language-allied", "", "the Allied player's language, as --language-german")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			ng := referee.NewGame{ID: *id, Scenario: *scenario, German: *german, Allied: *allied, Observers: observers, Deadline: *deadline}
			// In a fixed order: with both wrong, the German is named first.
			given := map[rules.Side]string{rules.German: *langGerman, rules.Allied: *langAllied}
			for _, side := range []rules.Side{rules.German, rules.Allied} {
				v := given[side]
				if v == "" {
					continue
				}
				code, err := lang.Parse(v)
				if err != nil {
					return usageError{fmt.Sprintf("--language-%s: %v", strings.ToLower(string(side)), err)}
				}
				if ng.Languages == nil {
					ng.Languages = map[rules.Side]string{}
				}
				ng.Languages[side] = code
			}
			if err := checkNew(&ng); err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "new", New: &ng}, true)
			if err != nil {
				return err
			}
			g, tokens := resp.Game, resp.Tokens
			out := c.out
			if *asJSON {
				return writeJSON(out, map[string]any{"id": g.ID, "commitment": g.Commitment,
					"tokens": map[string]string{"german": tokens[rules.German], "allied": tokens[rules.Allied]}})
			}
			fmt.Fprintf(out, "game %s made: %s, %s a side and impulse\n", g.ID, g.Scenario, human(ng.Deadline))
			fmt.Fprintf(out, "commitment %s\n  (SHA-256 of the game's secret seed; the seed is revealed when the game ends)\n", g.Commitment)
			fmt.Fprintf(out, "German token %s  for %s\n", tokens[rules.German], ng.German)
			fmt.Fprintf(out, "Allied token %s  for %s\n", tokens[rules.Allied], ng.Allied)
			if resp.Referee != "" {
				fmt.Fprintf(out, "Each player is sent a welcome mail from %s with his token, to answer with JOIN.\n", resp.Referee)
			} else {
				fmt.Fprintln(out, "No daemon has run on this store yet, so no welcome mail is sent: give each player his token.")
			}
			fmt.Fprintf(out, "The tokens are shown only now; the store keeps their hashes. A player joins with\nJOIN by mail, or here: titm join --side german %s\n", g.ID)
			return nil
		}
	},
}

// checkNew checks the flags of titm new, and makes the addresses lower case
// and a scenario file's path absolute (the daemon may run elsewhere).
func checkNew(ng *referee.NewGame) error {
	if ng.German == "" || ng.Allied == "" {
		return usageError{"--german and --allied are required: the players' mail addresses"}
	}
	addrs := map[string]*string{"--german": &ng.German, "--allied": &ng.Allied}
	for i := range ng.Observers {
		addrs[fmt.Sprintf("--observer %d", i+1)] = &ng.Observers[i]
	}
	for flagName, a := range addrs {
		ad, err := netmail.ParseAddress(*a)
		if err != nil {
			return usageError{fmt.Sprintf("%s %q is not a mail address: %v", flagName, *a, err)}
		}
		*a = strings.ToLower(ad.Address)
	}
	if ng.German == ng.Allied {
		return usageError{"the two players need two addresses: the address tells the sides apart"}
	}
	if ng.Deadline < time.Hour {
		return usageError{fmt.Sprintf("--deadline %s is too short for play by mail: an hour at least", ng.Deadline)}
	}
	if ng.Scenario == "" {
		return usageError{"--scenario is required: a shipped scenario (" + strings.Join(scenarios.Names, ", ") + ") or a scenario file"}
	}
	if !scenarios.Shipped(ng.Scenario) {
		abs, err := filepath.Abs(ng.Scenario)
		if err != nil {
			return err
		}
		ng.Scenario = abs
	}
	if ng.ID != "" {
		return validID(ng.ID)
	}
	return nil
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
