package journal

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// The journal's Atom feeds (RFC 4287): one for each game (its impulses
// and its result), one for each tournament (its rounds, results and end),
// and one for the whole journal (the latest of all). Each tells what the
// pages tell, in the reader's language, and nothing more: no standing
// order, no record number before a game's end, no sealed bid.

// typeAtom is the feeds' content type.
const typeAtom = "application/atom+xml; charset=utf-8"

// atomNS is Atom's XML namespace.
const atomNS = "http://www.w3.org/2005/Atom"

// feedEntries is how many entries the journal's own feed holds: the
// latest, as a reader follows it.
const feedEntries = 50

type atomFeed struct {
	XMLName xml.Name    `xml:"feed"`
	NS      string      `xml:"xmlns,attr"`
	Lang    string      `xml:"xml:lang,attr"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Author  atomPerson  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

type atomEntry struct {
	ID      string    `xml:"id"`
	Title   string    `xml:"title"`
	Updated string    `xml:"updated"`
	Link    atomLink  `xml:"link"`
	Content *atomText `xml:"content,omitempty"`
	Summary *atomText `xml:"summary,omitempty"`
	when    time.Time
}

// tagURI makes an Atom id (RFC 4151): the tagging entity is titm and the
// day the thing was made, so that the id is the same at every request
// and on every host the journal is reached by.
func tagURI(made time.Time, parts ...string) string {
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return "tag:titm," + made.UTC().Format(time.DateOnly) + ":" + strings.Join(parts, "/")
}

// stamp writes a time as Atom dates it (RFC 3339).
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// entry makes an entry whose content is plain text.
func entry(id, title string, when time.Time, href, content string) atomEntry {
	return atomEntry{ID: id, Title: title, Updated: stamp(when), when: when, Link: atomLink{Rel: "alternate", Type: "text/html", Href: href},
		Content: &atomText{Type: "text", Text: content}}
}

// newFeed makes a feed of entries, the latest first.
func newFeed(l loc, id, title, self, alt string, updated time.Time, entries []atomEntry) *atomFeed {
	slices.SortStableFunc(entries, func(a, b atomEntry) int { return b.when.Compare(a.when) })
	for _, e := range entries {
		if e.when.After(updated) {
			updated = e.when
		}
	}
	return &atomFeed{NS: atomNS, Lang: l.code(), ID: id, Title: title, Updated: stamp(updated),
		Author:  atomPerson{Name: l.p.Sprintf("Tigers in the Mist journal")},
		Links:   []atomLink{{Rel: "self", Type: "application/atom+xml", Href: self}, {Rel: "alternate", Type: "text/html", Href: alt}},
		Entries: entries}
}

// feedPage writes a feed into a page.
func feedPage(f *atomFeed, mod time.Time, kind string, heads ...string) (*page, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("journal: writing the feed %s: %w", kind, err)
	}
	b.WriteByte('\n')
	return newPage(b.Bytes(), typeAtom, mod, kind, heads...), nil
}

// serveGameFeed serves a game's feed: each impulse that stands, with its
// report, and the result.
func (j *Journal) serveGameFeed(w http.ResponseWriter, r *http.Request, id string) {
	l := j.locOf(r)
	v, err := j.view(id, l.p)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	base := []string{"games", v.ID, short16(v.Commitment)}
	var entries []atomEntry
	for _, iv := range v.line {
		e := entry(tagURI(v.Created, append(base, "impulses", iv.Impulse, short16(iv.Head))...),
			l.p.Sprintf("Game %s: impulse %s, %s", v.ID, iv.Impulse, l.p.Side(iv.Side)), iv.Played, l.url(iv.Replay), iv.Report())
		entries = append(entries, e)
	}
	if v.Status == string(adjudicator.Finished) {
		entries = append(entries, entry(tagURI(v.Created, append(base, "result")...),
			l.p.Sprintf("Game %s: %s", v.ID, l.p.Sprintf("The game is over: %s.", rules.ResultMessage(v.Result))), v.Changed, l.url(gameURL(v.ID)),
			l.p.Sprintf("The game is over: %s.", rules.ResultMessage(v.Result))))
	}
	self := gameURL(v.ID) + "/feed.atom"
	f := newFeed(l, tagURI(v.Created, base...), l.p.Sprintf("Game %s: %s", v.ID, v.ScenarioTitle), l.url(self), l.url(gameURL(v.ID)), v.Changed, entries)
	p, err := feedPage(f, v.Changed, "feed-game-"+l.key(), v.Head)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

func short16(h string) string { return h[:min(len(h), 16)] }

// serveTournamentFeed serves a tournament's feed: each round paired, each
// pairing's result, and the end.
func (j *Journal) serveTournamentFeed(w http.ResponseWriter, r *http.Request, id string) {
	ts, ok := j.tournaments()
	if !ok {
		j.notFound(w, r)
		return
	}
	t, err := ts.Tournament(id)
	if err != nil {
		j.tournamentError(w, r, err)
		return
	}
	l := j.locOf(r)
	v, err := j.tourViewOf(t, l.p)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	f := newFeed(l, tagURI(t.Created, "tournaments", t.ID, short16(t.Commitment)), v.Title, l.url(v.Feed), l.url(tourURL(t.ID)), t.Created,
		j.tourEntries(l, t, v))
	var mod time.Time
	if n := len(t.Log); n > 0 {
		mod = t.Log[n-1].Time
	}
	p, err := feedPage(f, mod, "feed-tournament-"+l.key(), t.Head)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

// tournamentError answers an error of the source about a tournament.
func (j *Journal) tournamentError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, ErrNotFound) {
		j.notFound(w, r)
		return
	}
	j.serverError(w, r, err)
}

// tourEntries are a tournament's entries, from its log: the rounds paired,
// the results, the end. A bid is never one: it is sealed.
func (j *Journal) tourEntries(l loc, t *tournament.Tournament, v *tourView) []atomEntry {
	base := []string{"tournaments", t.ID, short16(t.Commitment), "records"}
	href := l.url(tourURL(t.ID))
	var out []atomEntry
	for _, rec := range t.Log {
		id := tagURI(t.Created, append(base, fmt.Sprint(rec.Seq))...)
		switch rec.Kind {
		case tournament.KindPaired:
			if rd := roundOf(v, rec.Round); rd != nil {
				out = append(out, entry(id, l.p.Sprintf("%s: round %d paired", v.Name, rd.N), rec.Time, href+"#rounds", roundText(l.p, rd)))
			}
		case tournament.KindResult:
			if rd := roundOf(v, rec.Round); rd != nil && rec.Pairing >= 1 && rec.Pairing <= len(rd.Pairings) {
				pv := rd.Pairings[rec.Pairing-1]
				text := l.p.Sprintf("Round %d: %s", rd.N, pairingText(l.p, &pv)+" — "+pv.Result)
				out = append(out, entry(id, l.p.Sprintf("%s: a result of round %d", v.Name, rd.N), rec.Time, href+"#rounds", text))
			}
		case tournament.KindFinished:
			var b strings.Builder
			for _, st := range v.Standings {
				fmt.Fprintf(&b, "%d. %s %g\n", st.Rank, st.Name, st.Points)
			}
			out = append(out, entry(id, l.p.Sprintf("%s is over", v.Name), rec.Time, href+"#standings", b.String()))
		}
	}
	return out
}

func roundOf(v *tourView, n int) *roundView {
	for i := range v.Played {
		if v.Played[i].N == n {
			return &v.Played[i]
		}
	}
	return nil
}

// roundText lists a round's pairings.
func roundText(p *lang.Printer, rd *roundView) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("Round %d: %s", rd.N, rd.Scenario))
	b.WriteString("\n")
	for i := range rd.Pairings {
		b.WriteString(pairingText(p, &rd.Pairings[i]))
		b.WriteString("\n")
	}
	return b.String()
}

// pairingText names a pairing's players, and their sides once decided.
func pairingText(p *lang.Printer, pv *pairingView) string {
	switch {
	case pv.B == "":
		return pv.A + " — " + p.Sprintf("a bye")
	case pv.German != "":
		return p.Sprintf("%s (%s) against %s (%s)", pv.German, p.Side(rules.German), pv.Allied, p.Side(rules.Allied))
	}
	return p.Sprintf("%s against %s", pv.A, pv.B)
}

// serveJournalFeed serves the journal's own feed: the latest impulses and
// results of every game, and the rounds of every tournament, read from the
// logs of the games that changed last. It is written again only when the
// list of games or of tournaments changed.
func (j *Journal) serveJournalFeed(w http.ResponseWriter, r *http.Request) {
	l := j.locOf(r)
	d, err := j.readList()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	tours, tourHeads, err := j.allTournaments()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	kind := "feed-" + l.key()
	digest := digestOf([]string{d.heads, tourHeads})
	p, err := j.listPage(kind, &listData{heads: digest}, func() (*page, error) {
		entries, err := j.journalEntries(l, d, tours)
		if err != nil {
			return nil, err
		}
		made := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		f := newFeed(l, tagURI(made, "journal"), l.p.Sprintf("Tigers in the Mist journal"), l.url("/feed.atom"), l.url("/"), d.mod, entries)
		return feedPage(f, d.mod, kind, digest)
	})
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

// allTournaments returns the tournaments, if the source holds any, and a
// digest of their heads.
func (j *Journal) allTournaments() ([]*tournament.Tournament, string, error) {
	ts, ok := j.tournaments()
	if !ok {
		return nil, "", nil
	}
	all, err := ts.Tournaments()
	if err != nil {
		return nil, "", err
	}
	var heads []string
	for _, t := range all {
		heads = append(heads, t.ID, t.Head)
	}
	return all, digestOf(heads), nil
}

// journalEntries are the latest entries of every game and tournament: the
// games are read from the one that changed last, until enough entries are
// read.
func (j *Journal) journalEntries(l loc, d *listData, tours []*tournament.Tournament) ([]atomEntry, error) {
	rows := slices.Clone(d.Games)
	slices.SortStableFunc(rows, func(a, b row) int { return b.Changed.Compare(a.Changed) })
	var out []atomEntry
	for _, rw := range rows {
		if len(out) >= feedEntries {
			break
		}
		es, err := j.gameEntries(l, rw)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", rw.ID, err)
		}
		out = append(out, es...)
	}
	for _, t := range tours {
		v, err := j.tourViewOf(t, l.p)
		if err != nil {
			return nil, err
		}
		out = append(out, j.tourEntries(l, t, v)...)
	}
	slices.SortStableFunc(out, func(a, b atomEntry) int { return cmp.Compare(b.Updated, a.Updated) })
	return out[:min(len(out), feedEntries)], nil
}

// gameEntries are a game's impulses and result as the journal's feed
// lists them, from its log up to what the journal shows (publicEnd): the
// impulse, who played it and when, and the log's head after it.
func (j *Journal) gameEntries(l loc, rw row) ([]atomEntry, error) {
	g, log, err := j.src.Game(rw.ID)
	if err != nil {
		return nil, err
	}
	log = log[:publicEnd(log)]
	base := []string{"games", g.ID, short16(g.Commitment)}
	var out []atomEntry
	for _, rec := range standing(log) {
		switch rec.Kind {
		case adjudicator.KindImpulse:
			href := l.url(gameURL(g.ID) + "/replay?impulse=" + url.QueryEscape(rec.Impulse))
			text := l.p.Sprintf("Impulse %s, the %s player to move", rec.Impulse, l.p.Side(rec.Side)) + "\n" +
				l.p.Sprintf("Played") + " " + adjudicator.FormatTime(rec.Time) + l.p.Sprintf("; %d dice; log head after it:", len(rec.Dice)) + " " + rec.Hash
			out = append(out, entry(tagURI(g.Created, append(base, "impulses", rec.Impulse, short16(rec.Hash))...),
				l.p.Sprintf("Game %s: impulse %s, %s", g.ID, rec.Impulse, l.p.Side(rec.Side)), rec.Time, href, text))
		case adjudicator.KindFinished:
			text := l.p.Sprintf("The game is over: %s.", rules.ResultMessage(rec.Result))
			out = append(out, entry(tagURI(g.Created, append(base, "result")...), l.p.Sprintf("Game %s: %s", g.ID, text), rec.Time,
				l.url(gameURL(g.ID)), text))
		}
	}
	return out, nil
}

// standing returns the impulse records of a log that stand, and its
// finished record: a rollback to an impulse undoes the last time it was
// played and every impulse after it, as the game's page shows them.
func standing(log []adjudicator.Record) []adjudicator.Record {
	var out []adjudicator.Record
	for _, r := range log {
		switch r.Kind {
		case adjudicator.KindImpulse, adjudicator.KindFinished:
			out = append(out, r)
		case adjudicator.KindRolledBack:
			for i := len(out) - 1; i >= 0; i-- {
				if out[i].Kind == adjudicator.KindImpulse && out[i].Impulse == r.Impulse {
					out = out[:i]
					break
				}
			}
		}
	}
	return out
}
