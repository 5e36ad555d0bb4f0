package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
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

// Doors are the daemon's ways in beside the mail that the command line
// gives it. The control socket speaks the command line's protocol and
// serves its acts, and the journal reads the store as the commands do, so
// both are made there; the daemon opens them on its store, in its order,
// and closes them when it stops.
type Doors struct {
	// Control listens on s.Config.Store.ControlSocket and serves the
	// commands' requests with s.Referee, one at a time, until closed.
	Control func(s *Serving) (io.Closer, error)
	// Journal is the web journal's source on s.Store; nil serves /health
	// alone.
	Journal func(s *Serving) journal.Source
}

// Serving is the daemon at work, as its doors are given it.
type Serving struct {
	Config *Config
	Store  *store.Store
	// Referee is the daemon's referee, as the configuration makes it.
	Referee *referee.Referee
	// Wake tells the sender that mail is queued, so that it goes at once.
	Wake func()
	// Status is the daemon's status, read contained, with the damage met.
	Status func() (*mail.Status, error)
	// Damage is where the doors note damage they meet in the store.
	Damage *Damage
	Log    *slog.Logger
}

// Logger makes the daemon's logger as configured ([log]), writing to w.
func Logger(cfg *Config, w io.Writer) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// Serve runs the daemon until ctx ends: the embedded servers when
// configured, the store, checked, with its control socket, the web
// listener, the upkeep and last the mail loops, started in that order and
// stopped in the reverse. It says on out that it runs. A store found damaged at the
// start is a *store.DamageError, which the command's exit status tells.
func Serve(ctx context.Context, cfg *Config, log *slog.Logger, out io.Writer, doors Doors) error {
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
	d := mail.NewDaemon(&cfg.Config, st, log, time.Now)
	// Damage in the store that a request meets, the status tells.
	dmg := &Damage{log: log}
	s := &Serving{Config: cfg, Store: st, Referee: referee.New(cfg.RefereeOptions()), Wake: d.Wake,
		Status: dmg.Status(d.Status), Damage: dmg, Log: log}
	// The control socket's requests are served with the daemon's referee,
	// and the mails they queue wake its sender at once.
	if doors.Control != nil {
		ctl, err := doors.Control(s)
		if err != nil {
			return err
		}
		defer ctl.Close()
	}
	if cfg.Web.Listen != "" {
		var j http.Handler
		if doors.Journal != nil {
			j = journal.New(doors.Journal(s), &journal.Options{ShowAddresses: cfg.Web.ShowAddresses, Logger: log, Language: cfg.Referee.Language})
		}
		wb, err := StartWeb(cfg.Web.Listen, s.Status, j, log)
		if err != nil {
			return err
		}
		defer wb.Close()
	}
	chores, stopChores := context.WithCancel(ctx)
	waitChores := upkeep(chores, cfg, st, s.Status, log)
	defer func() { stopChores(); waitChores() }()
	log.Info("titm serve", "store", cfg.Store.Path, "referee", cfg.Referee.Address, "imap", cfg.IMAP.Address, "smtp", cfg.SMTP.Address, "control", cfg.Store.ControlSocket)
	fmt.Fprintf(out, "titm serve: refereeing as %s; store %s; stop with Ctrl-C\n", cfg.Referee.Address, cfg.Store.Path)
	err = d.Run(ctx)
	log.Info("titm serve stopped")
	return err
}

// startEmbedded starts the embedded mail servers as configured, their
// mailboxes kept in the file path ("": in memory).
func startEmbedded(cfg *Config, path string, log *slog.Logger) (*embedded.Servers, error) {
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: cfg.Embedded.IMAPAddress, SMTPAddr: cfg.Embedded.SMTPAddress,
		Path: path, Users: cfg.Embedded.Users, Folders: []string{cfg.IMAP.ProcessedFolder}, Logger: log})
	if err != nil {
		return nil, err
	}
	log.Info("embedded mail servers", "imap", srv.IMAPAddr(), "smtp", srv.SMTPAddr(), "mail_file", path)
	return srv, nil
}

// ErrCheckFailed is CheckConnections' error when a step failed; the steps
// are printed.
var ErrCheckFailed = errors.New("a step of the check failed")

// CheckConnections logs in to the configured servers as Serve would, and
// prints each step on out. The embedded servers, which Serve starts itself,
// are started for the check when enabled: a daemon already running holds
// their ports, and the check says so.
func CheckConnections(cfg *Config, log *slog.Logger, out io.Writer) error {
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
			return ErrCheckFailed
		}
		defer srv.Close()
		fmt.Fprintf(out, "embedded: start the servers on %s and %s: ok\n", srv.IMAPAddr(), srv.SMTPAddr())
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var failed int
	good := mail.CheckConnections(ctx, &cfg.Config, func(s mail.CheckStep) {
		if s.Err != nil {
			failed++
		}
		fmt.Fprintln(out, s)
	})
	if !good {
		fmt.Fprintf(out, "%d step(s) failed; nothing was sent or changed\n", failed)
		return ErrCheckFailed
	}
	fmt.Fprintln(out, "every step went well; nothing was sent or changed")
	return nil
}

// verifyStore is the daemon's check of its store at its start: the pages,
// the sums and the records (store.Verify; the logs' replay is left to
// titm check-store). A damaged store is refused, every problem logged.
func verifyStore(st *store.Store, backups string, log *slog.Logger) error {
	start := time.Now()
	r, err := st.Verify()
	if err != nil {
		return err
	}
	if !r.OK() {
		for _, p := range r.Problems {
			log.Error("store: damaged", "where", p.Where, "problem", p.What)
		}
		return &store.DamageError{Path: st.Path(), Problems: r.Problems, Backups: backups}
	}
	log.Info("store: checked", "path", st.Path(), "pages", r.Pages, "games", r.Games, "mails", r.Mails, "took", time.Since(start).Round(time.Millisecond))
	return nil
}
