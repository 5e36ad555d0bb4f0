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
	"titm/adjudicator/lang"
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
	// Lang is the language of the texts below (Summary, Finding,
	// Failing, Note, What): en or ja.
	Lang string `json:"lang"`
	// Summary says in one line what was checked, or why it failed, in
	// the words of titm verify: the verdict ("verified", "NOT verified")
	// and the Finding.
	Summary string `json:"summary"`
	// Finding is the Summary without the verdict before it, for a page
	// that says the verdict in words of its own.
	Finding string `json:"finding"`
	// Failing names the first record that fails and what differs in it,
	// in a sentence; empty when no one record fails.
	Failing string `json:"failing,omitempty"`
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
	// What is what differs, without the record's number. In English it
	// is the verifier's own account, as titm verify prints it, with the
	// values logged and replayed; in another language it names the
	// field that differs (dice[0].roll) and what of it, and leaves the
	// values to titm verify.
	What string `json:"what,omitempty"`
	// HeadFound reports, when a head was given, whether a record of the
	// log has that hash.
	HeadFound bool `json:"head_found"`
}

// Check verifies an export, as CheckIn does, and words the verdict in
// English.
func Check(data []byte, head string) Result {
	return CheckIn(data, head, lang.English)
}

// CheckIn verifies an export given as the bytes of its JSON file, and
// words the verdict in the language code (en, ja; English for another).
// head, if not empty, is a log head from a report the reader received (a
// receipt): the export verifies only if a record of its log has that
// hash, as with titm verify --head. CheckIn never fails: a file that is
// not an export is a Result that is not OK, and says why; so is a file on
// which the verifier fails by a panic, which in the browser would
// otherwise end the verifier and leave the page waiting for its answer.
func CheckIn(data []byte, head, code string) (res Result) {
	w := words{lang.For(code)}
	head = strings.ToLower(strings.TrimSpace(head))
	kind := KindGame
	if tournament.IsExport(data) {
		kind = KindTournament
	}
	defer func() {
		if p := recover(); p != nil {
			res = Result{Kind: kind, Seq: -1}
			res.What = w.detail(fmt.Sprint(p), w.p.Sprintf("it stopped on an error of its own"))
			if kind == KindTournament {
				w.verdict(&res, w.p.Sprintf("the verifier failed on this tournament's export: %s", res.What))
			} else {
				w.verdict(&res, w.p.Sprintf("the verifier failed on this game's export: %s", res.What))
			}
		}
	}()
	if kind == KindTournament {
		return checkTournament(w, data, head)
	}
	return checkGame(w, data, head)
}

func checkGame(w words, data []byte, head string) Result {
	res := Result{Kind: KindGame, Seq: -1}
	x, err := adjudicator.ReadExport(bytes.NewReader(data))
	if err != nil {
		res.Kind = ""
		res.What = w.detail(err.Error(), w.unreadable(err))
		w.verdict(&res, w.p.Sprintf("this is not an export of a game or a tournament: %s", res.What))
		return res
	}
	res.ID, res.Records = x.ID, len(x.Records)
	v, err := adjudicator.Verify(x)
	if err != nil {
		var d *adjudicator.Discrepancy
		if !errors.As(err, &d) {
			res.What = w.detail(err.Error(), w.differs(""))
			w.verdict(&res, w.p.Sprintf("game %s: %s", x.ID, res.What))
			return res
		}
		res.Seq, res.RecordKind = d.Seq, d.Kind
		var where string
		where, res.What = w.gameRecord(d)
		w.failing(&res)
		w.verdict(&res, w.p.Sprintf("game %s: %s: %s", x.ID, where, res.What))
		return res
	}
	if head != "" {
		if res.HeadFound = hasHash(len(x.Records), func(i int) string { return x.Records[i].Hash }, head); !res.HeadFound {
			res.What = w.p.Sprintf("no record of the log has the hash %s", head)
			w.verdict(&res, w.p.Sprintf("game %s: no record of the log has the hash %s: the log is not the one that receipt came from", x.ID, head))
			return res
		}
	}
	res.OK, res.Head = true, v.Game.Head
	w.verdict(&res, w.p.Sprintf("game %s: %d impulses, %d dice", x.ID, v.Impulses, v.Dice))
	if !v.DiceChecked {
		res.Note = w.p.Sprintf("The game's seed is revealed when the game ends: the dice were taken as logged, and everything that follows from them was checked.")
	}
	return res
}

func checkTournament(w words, data []byte, head string) Result {
	res := Result{Kind: KindTournament, Seq: -1}
	x, err := tournament.ReadExport(bytes.NewReader(data))
	if err != nil {
		// IsExport found a tournament's format: what fails is the
		// rest of the file.
		res.What = w.detail(err.Error(), w.p.Sprintf("it cannot be read as a tournament's export"))
		w.verdict(&res, res.What)
		return res
	}
	res.ID, res.Records = x.ID, len(x.Records)
	v, err := tournament.Verify(x)
	if err != nil {
		w.tournamentFailed(&res, x, err)
		return res
	}
	if head != "" {
		if res.HeadFound = hasHash(len(x.Records), func(i int) string { return x.Records[i].Hash }, head); !res.HeadFound {
			res.What = w.p.Sprintf("no record of the log has the hash %s", head)
			w.verdict(&res, w.p.Sprintf("tournament %s: no record of its log has the hash %s", x.ID, head))
			return res
		}
	}
	// Verify checked every record's hash and that the last one's is the
	// export's head: it is the head computed from the records.
	res.OK, res.Head = true, x.Head
	w.verdict(&res, w.p.Sprintf("tournament %s: %d records, %d side decisions, %d games with %d impulses, %d dice", x.ID, v.Records, v.Sides, v.Games, v.Impulses, v.Dice))
	if !v.DiceChecked {
		res.Note = w.p.Sprintf("The tournament's seed is revealed when it is over: its dice were taken as logged, and everything that follows from them was checked.")
	}
	return res
}

// tournamentFailed words the verdict on a tournament's export that
// tournament.Verify found wrong.
func (w words) tournamentFailed(res *Result, x *tournament.Export, err error) {
	var d *tournament.Discrepancy
	if !errors.As(err, &d) {
		res.What = w.detail(err.Error(), w.differs(""))
		w.verdict(res, w.p.Sprintf("tournament %s: %s", x.ID, res.What))
		return
	}
	res.Seq = d.Seq
	res.What = w.detail(d.What, w.differs(d.Field))
	if d.Game != "" {
		// A game's own export failed: its record, as for a game alone.
		var gd *adjudicator.Discrepancy
		if errors.As(d.Err, &gd) {
			where, what := w.gameRecord(gd)
			res.What = w.p.Sprintf("game %s: %s: %s", d.Game, where, what)
		} else {
			res.What = w.detail(d.What, w.p.Sprintf("the export of game %s in it does not verify", d.Game))
		}
	}
	if d.Seq < 0 {
		w.verdict(res, w.p.Sprintf("tournament %s: %s", x.ID, res.What))
		return
	}
	// The discrepancy names the record by its place; the reader sees its
	// kind as well, as for a game's.
	if d.Seq < len(x.Records) {
		res.RecordKind = x.Records[d.Seq].Kind
	}
	where := w.p.Sprintf("record %d", d.Seq)
	if d.Act != 0 && d.Act != d.Seq {
		where = w.p.Sprintf("record %d (made with record %d)", d.Seq, d.Act)
	}
	w.failing(res)
	w.verdict(res, w.p.Sprintf("tournament %s: %s: %s", x.ID, where, res.What))
}

// gameRecord words where a game's export fails, its record with the
// record's kind and impulse, and what is wrong there.
func (w words) gameRecord(d *adjudicator.Discrepancy) (where, what string) {
	where = w.p.Sprintf("record %d (%s)", d.Seq, strings.TrimSpace(d.Kind+" "+d.Impulse))
	if d.Act != 0 && d.Act != d.Seq {
		where = w.p.Sprintf("%s, made with record %d", where, d.Act)
	}
	return where, w.detail(d.What, w.values(w.differs(d.Field), d))
}

// Misused is the verdict of a call that gave no export's bytes (a page's
// script that passed something else), in the language code.
func Misused(code string) Result {
	w := words{lang.For(code)}
	res := Result{Seq: -1, What: w.p.Sprintf("no export was given to verify")}
	w.verdict(&res, w.p.Sprintf("titmVerify takes the export's bytes as a Uint8Array"))
	return res
}

// words words a verdict in one language.
type words struct{ p *lang.Printer }

// detail is the verifier's own account of what is wrong (an error of
// package adjudicator or tournament, in English as titm verify prints
// it) as a reader of the printer's language reads it: as it is in
// English; in another language the sentence other, which names the
// fields and ids it can and leaves the values to titm verify.
func (w words) detail(english, other string) string {
	if w.p.Code() == lang.English {
		return english
	}
	return other
}

// verdict sets the result's texts: its finding, and the summary, which
// says the verdict before it.
func (w words) verdict(res *Result, finding string) {
	res.Lang, res.Finding = w.p.Code(), finding
	word := w.p.Sprintf("NOT verified")
	if res.OK {
		word = w.p.Sprintf("verified")
	}
	res.Summary = word + ": " + finding
}

// failing sets the sentence that names the first record that fails, and
// what differs in it.
func (w words) failing(res *Result) {
	if res.RecordKind == "" {
		res.Failing = w.p.Sprintf("The first record that fails is record %d: %s", res.Seq, res.What)
		return
	}
	res.Failing = w.p.Sprintf("The first record that fails is record %d (%s): %s", res.Seq, res.RecordKind, res.What)
}

// differs says what differs in a field of a record, or of the export,
// for a language other than English, where the verifier's account is
// English: the field by its JSON name, and what of it.
func (w words) differs(field string) string {
	switch {
	case field == "":
		return w.p.Sprintf("the replay differs from the log")
	case field == "hash":
		return w.p.Sprintf("%s is not the hash of the record's content: it was changed after it was written", field)
	case field == "prev":
		return w.p.Sprintf("%s is not the hash of the record before it", field)
	case field == "head":
		return w.p.Sprintf("%s is not the hash of the log's last record", field)
	case strings.HasPrefix(field, "dice[") && strings.HasSuffix(field, ".roll"):
		return w.p.Sprintf("%s is not the die the seed gives", field)
	case field == "games":
		return w.p.Sprintf("a game's export in it does not verify")
	}
	return w.p.Sprintf("%s differs between the log and its replay", field)
}

// values adds to what differs the field's values in the log and in the
// replay, when both are short enough to read at a glance: a die, a
// number, a time; a record's whole position is not.
func (w words) values(what string, d *adjudicator.Discrepancy) string {
	if d.Logged == "" || d.Replayed == "" || len(d.Logged) > 40 || len(d.Replayed) > 40 {
		return what
	}
	return w.p.Sprintf("%s (in the log %s, in the replay %s)", what, d.Logged, d.Replayed)
}

// unreadable says why a file is no export, for a language other than
// English: the field that is wrong, when the verifier names one.
func (w words) unreadable(err error) string {
	var d *adjudicator.Discrepancy
	if errors.As(err, &d) && d.Field != "" {
		return w.p.Sprintf("its %s is not an export's", d.Field)
	}
	return w.p.Sprintf("it is not the JSON of an export")
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
