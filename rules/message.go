package rules

import "fmt"

// A Message is a text for a player: its format, written in English, which
// is also its key in the message catalogs that give it in the player's
// language, and the arguments of the format. The rules write what they
// refuse and why as messages, and the referee presents them in each
// reader's language; String gives the English.
type Message struct {
	Key  string
	Args []any
}

// M returns the message of a format and its arguments.
func M(key string, args ...any) Message { return Message{Key: key, Args: args} }

// String returns the message in English.
func (m Message) String() string {
	if len(m.Args) == 0 {
		return m.Key
	}
	return fmt.Sprintf(m.Key, m.Args...)
}

// A Printer gives messages in a reader's language: Sprintf formats the
// message key with args, as fmt.Sprintf formats a format. The texts the
// rules write for a player whole (HELP) are written through one.
type Printer interface {
	Sprintf(key string, args ...any) string
}

// English is the Printer of the English texts: the keys themselves.
var English Printer = english{}

type english struct{}

func (english) Sprintf(key string, args ...any) string { return Message{key, args}.String() }
