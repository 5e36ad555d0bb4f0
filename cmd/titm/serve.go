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
	"runtime/debug"
	"syscall"
	"time"

	"titm/adjudicator/journal"
	"titm/adjudicator/referee"
	"titm/mail"
	"titm/mail/embedded"
	"titm/store"
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
			cfg, err := mail.LoadConfig(*configFile, os.Getenv)
			if err != nil {
				var ces mail.ConfigErrors
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
					return checkConnections(cfg, quiet, out)
				}
				return nil
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return serve(ctx, cfg, logger(cfg, os.Stderr), out)
		}
	},
}

// logger makes the daemon's logger as configured.
func logger(cfg *mail.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// serve runs the daemon until ctx ends: the embedded servers when
// configured, the store with its control socket, and the mail loops.
func serve(ctx context.Context, cfg *mail.Config, log *slog.Logger, out io.Writer) error {
	if os.Getenv("GOMEMLIMIT") == "" {
		// A daemon that runs for years should stay small: drawing a map
		// picture takes tens of MB for a moment, and without a limit the
		// collector lets the heap grow to twice what it holds. A soft
		// limit of 36 MiB (the daemon holds some 10 to 30) makes it
		// collect sooner; GOMEMLIMIT sets another.
		debug.SetMemoryLimit(36 << 20)
	}
	if cfg.Embedded.Enabled {
		srv, err := startEmbedded(cfg, cfg.Embedded.Path, log)
		if err != nil {
			return err
		}
		defer srv.Close()
	}
	st, err := store.Open(cfg.Store.Path, &store.Options{Logger: log, Backups: cfg.Backup.Dir})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := verifyStore(st, cfg.Backup.Dir, log); err != nil {
		return err
	}
	d := mail.NewDaemon(cfg, st, log, time.Now)
	// Damage in the store that a request meets, the status tells.
	dmg := &damage{log: log}
	status := dmg.status(d.Status)
	// The control socket's requests are served with the daemon's referee,
	// and the mails they queue wake its sender at once.
	ctl, err := listenControl(cfg.Store.ControlSocket, &host{st: st, ref: referee.New(cfg.RefereeOptions()), from: cfg.From(),
		now: time.Now, wake: d.Wake, status: status, damage: dmg}, log)
	if err != nil {
		return err
	}
	defer ctl.Close()
	if cfg.Web.Listen != "" {
		j := journal.New(storeJournal{st: st, log: log, damage: dmg}, &journal.Options{ShowAddresses: cfg.Web.ShowAddresses, Logger: log, Language: cfg.Referee.Language})
		wb, err := startWeb(cfg.Web.Listen, status, j, log)
		if err != nil {
			return err
		}
		defer wb.Close()
	}
	chores, stopChores := context.WithCancel(ctx)
	waitChores := upkeep(chores, cfg, st, status, log)
	defer func() { stopChores(); waitChores() }()
	log.Info("titm serve", "store", cfg.Store.Path, "referee", cfg.Referee.Address, "imap", cfg.IMAP.Address, "smtp", cfg.SMTP.Address, "control", cfg.Store.ControlSocket)
	fmt.Fprintf(out, "titm serve: refereeing as %s; store %s; stop with Ctrl-C\n", cfg.Referee.Address, cfg.Store.Path)
	err = d.Run(ctx)
	log.Info("titm serve stopped")
	return err
}

// startEmbedded starts the embedded mail servers as configured, their
// mailboxes kept in the file path ("": in memory).
func startEmbedded(cfg *mail.Config, path string, log *slog.Logger) (*embedded.Servers, error) {
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: cfg.Embedded.IMAPAddress, SMTPAddr: cfg.Embedded.SMTPAddress,
		Path: path, Users: cfg.Embedded.Users, Folders: []string{cfg.IMAP.ProcessedFolder}, Logger: log})
	if err != nil {
		return nil, err
	}
	log.Info("embedded mail servers", "imap", srv.IMAPAddr(), "smtp", srv.SMTPAddr(), "mail_file", path)
	return srv, nil
}

// checkConnections logs in to the configured servers as serve would, and
// prints each step. The embedded servers, which serve starts itself, are
// started for the check when enabled: a serve already running holds their
// ports, and the check says so.
func checkConnections(cfg *mail.Config, log *slog.Logger, out io.Writer) error {
	if cfg.Embedded.Enabled {
		// The check makes no file: it opens the mail file when there is
		// one, and else keeps the mailboxes in memory.
		path := cfg.Embedded.Path
		if _, err := os.Stat(path); err != nil {
			path = ""
		}
		srv, err := startEmbedded(cfg, path, log)
		if err != nil {
			fmt.Fprintf(out, "embedded: start the servers: FAILED: %v\n", err)
			return errProblems
		}
		defer srv.Close()
		fmt.Fprintf(out, "embedded: start the servers on %s and %s: ok\n", srv.IMAPAddr(), srv.SMTPAddr())
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var failed int
	good := mail.CheckConnections(ctx, cfg, func(s mail.CheckStep) {
		if s.Err != nil {
			failed++
		}
		fmt.Fprintln(out, s)
	})
	if !good {
		fmt.Fprintf(out, "%d step(s) failed; nothing was sent or changed\n", failed)
		return errProblems
	}
	fmt.Fprintln(out, "every step went well; nothing was sent or changed")
	return nil
}
