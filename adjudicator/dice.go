// Package adjudicator runs one game's life around the rules: the verifiable
// dice stream, the text orders of each impulse, whose turn it is, deadlines,
// the director's interventions and the hash-chained log that lets anyone
// replay and check a game.
package adjudicator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// A Roll is one die rolled, with what it was for (B10: every roll appears
// with its purpose) and, for a stream's dice, the number of the HMAC block it
// was read from, so that an auditor can recompute it alone.
type Roll struct {
	Purpose string `json:"purpose"`
	Value   int    `json:"roll"`
	Draw    uint64 `json:"draw"` // scripted dice: 0
}

// DiceKey derives the key of a game's dice stream (B10) from the game's
// secret seed, the game's id and both players' seeds, so that neither the
// operator, who chose the secret, nor a player, who chose only his own seed,
// could have known the dice in advance:
//
//	key = HMAC-SHA256(seed, "titm dice v1" || lp(game) || lp(german) || lp(allied))
//
// where lp(x) is the length of x as 4 bytes big-endian followed by x, which
// keeps ("ab", "c") and ("a", "bc") apart. docs/verify.md states the scheme
// for auditors.
func DiceKey(seed []byte, game, german, allied string) []byte {
	m := hmac.New(sha256.New, seed)
	m.Write([]byte("titm dice v1"))
	for _, s := range []string{game, german, allied} {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(s)))
		m.Write(n[:])
		m.Write([]byte(s))
	}
	return m.Sum(nil)
}

// Stream is a deterministic stream of ten-sided dice derived from a key with
// HMAC-SHA256 over a counter: draw n is HMAC(key, n as 8 bytes big-endian),
// so anyone who learns the key can recompute every die. It is not safe for
// concurrent use.
type Stream struct {
	key   []byte
	n     uint64
	Rolls []Roll // every die rolled, in order
}

// NewStream returns the stream for a key, at its start.
func NewStream(key []byte) *Stream { return NewStreamAt(key, 0) }

// NewStreamAt returns the stream for a key after n draws: a game's stream
// goes on from impulse to impulse, and never starts again.
func NewStreamAt(key []byte, n uint64) *Stream {
	return &Stream{key: append([]byte(nil), key...), n: n}
}

// Drawn returns the number of draws made so far, the position to resume at.
func (s *Stream) Drawn() uint64 { return s.n }

// Roll returns the next die, 1..10 (1.0: a 0 counts as 10).
func (s *Stream) Roll(purpose string) (int, error) {
	for {
		draw := s.n
		s.n++
		if r, ok := Face(s.key, draw); ok {
			s.Rolls = append(s.Rolls, Roll{Purpose: purpose, Value: r, Draw: draw})
			return r, nil
		}
	}
}

// Face returns the die that draw n of the stream for key gives, and false
// when the draw gives none and the next draw must be taken. The first two
// bytes of HMAC(key, n) are read as a number v below 65536; v from 65530 up is
// rejected, because 65536 is not a multiple of 10 and keeping those values
// would make the faces 1 to 6 slightly likelier. Otherwise the die is
// v mod 10 + 1. A draw is rejected about once in 11,000.
func Face(key []byte, n uint64) (int, bool) {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], n)
	m := hmac.New(sha256.New, key)
	m.Write(msg[:])
	sum := m.Sum(nil)
	v := binary.BigEndian.Uint16(sum)
	if v >= 65530 {
		return 0, false
	}
	return int(v%10) + 1, true
}

// Scripted plays back fixed dice, for tests and for replaying a table game;
// when they run out it fails, naming the roll that was needed.
type Scripted struct {
	Dice  []int
	Rolls []Roll
}

// Roll returns the next scripted die.
func (s *Scripted) Roll(purpose string) (int, error) {
	if len(s.Rolls) >= len(s.Dice) {
		return 0, fmt.Errorf("the scripted dice ran out: die %d was needed for %s", len(s.Rolls)+1, purpose)
	}
	r := s.Dice[len(s.Rolls)]
	if r < 1 || r > 10 {
		return 0, fmt.Errorf("scripted die %d is %d: a die is 1 to 10 (a 0 counts as 10)", len(s.Rolls)+1, r)
	}
	s.Rolls = append(s.Rolls, Roll{Purpose: purpose, Value: r})
	return r, nil
}
