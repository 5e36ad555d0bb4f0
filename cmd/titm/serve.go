package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"titm/adjudicator/journal"
	"titm/internal/daemon"
)

var serveCmd = &command{
	name:    "serve",
	summary: "referee games by mail: read orders over IMAP, adjudicate, send reports over SMTP",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out, errOut := c.out, c.errOut
		configFile := fs.String("config", "titm.toml", "the configuration file (config.example.toml documents every key)")
		check := fs.Bool("check", false, "only check the configuration, and say what is wrong")
		connect := fs.Bool("connect", false, "with --check: also log in to the IMAP and SMTP servers, report each step, and send and change nothing")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			cfg, err := daemon.LoadConfig(*configFile, os.Getenv)
			if err != nil {
				var ces daemon.ConfigErrors
				if errors.As(err, &ces) {
					for _, e := range ces {
						fmt.Fprintln(out, e)
					}
					fmt.Fprintf(out, "%s: %d problem(s); titm serve does not start with a wrong configuration\n", *configFile, len(ces))
					err = errProblems
				}
				if *check {
					return err
				}
				return exitError{exitBadConfig, err}
			}
			if *connect && !*check {
				return usageError{"--connect goes with --check"}
			}
			if *check {
				fmt.Fprintf(out, "%s: the configuration is good\n", *configFile)
				if *connect {
					// The embedded servers' start and stop are the check's
					// own lines; only their warnings are logged.
					quiet := slog.New(slog.NewTextHandler(errOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
					if err := daemon.CheckConnections(cfg, quiet, out); err != nil {
						return errProblems
					}
				}
				return nil
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return serve(ctx, cfg, daemon.Logger(cfg, os.Stderr), out)
		}
	},
}

// serve runs the daemon (internal/daemon) until ctx ends, with the command
// line's doors: the control socket, whose requests the commands' host
// serves with the daemon's referee, the mails they queue waking its sender
// at once; and the journal, which reads the store as the commands do.
func serve(ctx context.Context, cfg *daemon.Config, log *slog.Logger, out io.Writer) error {
	return daemon.Serve(ctx, cfg, log, out, daemon.Doors{
		Control: func(s *daemon.Serving) (io.Closer, error) {
			return listenControl(s.Config.Store.ControlSocket, &host{st: s.Store, ref: s.Referee, from: s.Config.From(),
				now: time.Now, wake: s.Wake, status: s.Status, damage: s.Damage}, s.Log)
		},
		Journal: func(s *daemon.Serving) journal.Source {
			return storeJournal{st: s.Store, log: s.Log, damage: s.Damage}
		},
	})
}
