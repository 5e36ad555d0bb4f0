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

// Public returns the header without the addresses and their salt.
func (h Header) Public() Header {
	h.German, h.Allied, h.Observers, h.Salt = "", "", nil, ""
	return h
}

// commitments returns the commitments to the header's addresses, in the
// order of the created record's, or nil without a salt.
func (h Header) commitments() []string {
	if h.Salt == "" {
		return nil
	}
	var cs []string
	for _, a := range append([]string{h.German, h.Allied}, h.Observers...) {
		cs = append(cs, AddressCommitment(h.Salt, a))
	}
	return cs
}

// checkAddresses checks the header's addresses against the commitments of
// the created record c, and returns how many it checked: none for a log
// from before commitments, whose header's addresses were never logged, and
// none for a public header, which holds no address.
func checkAddresses(h Header, c Record) (int, error) {
	bad := func(format string, args ...any) (int, error) {
		return 0, &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf(format, args...)}
	}
	switch {
	case len(c.AddressCommitments) == 0 && h.Salt != "":
		return bad("the export gives a salt of address commitments, but the log commits to no address")
	case len(c.AddressCommitments) == 0:
		return 0, nil
	case len(c.AddressCommitments) < 2:
		return bad("the log commits to %d addresses: a game has two players", len(c.AddressCommitments))
	case h.Salt == "" && (h.German != "" || h.Allied != "" || len(h.Observers) > 0):
		return bad("the export gives addresses without the salt to check them against the log's commitments: a public export gives neither")
	case h.Salt == "":
		return 0, nil
	}
	if err := CheckAddressSalt(h.Salt); err != nil {
		return bad("%v", err)
	}
	if n := 2 + len(h.Observers); n != len(c.AddressCommitments) {
		return bad("the export gives %d addresses (the players' and %d observers'), but the log commits to %d", n, len(h.Observers), len(c.AddressCommitments))
	}
	for i, want := range h.commitments() {
		if c.AddressCommitments[i] != want {
			who := fmt.Sprintf("observer %d", i-1)
			switch i {
			case 0:
				who = "the German player"
			case 1:
				who = "the Allied player"
			}
			return bad("the export gives %s's address as %q, which is not the address the log commits to", who, append([]string{h.German, h.Allied}, h.Observers...)[i])
		}
	}
	return len(c.AddressCommitments), nil
}
