package rules

import (
	"errors"
	"fmt"
	"slices"
)

// A Message is a text for a player: its format, written in English, which
// is also its key in the message catalogs that give it in the player's
// language, and the arguments of the format. The rules write what they
// refuse and why as messages, and the referee presents them in each
// reader's language; String gives the English.
//
// An argument may be a Message itself, given in the same language, or a
// Side, written by its title (German, Allied; ドイツ軍, 連合軍). A text
// never joins English words of its own: each piece that a reader reads is
// a message (List, OrList, UnitType.Text, Map.PlaceMessage,
// DataMessage ...). Every event of the rules says itself as one too
// (TextEvent), for the report.
type Message struct {
	Key  string
	Args []any
}

// M returns the message of a format and its arguments.
func M(key string, args ...any) Message { return Message{Key: key, Args: args} }

// Plain returns a text that reads the same in every language, as a
// message: a name, an id, a keyword of a file, or a text the operator
// wrote himself.
func Plain(s string) Message { return M("%s", s) }

// String returns the message in English.
func (m Message) String() string {
	if len(m.Args) == 0 {
		return m.Key
	}
	var titled []any // the arguments with each side by its title, once one is a side
	for i, a := range m.Args {
		if s, ok := a.(Side); ok && s != "" {
			if titled == nil {
				titled = slices.Clone(m.Args)
			}
			titled[i] = s.Title()
		}
	}
	if titled == nil {
		return fmt.Sprintf(m.Key, m.Args...)
	}
	return fmt.Sprintf(m.Key, titled...)
}

// Err returns the message as an error: its Error is the English, and
// MessageOf gives the message back, for the reader's language.
func (m Message) Err() error { return messageError{m} }

type messageError struct{ m Message }

func (e messageError) Error() string    { return e.m.String() }
func (e messageError) message() Message { return e.m }

// Wrap returns the message as an error, as Err does, that wraps err: a
// caller tells the kind of refusal by errors.Is, and a reader reads the
// message in his language.
func (m Message) Wrap(err error) error { return wrapError{messageError{m}, err} }

type wrapError struct {
	messageError
	err error
}

func (e wrapError) Unwrap() error { return e.err }

// MessageOf returns the message an error carries (Message.Err, or an error
// of the rules that says why), or else the error's text as it is.
func MessageOf(err error) Message {
	var m interface{ message() Message }
	if errors.As(err, &m) {
		return m.message()
	}
	return Plain(err.Error())
}

// List writes items as a list: "a, b, c" (in Japanese "a、b、c"). An item
// may be a message.
func List[T any](items []T) Message {
	return joined(items, func(a Message, b any) Message { return M("%s, %s", a, b) })
}

// OrList writes items as alternatives: "a", "a or b", "a, b or c".
func OrList[T any](items []T) Message {
	if n := len(items); n > 1 {
		return M("%s or %s", List(items[:n-1]), items[n-1])
	}
	return List(items)
}

// AndList writes items as "a", "a and b", "a, b and c".
func AndList[T any](items []T) Message {
	if n := len(items); n > 1 {
		return M("%s and %s", List(items[:n-1]), items[n-1])
	}
	return List(items)
}

// Spaced writes items one after the other, a space between them, as
// modifiers and the parts of a cost are written: "+1 target entrenched
// (8.56, 9.71) -1 confusion (14.24)".
func Spaced[T any](items []T) Message {
	return joined(items, func(a Message, b any) Message { return M("%s %s", a, b) })
}

// joined writes items each after the ones before, by pair, which joins
// what comes before to the next item; its key is a literal at its M, as
// the catalogs' test finds keys.
func joined[T any](items []T, pair func(before Message, next any) Message) Message {
	switch n := len(items); n {
	case 0:
		return Plain("")
	case 1:
		return M("%s", items[0])
	default:
		return pair(joined(items[:n-1], pair), items[n-1])
	}
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
