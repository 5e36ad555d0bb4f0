package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"titm/store"
)

// Exit codes.
const (
	exitOK       = 0
	exitProblems = 1 // the command ran and found problems (invalid data, ...)
	exitUsage    = 2 // the command line was wrong
	// exitDamagedStore: the store is damaged (cut short, a page or a
	// record changed on the disk); titm serve refuses to start on it.
	// exitBadConfig: serve refuses a wrong configuration. Starting again
	// mends neither, so the service unit (docs/titm.service) does not
	// restart on them (RestartPreventExitStatus=3 4) until the operator
	// restores a backup or mends the file.
	exitDamagedStore = 3
	exitBadConfig    = 4
)

// exitError ends a command with an exit status of its own. Its error is
// reported as any other, unless it is errProblems, whose problems the
// command has printed.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// A command is one subcommand of titm.
type command struct {
	name    string
	args    string // the arguments after the flags, for the usage line
	summary string
	// setup declares the flags and returns the function that runs the command
	// once they are parsed.
	setup func(fs *flag.FlagSet, c *cli) func(args []string) error
	// subs are the subcommands of a command that has them instead of setup.
	subs []*command
}

// commands lists the subcommands in the order help shows them.
var commands = []*command{
	scenariosCmd,
	mapCmd,
	unitsCmd,
	validateCmd,
	conformanceCmd,
	ordersCmd,
	adjudicateCmd,
	newCmd,
	joinCmd,
	playCmd,
	gamesCmd,
	showCmd,
	exportCmd,
	verifyCmd,
	dicelogCmd,
	reportCmd,
	renderCmd,
	pauseCmd,
	resumeCmd,
	extendCmd,
	rollbackCmd,
	tournamentCmd,
	ratingsCmd,
	serveCmd,
	statusCmd,
	backupCmd,
	checkStoreCmd,
	compactCmd,
	migrateStoreCmd,
	oauth2Cmd,
	demoCmd,
}

// errProblems is returned by a command that has already printed the
// problems it found.
var errProblems = errors.New("problems found")

// usageError is a wrong command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// cli is what a command runs with: its output, its input and its clock,
// passed to it rather than taken from the process, so that tests give
// their own.
type cli struct {
	out    io.Writer // the standard output
	errOut io.Writer // the standard error
	stdin  io.Reader
	now    func() time.Time
}

// run runs titm with the process's standard input and clock.
func run(args []string, stdout, stderr io.Writer) int {
	return (&cli{out: stdout, errOut: stderr, stdin: os.Stdin, now: time.Now}).run(args)
}

// run runs one command line and returns the exit code.
func (c *cli) run(args []string) int {
	stdout, stderr := c.out, c.errOut
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if cmd := lookup(args[1]); cmd != nil {
				return c.runCommand(cmd, []string{"-h"})
			}
			fmt.Fprintf(stderr, "titm: no command %q\n", args[1])
			return exitUsage
		}
		help(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "titm: unknown command %q; run \"titm help\" for the list\n", args[0])
		return exitUsage
	}
	return c.runCommand(cmd, args[1:])
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func help(w io.Writer) {
	fmt.Fprint(w, "titm referees games of Tigers in the Mist played by e-mail.\n\nUsage: titm <command> [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "  help       this list; \"titm help <command>\" or \"titm <command> -h\" for one command\n")
	fmt.Fprint(w, "\nA scenario is named by a shipped scenario's name (intro, fifth-panzer, three-days,\ncampaign) or by the path of a scenario file of your own (docs/data-format.md).\n")
}

func (cl *cli) runCommand(c *command, args []string) int {
	stdout, stderr := cl.out, cl.errOut
	if c.subs != nil {
		return cl.runSub(c, args)
	}
	fs := flag.NewFlagSet("titm "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	do := c.setup(fs, cl)
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace("titm "+c.name+" [flags] "+c.args), c.summary)
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		if b.Len() > 0 {
			fmt.Fprintf(w, "\nFlags:\n%s", b.String())
		}
	}
	// The flag package prints the usage itself on a wrong flag and on -h;
	// it is printed here instead, once, on the output it belongs to.
	fs.Usage = func() {}
	args, err := parseAnywhere(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			// Help asked for is an answer, not an error.
			usage(stdout)
			return exitOK
		}
		usage(stderr)
		return exitUsage
	}
	err = do(args)
	var ue usageError
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		if !errors.Is(ee.err, errProblems) {
			fmt.Fprintf(stderr, "titm %s: %v\n", c.name, ee.err)
		}
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "titm %s: %s\n", c.name, ue.msg)
		usage(stderr)
		return exitUsage
	case errors.Is(err, store.ErrDamaged):
		fmt.Fprintf(stderr, "titm %s: %v\n", c.name, err)
		return exitDamagedStore
	case errors.Is(err, errProblems):
		return exitProblems
	case errors.Is(err, store.ErrNoGame):
		fmt.Fprintf(stderr, "titm %s: %v; titm games lists the games of the store\n", c.name, err)
		return exitProblems
	default:
		fmt.Fprintf(stderr, "titm %s: %v\n", c.name, err)
		return exitProblems
	}
}

// runSub runs a subcommand of c, as "titm orders check".
func (cl *cli) runSub(c *command, args []string) int {
	stdout, stderr := cl.out, cl.errOut
	list := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: titm %s <subcommand> [flags] [arguments]\n\n%s\n\nSubcommands:\n", c.name, c.summary)
		for _, s := range c.subs {
			fmt.Fprintf(w, "  %-20s %s\n", s.name, s.summary)
		}
	}
	if len(args) == 0 {
		list(stderr)
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		list(stdout)
		return exitOK
	}
	for _, s := range c.subs {
		if s.name == c.name+" "+args[0] {
			return cl.runCommand(s, args[1:])
		}
	}
	fmt.Fprintf(stderr, "titm %s: unknown subcommand %q\n", c.name, args[0])
	list(stderr)
	return exitUsage
}

// parseAnywhere parses the flags wherever they stand among the arguments,
// as users expect ("titm show intro-1 --db x.db"), and returns the
// arguments. After "--" everything is an argument.
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var out []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// The flag package stops at the first argument, or after "--",
		// which it drops.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(out, rest...), nil
		}
		if len(rest) == 0 {
			return out, nil
		}
		out = append(out, rest[0])
		args = rest[1:]
	}
}
