package store

import "errors"

// The store's errors. Each is returned wrapped with the file or the game.
var (
	// ErrLocked is returned by Open when another process holds the file,
	// such as a running daemon.
	ErrLocked = errors.New("the store is in use by another titm process (a running daemon?); stop it, or let the command go through it")
	// ErrForeign is returned by Open for a file that is not a titm store.
	ErrForeign = errors.New("not a titm store")
	// ErrNewer is returned by Open for a store written by a newer titm.
	ErrNewer = errors.New("the store is newer than this titm")
	// ErrNoGame is returned when a game id is not in the store.
	ErrNoGame = errors.New("no such game")
	// ErrExists is returned when a game id is taken.
	ErrExists = errors.New("a game with this id exists")
	// ErrLogOrder is returned when records to append do not follow the
	// log's last record.
	ErrLogOrder = errors.New("the records do not follow the log")
)
