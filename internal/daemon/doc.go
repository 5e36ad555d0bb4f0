// Package daemon is titm serve: the daemon's configuration file and its
// start. LoadConfig reads and checks the file (config.example.toml
// documents every key), reporting every problem with its key and line;
// Serve opens what the file asks for, in order (the embedded mail servers,
// the store, checked, the control socket, the web listener with /health
// and the journal, the upkeep: the hourly health line and the backups,
// and last the mail door of package mail), runs them until its context
// ends, and closes them in the reverse order. Each request at a door is served
// under Contain, so that damage met in the store is that request's error
// and the daemon goes on.
//
// The configuration lives here with the start rather than in a package of
// its own: the file describes this daemon and nothing else, only the
// daemon's commands read it (serve, demo, and oauth2 login for its
// [oauth2] table), and the file and the start change together (a new
// table is a new part to start). Package mail gets its part of it,
// mail.Config, embedded in Config, so that mail knows no file.
//
// The command line (cmd/titm) parses the flags and calls Serve with its
// doors: the control socket speaks the commands' protocol and serves their
// acts, and the journal reads the store as the commands do, so both are
// made there. The imports go one way: cmd/titm imports this package, which
// imports mail, the store and the adjudicator; none of those imports it.
package daemon
