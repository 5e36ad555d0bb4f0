package adjudicator

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"strings"
)

// NewSecret returns a new secret seed for a game, from crypto/rand.
func NewSecret() ([]byte, error) {
	b := make([]byte, SeedSize)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("making a game's seed: %w", err)
	}
	return b, nil
}

// tokenEncoding leaves out letters that read alike (0 and o, 1 and l).
var tokenEncoding = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

// NewToken returns a new secret token for a player: 20 characters in groups
// of four, as k7f3-29xq-pp01-..., 100 bits from crypto/rand, easy to copy
// from a mail.
func NewToken() (string, error) {
	b := make([]byte, 13)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a token: %w", err)
	}
	s := tokenEncoding.EncodeToString(b)[:20]
	var groups []string
	for i := 0; i < len(s); i += 4 {
		groups = append(groups, s[i:i+4])
	}
	return strings.Join(groups, "-"), nil
}

// NewPlayerSeed returns a seed for a player who joins without choosing one.
func NewPlayerSeed() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a player's seed: %w", err)
	}
	return hex.EncodeToString(b), nil
}
