// Package webverify is titm verify for a web page: it reads an export, of
// a game or of a tournament, checks it with the verifier titm verify runs
// (adjudicator.Verify, tournament.Verify), and gives the verdict as a
// Result that a script can show. Its wasm subpackage compiles it to
// WebAssembly, which the journal serves, so that a reader's browser checks
// an export without trusting the server it came from.
//
// The package is portable Go, tested as any other; only the glue to
// JavaScript is built for js/wasm alone.
package webverify

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
)

// The kinds of export a Result names.
const (
	KindGame       = "game"
	KindTournament = "tournament"
)

// A Result is the verdict on an export, as the page shows it. Its JSON
// names are those of the object titmVerify gives the page's script.
type Result struct {
	// OK is true when the export verified, and the head, if one was
	// given, is a record's hash of its log.
	OK bool `json:"ok"`
	// Kind is KindGame or KindTournament; empty when the file is not an
	// export at all.
	Kind string `json:"kind"`
	// ID is the game's or the tournament's.
	ID string `json:"id"`
	// Summary says in one line what was checked, or why it failed, in
	// the words of titm verify.
	Summary string `json:"summary"`
	// Note says what could not be checked yet: the dice of a game or
	// tournament whose seed is not revealed.
	Note string `json:"note,omitempty"`
	// Head is the hash of the last record of the log, as the verifier
	// computed it from the records: a player compares it with the head
	// in his last report. Empty when the export did not verify.
	Head string `json:"head,omitempty"`
	// Records is how many records the log holds.
	Records int `json:"records"`
	// Seq is the record that fails (from 0), or -1 when the failure is
	// of no one record (the export as a whole, or a file that is not
	// an export).
	Seq int `json:"seq"`
	// RecordKind is the kind of the record that fails, as the export
	// logs it, when a record fails.
	RecordKind string `json:"record_kind,omitempty"`
	// What is what differs, without the record's number.
	What string `json:"what,omitempty"`
	// HeadFound reports, when a head was given, whether a record of the
	// log has that hash.
	HeadFound bool `json:"head_found"`
}

// Check verifies an export given as the bytes of its JSON file. head, if
// not empty, is a log head from a report the reader received (a receipt):
// the export verifies only if a record of its log has that hash, as with
// titm verify --head. Check never fails: a file that is not an export is
// a Result that is not OK, and says why; so is a file on which the
// verifier fails by a panic, which in the browser would otherwise end the
// verifier and leave the page waiting for its answer.
func Check(data []byte, head string) (res Result) {
	head = strings.ToLower(strings.TrimSpace(head))
	kind := KindGame
	if tournament.IsExport(data) {
		kind = KindTournament
	}
	defer func() {
		if p := recover(); p != nil {
			res = Result{Kind: kind, Seq: -1, What: fmt.Sprint(p),
				Summary: fmt.Sprintf("NOT verified: the verifier failed on this %s's export: %v", kind, p)}
		}
	}()
	if kind == KindTournament {
		return checkTournament(data, head)
	}
	return checkGame(data, head)
}

func checkGame(data []byte, head string) Result {
	res := Result{Kind: KindGame, Seq: -1}
	x, err := adjudicator.ReadExport(bytes.NewReader(data))
	if err != nil {
		res.Kind = ""
		res.Summary = fmt.Sprintf("NOT verified: this is not an export of a game or a tournament: %v", err)
		res.What = err.Error()
		return res
	}
	res.ID, res.Records = x.ID, len(x.Records)
	v, err := adjudicator.Verify(x)
	if err != nil {
		res.Summary = fmt.Sprintf("NOT verified: game %s: %v", x.ID, err)
		res.What = err.Error()
		var d *adjudicator.Discrepancy
		if errors.As(err, &d) {
			res.Seq, res.RecordKind, res.What = d.Seq, d.Kind, d.What
		}
		return res
	}
	if head != "" {
		if res.HeadFound = hasHash(len(x.Records), func(i int) string { return x.Records[i].Hash }, head); !res.HeadFound {
			res.Summary = fmt.Sprintf("NOT verified: game %s: no record of the log has the hash %s: the log is not the one that receipt came from", x.ID, head)
			res.What = "no record of the log has the hash " + head
			return res
		}
	}
	res.OK, res.Head = true, v.Game.Head
	res.Summary = fmt.Sprintf("verified: game %s: %d impulses, %d dice", x.ID, v.Impulses, v.Dice)
	if !v.DiceChecked {
		res.Note = "The game's seed is revealed when the game ends: the dice were taken as logged, and everything that follows from them was checked."
	}
	return res
}

func checkTournament(data []byte, head string) Result {
	res := Result{Kind: KindTournament, Seq: -1}
	x, err := tournament.ReadExport(bytes.NewReader(data))
	if err != nil {
		res.Summary = fmt.Sprintf("NOT verified: %v", err)
		res.What = err.Error()
		return res
	}
	res.ID, res.Records = x.ID, len(x.Records)
	v, err := tournament.Verify(x)
	if err != nil {
		res.Summary = fmt.Sprintf("NOT verified: tournament %s: %v", x.ID, err)
		res.What = err.Error()
		var d *tournament.Discrepancy
		if errors.As(err, &d) {
			res.Seq, res.What = d.Seq, d.What
			// The discrepancy names the record by its place; the reader
			// sees its kind as well, as for a game's.
			if d.Seq >= 0 && d.Seq < len(x.Records) {
				res.RecordKind = x.Records[d.Seq].Kind
			}
		}
		return res
	}
	if head != "" {
		if res.HeadFound = hasHash(len(x.Records), func(i int) string { return x.Records[i].Hash }, head); !res.HeadFound {
			res.Summary = fmt.Sprintf("NOT verified: tournament %s: no record of its log has the hash %s", x.ID, head)
			res.What = "no record of the log has the hash " + head
			return res
		}
	}
	// Verify checked every record's hash and that the last one's is the
	// export's head: it is the head computed from the records.
	res.OK, res.Head = true, x.Head
	res.Summary = fmt.Sprintf("verified: tournament %s: %d records, %d side decisions, %d games with %d impulses, %d dice", x.ID, v.Records, v.Sides, v.Games, v.Impulses, v.Dice)
	if !v.DiceChecked {
		res.Note = "The tournament's seed is revealed when it is over: its dice were taken as logged, and everything that follows from them was checked."
	}
	return res
}

// hasHash reports whether one of n hashes is h.
func hasHash(n int, hash func(int) string, h string) bool {
	for i := range n {
		if hash(i) == h {
			return true
		}
	}
	return false
}
