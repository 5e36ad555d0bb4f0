// Package mail is the referee's mail door: it reads the players' mails
// over IMAP (Inbox), hands each, with its sender checked (DKIM where
// required), to the referee's acts in one store transaction (Handler), and
// sends the mails the acts queue over SMTP from the store's outbox
// (Sender), retrying what fails for a while. It reads and writes MIME
// (Incoming, Compose), logs in with a password or an OAuth2 access token,
// and checks the logins without sending anything (CheckConnections).
// Daemon runs the inbox, the outbox and the deadlines' clock together.
//
// Package mail knows no file: Config is the part of the daemon's
// configuration it works by (the referee, the IMAP and SMTP servers and
// their logins), which internal/daemon reads from the configuration file,
// checks, and hands over. The daemon as a whole (the store, the control
// socket, the web journal, the backups, the embedded servers) is
// internal/daemon's, so that this package holds mail and nothing else,
// and depends only on the store and the adjudicator below it.
package mail
