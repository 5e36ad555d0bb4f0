// Package adjudicator runs one game's life around the rules: the dice
// stream, the text orders of each impulse, and (in later files) whose turn it
// is, deadlines and reports.
package adjudicator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// A Roll is one die rolled, with what it was for (B10: every roll appears
// with its purpose).
type Roll struct {
	Purpose string `json:"purpose"`
	Value   int    `json:"roll"`
}

// Stream is a deterministic stream of ten-sided dice derived from a secret
// key with HMAC-SHA256 over a counter: the n-th die is read from
// HMAC(key, n), so anyone who later learns the key can recompute every die.
// It is not safe for concurrent use.
type Stream struct {
	key   []byte
	n     uint64
	Rolls []Roll // every die rolled, in order
}

// NewStream returns the stream for a key.
func NewStream(key []byte) *Stream { return &Stream{key: append([]byte(nil), key...)} }

// Roll returns the next die, 1..10 (1.0: a 0 counts as 10).
func (s *Stream) Roll(purpose string) (int, error) {
	for {
		var msg [8]byte
		binary.BigEndian.PutUint64(msg[:], s.n)
		s.n++
		m := hmac.New(sha256.New, s.key)
		m.Write(msg[:])
		sum := m.Sum(nil)
		// Rejection sampling keeps every face equally likely: 2^16 is
		// not a multiple of 10, so values from 65530 up are drawn again.
		for i := 0; i+2 <= len(sum); i += 2 {
			v := binary.BigEndian.Uint16(sum[i:])
			if v < 65530 {
				r := int(v%10) + 1
				s.Rolls = append(s.Rolls, Roll{purpose, r})
				return r, nil
			}
		}
	}
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
	s.Rolls = append(s.Rolls, Roll{purpose, r})
	return r, nil
}
