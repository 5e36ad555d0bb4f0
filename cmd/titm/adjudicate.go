package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// recorder is the dice of a run, whichever kind, with the rolls made.
type recorder interface {
	rules.Dice
	rolls() []adjudicator.Roll
}

type streamDice struct{ *adjudicator.Stream }

func (d streamDice) rolls() []adjudicator.Roll { return d.Rolls }

type scriptDice struct{ *adjudicator.Scripted }

func (d scriptDice) rolls() []adjudicator.Roll { return d.Rolls }

var adjudicateCmd = &command{
	name:    "adjudicate",
	args:    "",
	summary: "play order files as consecutive impulses, offline, and print what happened and the position",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		name := fs.String("scenario", "", "scenario name or file (required)")
		stateFile := fs.String("state", "", "a saved position to start from (default: the scenario's start)")
		var orders listFlag
		fs.Var(&orders, "orders", "an order file for the next impulse; repeat for the impulses after it (an empty file is a pass; SIDE german|allied lines switch the side)")
		diceList := fs.String("dice", "", "scripted dice, as 3,7,1")
		diceFile := fs.String("dice-file", "", "a file of scripted dice, separated by spaces, commas or lines")
		seed := fs.String("seed", "", "a key in hex for a dice stream (HMAC-SHA256)")
		asJSON := fs.Bool("json", false, "print JSON: impulses[] and state")
		outFile := fs.String("out", "", "write the final position here, for a later --state")
		asReport := fs.Bool("report", false, "print each impulse's text report, as players receive it")
		language := addLanguageFlag(fs, "en")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected; order files go with --orders"}
			}
			if *asJSON && *asReport {
				return usageError{"--json and --report print different things: give one"}
			}
			p, err := languagePrinter(*language)
			if err != nil {
				return err
			}
			if *language != "" && !*asReport {
				return usageError{"--language is the language of the reports: give it with --report"}
			}
			dice, err := makeDice(*diceList, *diceFile, *seed)
			if err != nil {
				return err
			}
			s, err := loadScenario(*name)
			if err != nil {
				return err
			}
			st, err := startState(s, *stateFile)
			if err != nil {
				return err
			}
			var report *lang.Printer
			if *asReport {
				report = p
			}
			played, st, err := playOrders(out, s, st, dice, orders, report)
			if err != nil {
				return err
			}
			if err := writeState(*outFile, st); err != nil {
				return err
			}
			if *asJSON {
				return writeJSON(out, map[string]any{"impulses": played, "state": stateJSON(s, st)})
			}
			if *asReport {
				return nil
			}
			printImpulses(out, played, st)
			return nil
		}
	},
}

// startState is the position adjudicate starts from: the one saved in
// file, or the scenario's start when file is "".
func startState(s *rules.Scenario, file string) (*rules.State, error) {
	if file == "" {
		return rules.NewState(s), nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	return rules.ReadState(s, file, data)
}

// playedImpulse is an impulse adjudicate played, as --json prints it.
type playedImpulse struct {
	Impulse string                    `json:"impulse"`
	Side    string                    `json:"side"`
	Events  []adjudicator.EventRecord `json:"events"`
	Dice    []adjudicator.Roll        `json:"dice"`
}

// playOrders plays each order file as the next impulse from st, until the
// game ends, printing each impulse's report in the language of report
// unless it is nil; it returns the impulses played and the position
// after them. Orders with errors print every one of them and return
// errProblems.
func playOrders(out io.Writer, s *rules.Scenario, st *rules.State, dice recorder, orders []string, report *lang.Printer) ([]playedImpulse, *rules.State, error) {
	var played []playedImpulse
	for _, f := range orders {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the orders: %w", err)
		}
		imp := st.Next
		before := len(dice.rolls())
		next, ev, err := adjudicator.PlayFile(s, st, string(data), dice)
		if err != nil {
			var es rules.OrderErrors
			if errors.As(err, &es) {
				for _, e := range es {
					fmt.Fprintf(out, "%s:%d: %q: %s\n", f, e.Line, e.Text, e.Msg)
				}
				fmt.Fprintf(out, "%s: %d error(s) in the orders for %s: nothing applied\n", f, len(es), imp)
				return nil, nil, errProblems
			}
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		ji := playedImpulse{Impulse: fmt.Sprintf("%d-%d", imp.Day, imp.N), Side: string(imp.Side), Events: []adjudicator.EventRecord{}, Dice: []adjudicator.Roll{}}
		for _, e := range ev {
			ji.Events = append(ji.Events, adjudicator.EventOf(e))
		}
		ji.Dice = append(ji.Dice, dice.rolls()[before:]...)
		played = append(played, ji)
		if report != nil {
			d := &adjudicator.ReportData{Scenario: s, Impulse: imp, Events: ev, Dice: ji.Dice, After: next, Result: next.Result}
			if !next.Over {
				d.Next = next.Next
			}
			io.WriteString(out, adjudicator.WriteReportIn(report, d)+"\n")
		}
		st = next
		if st.Over {
			break
		}
	}
	return played, st, nil
}

// printImpulses prints the impulses played, event by event and die by die,
// and the position they leave.
func printImpulses(out io.Writer, played []playedImpulse, st *rules.State) {
	for _, ji := range played {
		fmt.Fprintf(out, "%s %s\n", strings.ToUpper(ji.Side[:1])+ji.Side[1:], ji.Impulse)
		for _, e := range ji.Events {
			fmt.Fprintf(out, "  %s\n", e.Text)
		}
		for _, d := range ji.Dice {
			fmt.Fprintf(out, "  die %d: %s\n", d.Value, d.Purpose)
		}
	}
	if st.Over {
		fmt.Fprintf(out, "The game is over. German VP %d.\n", st.VP)
	} else {
		fmt.Fprintf(out, "Next: %s impulse %d-%d. German VP %d.\n", st.Next.Side.Title(), st.Next.Day, st.Next.N, st.VP)
	}
}

// writeState writes the position to file, for a later --state; nothing
// when file is "".
func writeState(file string, st *rules.State) error {
	if file == "" {
		return nil
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the state: %w", err)
	}
	return nil
}

// makeDice is the dice of exactly one of --dice (list), --dice-file
// (file) and --seed.
func makeDice(list, file, seed string) (recorder, error) {
	n := 0
	for _, v := range []string{list, file, seed} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return nil, usageError{"give the dice with exactly one of --dice, --dice-file or --seed"}
	}
	switch {
	case seed != "":
		key, err := hex.DecodeString(seed)
		if err != nil || len(key) == 0 {
			return nil, usageError{"--seed must be a key in hexadecimal"}
		}
		return streamDice{adjudicator.NewStream(key)}, nil
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading the dice: %w", err)
		}
		list = string(data)
	}
	var dice []int
	for i, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 10 {
			return nil, usageError{fmt.Sprintf("die %d is %q: dice are 1 to 10 (0 counts as 10)", i+1, f)}
		}
		if n == 0 {
			n = 10 // 1.0
		}
		dice = append(dice, n)
	}
	return scriptDice{&adjudicator.Scripted{Dice: dice}}, nil
}

// stateJSON is the position as titm adjudicate --json prints it: all that
// the --out file holds, with each unit's side and place written plainly.
func stateJSON(s *rules.Scenario, st *rules.State) map[string]any {
	type unit struct {
		ID         string `json:"id"`
		Side       string `json:"side"`
		Area       any    `json:"area"`
		Strength   int    `json:"strength"`
		Arrived    bool   `json:"arrived"`
		Eliminated bool   `json:"eliminated"`
		Entrenched bool   `json:"entrenched"`
		Moved      bool   `json:"moved"`
		Attacked   bool   `json:"attacked"`
		InSupply   bool   `json:"in_supply"`
		Dismounted bool   `json:"dismounted"`
		Exited     bool   `json:"exited"`
		Bridging   bool   `json:"bridging"`
		TurnStart  any    `json:"turn_start"`
	}
	place := func(p rules.Place) any {
		switch {
		case p.IsZero():
			return nil
		case p.IsZone():
			return p.Zone
		}
		return p.Area
	}
	units := []unit{}
	for _, u := range st.Units {
		ju := unit{ID: u.ID, Side: string(s.OOB.Unit(u.ID).Side), Strength: u.Strength, Arrived: u.Arrived, Eliminated: u.Eliminated,
			Entrenched: u.Entrenched, Moved: u.Moved, Attacked: u.Attacked, InSupply: u.InSupply, Dismounted: u.Dismounted,
			Exited: u.Exited, Bridging: u.Bridging, TurnStart: place(u.TurnStart)}
		if u.OnMap() {
			ju.Area = place(u.Place)
		}
		units = append(units, ju)
	}
	control := map[string]string{}
	for a, side := range st.Control {
		control[strconv.Itoa(a)] = string(side)
	}
	var result any
	if st.Result != "" {
		result = st.Result
	}
	standing := map[string]any{}
	for side, sd := range st.Standing {
		standing[string(side)] = sd
	}
	return map[string]any{
		"impulse":        fmt.Sprintf("%d-%d", st.Next.Day, st.Next.N),
		"to_move":        string(st.Next.Side),
		"over":           st.Over,
		"units":          units,
		"bridges":        st.Bridges,
		"control":        control,
		"vp":             st.VP,
		"result":         result,
		"scenario":       s.Name,
		"released":       append([]string{}, st.Released...),
		"special_forces": st.SF,
		"sf_used":        append([]string{}, st.SFUsed...),
		"sf_days":        append([]int{}, st.SFDays...),
		"standing":       standing,
	}
}
