package adjudicator

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// AddressSaltSize is the size of the salt of a log's address commitments.
const AddressSaltSize = 16

// NewAddressSalt returns a new salt for a log's address commitments, in
// hex, from crypto/rand. It is kept beside the addresses, never in the log
// and never in a public export: an address is easy to guess, and without
// the salt nobody can try guesses against a commitment.
func NewAddressSalt() (string, error) {
	b := make([]byte, AddressSaltSize)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making the salt of the address commitments: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// AddressCommitment returns what a log holds instead of a mail address:
//
//	hex SHA-256("titm address v1" || lp(salt) || lp(address))
//
// with lp as for the dice's key (docs/verify.md), salt the log's salt in
// hex and address in lower case. One salt serves a whole log, so the same
// address gives the same commitment throughout it (a tournament can check
// that a replacement is nobody who plays already), and another log's
// commitments to it differ.
func AddressCommitment(salt, address string) string {
	h := sha256.New()
	h.Write([]byte("titm address v1"))
	for _, s := range []string{salt, strings.ToLower(strings.TrimSpace(address))} {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// CheckAddressSalt reports whether salt is a salt of address commitments:
// AddressSaltSize bytes in hex.
func CheckAddressSalt(salt string) error {
	if b, err := hex.DecodeString(salt); err != nil || len(b) != AddressSaltSize {
		return fmt.Errorf("the salt of the address commitments %q is not %d bytes in hex", salt, AddressSaltSize)
	}
	return nil
}
