package store

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// checkPages walks every page of the file as this transaction sees it
// (pages.go): the pages it reaches are not written while it is open.
func (t *Tx) checkPages(r *CheckReport) {
	f, err := os.Open(t.s.path)
	if err != nil {
		r.add("file", "it cannot be read: %v", err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		r.add("file", "it cannot be read: %v", err)
		return
	}
	metas, _ := readMetas(f, fi.Size())
	var m *fileMeta
	for _, x := range metas {
		if x != nil && x.txid == uint64(t.tx.ID()) {
			m = x
		}
	}
	if m == nil {
		// Two commits of a running daemon since the transaction began
		// wrote both meta pages over: the pages were read by Verify at
		// the start, and the sums below read every value.
		return
	}
	if need := int64(m.pgid) * int64(m.pageSize); fi.Size() < need {
		r.add("file", "damaged: it is cut short: %d bytes, where its meta page counts %d; %d bytes are missing", fi.Size(), need, need-fi.Size())
		return
	}
	w := &pageWalker{f: f, meta: m}
	r.Problems = append(r.Problems, w.walk()...)
	r.Pages = int(m.pgid)
}

// strict decodes a record into rec as its schema has it: no key it does
// not know, and nothing else but what writing rec again gives, byte for
// byte (every store's record is written by json.Marshal of its type, and
// a store of an older schema is written again when migrated): a key
// missing, a key changed, a value that decodes as another all show.
func strict(v []byte, rec any) string {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(rec); err != nil {
		return fmt.Sprintf("its record cannot be read: %v", err)
	}
	if dec.More() {
		return "its record is followed by more data"
	}
	again, err := json.Marshal(rec)
	if err != nil {
		return fmt.Sprintf("its record cannot be written again: %v", err)
	}
	if bytes.Equal(again, v) {
		return ""
	}
	var a, b any
	json.Unmarshal(v, &a)
	json.Unmarshal(again, &b)
	if d := jsonDiff("", a, b); d != "" {
		return "its record is not as its schema writes it: " + d
	}
	return "its record is not as its schema writes it"
}

// jsonDiff names the first difference between a record as read (a) and
// as its schema writes it (b).
func jsonDiff(at string, a, b any) string {
	name := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s is not what its schema has", at)
		}
		keys := make([]string, 0, len(bm))
		for k := range bm {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, ok := a[k]; !ok {
				return fmt.Sprintf("the key %q is missing", name(k))
			}
		}
		keys = keys[:0]
		for k := range a {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, ok := bm[k]; !ok {
				return fmt.Sprintf("the key %q is not in its schema", name(k))
			}
			if d := jsonDiff(name(k), a[k], bm[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bs, ok := b.([]any)
		if !ok || len(bs) != len(a) {
			return fmt.Sprintf("%s is not what its schema has", at)
		}
		for i := range a {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", at, i), a[i], bs[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s is %v, which reads as %v", at, a, b)
	}
	return ""
}

// isHash reports whether s is a hex SHA-256, as token hashes, commitments
// and log hashes are kept.
func isHash(s string) bool {
	if len(s) != 64 || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// sane reports whether a time kept is one titm could have written.
func sane(t time.Time) bool {
	return t.Year() >= 2000 && t.Year() < 2200
}

// checkRecords checks the records of the games, tournaments, outbox and
// processed messages against their schemas. quick (Verify, at the
// daemon's start) checks only what the daemon acts on, the games, the
// tournaments and the queued mails, and counts what it reads; the sums
// have found any change on the disk of the rest, the mails sent and the
// messages processed, which Check reads whole.
func (t *Tx) checkRecords(r *CheckReport, quick bool) {
	games := t.checkGameRecords(r)
	t.checkTournaments(r)
	box := t.tx.Bucket(bucketOutbox)
	mails, queued := 0, 0
	mail := func(k, v []byte) error {
		mails++
		if m := checkMail(r, k, v); m != nil && m.Status == MailQueued {
			queued++
		}
		return nil
	}
	if quick {
		t.tx.Bucket(bucketQueue).ForEach(func(k, _ []byte) error {
			if v := box.Get(k); v != nil {
				return mail(k, v)
			}
			return nil
		})
		r.Games, r.Queued = games, queued
		r.Mails, r.Processed = box.Stats().KeyN, t.tx.Bucket(bucketProcessed).Stats().KeyN
		return
	}
	box.ForEach(mail)
	t.checkProcessedRecords(r)
}

// checkGameRecords checks every game's record and returns how many there are.
func (t *Tx) checkGameRecords(r *CheckReport) int {
	games := 0
	t.tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		games++
		t.s.release(t.tx, false)
		where := "game " + string(k)
		var g adjudicator.Game
		if p := strict(v, &g); p != "" {
			r.add(where, "%s", p)
			return nil
		}
		for _, p := range gameProblems(string(k), &g) {
			r.add(where, "%s", p)
		}
		return nil
	})
	return games
}

// checkTournaments checks every tournament's record.
func (t *Tx) checkTournaments(r *CheckReport) {
	t.tx.Bucket(bucketTournaments).ForEach(func(k, v []byte) error {
		where := "tournament " + string(k)
		var tr tournament.Tournament
		if p := strict(v, &tr); p != "" {
			r.add(where, "%s", p)
			return nil
		}
		switch {
		case tr.ID != string(k):
			r.add(where, "its record says tournament %q", tr.ID)
		case !sane(tr.Created):
			r.add(where, "it was made at %s, which is no time titm writes", tr.Created)
		case !isHash(tr.Commitment):
			r.add(where, "its commitment %q is not a hex SHA-256", tr.Commitment)
		}
		for i, e := range tr.Entrants {
			if e != nil && !isHash(e.TokenHash) {
				r.add(where, "entrant %d (%s): the token hash %q is not a hex SHA-256 (64 hex digits)", i+1, e.Address, e.TokenHash)
			}
		}
		return nil
	})
}

// checkMail checks the outbox's mail k and returns it, nil if it does not
// decode.
func checkMail(r *CheckReport, k, v []byte) *Mail {
	where := fmt.Sprintf("mail %x", k)
	if len(k) == 8 {
		where = fmt.Sprintf("mail %d", le64(k))
	}
	var m Mail
	if p := strict(v, &m); p != "" {
		r.add(where, "%s", p)
		return nil
	}
	switch {
	case !bytes.Equal(u64(m.ID), k):
		r.add(where, "its record says mail %d", m.ID)
	case m.Status != MailQueued && m.Status != MailSent && m.Status != MailFailed:
		r.add(where, "its status %q is not known (queued, sent, failed)", m.Status)
	case !sane(m.Created):
		r.add(where, "it was queued at %s, which is no time titm writes", m.Created)
	case m.Status == MailSent && !sane(m.Sent):
		r.add(where, "it is sent, at %s, which is no time titm writes", m.Sent)
	case m.Attempts < 0:
		r.add(where, "it counts %d attempts", m.Attempts)
	}
	return &m
}

// checkProcessedRecords checks the records of the messages processed.
func (t *Tx) checkProcessedRecords(r *CheckReport) {
	t.tx.Bucket(bucketProcessed).ForEach(func(k, v []byte) error {
		where := "processed " + string(k)
		var p Processed
		if q := strict(v, &p); q != "" {
			r.add(where, "%s", q)
			return nil
		}
		switch {
		case !bytes.Equal(p.key(), k):
			r.add(where, "the record says %s", p.key())
		case !sane(p.Time) || p.Outcome == "":
			r.add(where, "the record has no time or outcome")
		}
		return nil
	})
}

func le64(k []byte) uint64 {
	var n uint64
	for _, b := range k {
		n = n<<8 | uint64(b)
	}
	return n
}

// playerProblems checks a game's two players.
func playerProblems(g *adjudicator.Game) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if len(g.Players) != 2 || g.Players[rules.German] == nil || g.Players[rules.Allied] == nil {
		add("it has not the two sides, german and allied, as players")
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		p := g.Players[side]
		if p == nil {
			continue
		}
		if !isHash(p.TokenHash) {
			add("the %s player's token hash %q is not a hex SHA-256 (64 hex digits): he could never be authenticated", side, p.TokenHash)
		}
		if !p.Joined.IsZero() && !sane(p.Joined) {
			add("the %s player joined at %s, which is no time titm writes", side, p.Joined)
		}
	}
	return out
}

// gameProblems checks a game's record, decoded, against what a game is.
func gameProblems(id string, g *adjudicator.Game) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if g.ID != id {
		add("its record says game %q", g.ID)
	}
	switch g.Status {
	case adjudicator.Forming, adjudicator.Playing, adjudicator.Finished:
	default:
		add("its status %q is not known (forming, playing, finished)", g.Status)
	}
	out = append(out, playerProblems(g)...)
	if g.DrawOffer != "" && g.DrawOffer != rules.German && g.DrawOffer != rules.Allied {
		add("a draw offered by %q, which is no side", g.DrawOffer)
	}
	if !sane(g.Created) {
		add("it was made at %s, which is no time titm writes", g.Created)
	}
	for _, tm := range []struct {
		name string
		t    time.Time
	}{{"began", g.Began}, {"due", g.Due}, {"reminded", g.Reminded}} {
		if !tm.t.IsZero() && !sane(tm.t) {
			add("its time %s is %s, which is no time titm writes", tm.name, tm.t)
		}
	}
	if g.Deadline <= 0 {
		add("its deadline per impulse is %s", g.Deadline)
	}
	if !isHash(g.Commitment) || !isHash(g.Data) {
		add("its commitment %q or its scenario's digest %q is not a hex SHA-256", g.Commitment, g.Data)
	}
	if g.Log < 1 || !isHash(g.Head) {
		add("it is at record %d of its log, whose head %q is not a hex SHA-256", g.Log, g.Head)
	}
	return out
}
