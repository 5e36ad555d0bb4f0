package main

import (
	"flag"
	"io"
)

var reportCmd = &command{
	name:    "report",
	args:    "GAME",
	summary: "an impulse's text report, as the players received it, from a stored game (the last impulse, or --impulse)",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		sf := addStoreFlags(fs)
		which := fs.String("impulse", "", "the impulse, as G17-2 (default: the last played); after a rollback, its last playing")
		language := addLanguageFlag(fs, "the language of the player who played the impulse")
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			code, err := languageCode(*language)
			if err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "report", Game: id, Impulse: *which, Language: code}, false)
			if err != nil {
				return err
			}
			_, err = io.WriteString(out, resp.Text)
			return err
		}
	},
}
