package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"

	"titm/rules"
	"titm/rules/scenarios"
)

var validateCmd = &command{
	name:    "validate",
	args:    "[FILE...]",
	summary: "check data files (without FILE: the shipped data) and report every problem with its file and line",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		mapFile := fs.String("map", "", "the map to check an order-of-battle FILE against (default: map.toml beside it)")
		return func(args []string) error {
			var ps rules.Problems
			var checked []string
			if len(args) == 0 {
				for _, n := range scenarios.Names {
					name := scenarios.Dir + "/" + n + ".toml"
					_, err := rules.LoadScenario(scenarios.Read, name)
					ps = append(ps, problemsOf(name, err)...)
					checked = append(checked, name)
				}
			}
			for _, f := range args {
				ps = append(ps, validateFile(f, *mapFile)...)
				checked = append(checked, f)
			}
			ps = uniq(ps)
			for _, p := range ps {
				fmt.Fprintln(out, p)
			}
			if len(ps) > 0 {
				fmt.Fprintf(out, "%d problem(s)\n", len(ps))
				return errProblems
			}
			fmt.Fprintf(out, "ok: %d file(s) checked with what they name, no problems\n", len(checked))
			return nil
		}
	},
}

// validateFile checks one file of any of the three kinds.
func validateFile(name, mapFile string) rules.Problems {
	data, err := os.ReadFile(name)
	if err != nil {
		return rules.Problems{{File: name, Msg: fmt.Sprintf("cannot read the file: %v", err)}}
	}
	var top map[string]any
	if _, err := toml.Decode(string(data), &top); err != nil {
		// The loader reports the syntax error with its line.
		_, err := rules.LoadMap(os.ReadFile, name)
		return problemsOf(name, err)
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	switch {
	case has("map") || has("oob") || has("victory"):
		_, err := rules.LoadScenario(os.ReadFile, name)
		return problemsOf(name, err)
	case has("area") || has("zone") || has("road"):
		_, err := rules.LoadMap(os.ReadFile, name)
		return problemsOf(name, err)
	case has("unit") || has("group"):
		if mapFile == "" {
			mapFile = filepath.Join(filepath.Dir(name), "map.toml")
			if _, err := os.Stat(mapFile); err != nil {
				mapFile = ""
			}
		}
		var m *rules.Map
		var ps rules.Problems
		if mapFile != "" {
			var err error
			m, err = rules.LoadMap(os.ReadFile, mapFile)
			if err != nil {
				ps = append(ps, problemsOf(mapFile, err)...)
				ps = append(ps, rules.Problem{File: name, Msg: "the map " + mapFile + " has problems, so places were not checked"})
			}
		}
		_, err := rules.LoadOOB(os.ReadFile, name, m)
		return append(ps, problemsOf(name, err)...)
	}
	return rules.Problems{{File: name, Msg: "cannot tell what kind of data file this is: a map has [[area]] tables, an order of battle [[unit]] tables, a scenario map = and oob = keys (docs/data-format.md)"}}
}

// problemsOf turns a loader's error into problems.
func problemsOf(name string, err error) rules.Problems {
	if err == nil {
		return nil
	}
	var ps rules.Problems
	if errors.As(err, &ps) {
		return ps
	}
	return rules.Problems{{File: name, Msg: err.Error()}}
}

func uniq(ps rules.Problems) rules.Problems {
	seen := map[rules.Problem]bool{}
	var out rules.Problems
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
