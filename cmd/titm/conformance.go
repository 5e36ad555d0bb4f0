package main

import (
	"flag"
	"fmt"

	"titm/internal/conformance"
)

var conformanceCmd = &command{
	name:    "conformance",
	args:    "CASE...",
	summary: "play conformance case files (docs/conformance.md) and print how each differs from what it expects",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		return func(args []string) error {
			if len(args) == 0 {
				return usageError{"name one or more case files, as testdata/conformance/8-movement/*.toml"}
			}
			var l conformance.Loader
			failed := 0
			for _, f := range args {
				cs, err := conformance.Load(f)
				var fails []string
				if err == nil {
					fails, err = l.Run(cs)
				}
				switch {
				case err != nil:
					failed++
					fmt.Fprintf(out, "FAIL %s\n\t%v\n", f, err)
				case len(fails) > 0:
					failed++
					fmt.Fprintf(out, "FAIL %s (%s: %s)\n", f, cs.Rule, cs.Title)
					for _, x := range fails {
						fmt.Fprintf(out, "\t%s\n", x)
					}
				default:
					fmt.Fprintf(out, "ok   %s (%s: %s)\n", f, cs.Rule, cs.Title)
				}
			}
			if failed > 0 {
				fmt.Fprintf(out, "%d of %d case(s) failed\n", failed, len(args))
				return errProblems
			}
			fmt.Fprintf(out, "%d case(s) passed\n", len(args))
			return nil
		}
	},
}
