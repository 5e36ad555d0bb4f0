package main

import (
	"flag"
	"fmt"
	"os"

	"titm/adjudicator/picture"
	"titm/rules"
)

var renderCmd = &command{
	name:    "render",
	summary: "draw the map with a position on it as a PNG: a scenario's start or a saved position",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		name := fs.String("scenario", "", "scenario name or file (required, unless --game)")
		game := fs.String("game", "", "a stored game: the map after its last impulse (or --impulse), as its players received it")
		which := fs.String("impulse", "", "with --game, the impulse, as G17-2 (default: the last played)")
		sf := addStoreFlags(fs)
		stateFile := fs.String("state", "", "a saved position, as titm adjudicate --out writes it (default: the scenario's start)")
		title := fs.String("title", "", "a title for the picture (default: none; a line under it always names the scenario, the next impulse and the German VP)")
		var outFile string
		fs.StringVar(&outFile, "o", "", "write the PNG to this file (required)")
		fs.StringVar(&outFile, "out", "", "the same as -o")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			if outFile == "" {
				return usageError{"-o FILE is required: where to write the PNG"}
			}
			if *game != "" {
				if *name != "" || *stateFile != "" {
					return usageError{"--game draws a stored game: no --scenario or --state with it"}
				}
				resp, err := c.do(sf, request{Act: "render", Game: *game, Impulse: *which}, false)
				if err != nil {
					return err
				}
				data := resp.Data
				if err := os.WriteFile(outFile, data, 0o644); err != nil {
					return fmt.Errorf("writing the picture: %w", err)
				}
				fmt.Fprintf(out, "%s: game %s after %s, %d KB\n", outFile, *game, resp.ImpulseRan, (len(data)+1023)/1024)
				return nil
			}
			s, st, opt, err := renderSource(*name, *stateFile)
			if err != nil {
				return err
			}
			if *title != "" {
				opt.Title = *title
			}
			data, err := picture.Render(s, st, opt)
			if err != nil {
				return err
			}
			if err := os.WriteFile(outFile, data, 0o644); err != nil {
				return fmt.Errorf("writing the picture: %w", err)
			}
			fmt.Fprintf(out, "%s: %s, %s, %d KB\n", outFile, s.Name, positionName(st), (len(data)+1023)/1024)
			return nil
		}
	},
}

// renderSource returns what titm render draws: the scenario's start, or a
// saved position of it.
func renderSource(scenario, stateFile string) (*rules.Scenario, *rules.State, *picture.Options, error) {
	s, err := loadScenario(scenario)
	if err != nil {
		return nil, nil, nil, err
	}
	st := rules.NewState(s)
	if stateFile != "" {
		data, err := os.ReadFile(stateFile)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading the state: %w", err)
		}
		if st, err = rules.ReadState(s, stateFile, data); err != nil {
			return nil, nil, nil, err
		}
	}
	return s, st, &picture.Options{}, nil
}

// positionName says which position was drawn: "before G17-2" or "game over".
func positionName(st *rules.State) string {
	if st.Over {
		return "game over"
	}
	return "before " + st.Next.String()
}
