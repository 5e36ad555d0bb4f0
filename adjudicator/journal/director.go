package journal

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// The director's view: every game in play, who is to move and since when,
// how close the impulse is to its deadline and the player to a forfeit,
// sortable. It is read only, as the whole journal is, and shows what the
// games' pages show: names, never addresses.

// directorRow is a game in play as the director's view shows it.
type directorRow struct {
	ID         string     `json:"id"`
	URL        string     `json:"url"`
	Scenario   string     `json:"scenario"`
	Tournament *tourLink  `json:"tournament,omitempty"`
	Impulse    string     `json:"impulse"`
	ToMove     rules.Side `json:"to_move"`
	Players    []nameLink `json:"players"` // who plays the side to move
	Since      time.Time  `json:"since"`   // when the impulse in play began
	Deadline   *time.Time `json:"deadline,omitempty"`
	Paused     bool       `json:"paused,omitempty"`
	// Left is the time left to the deadline, in seconds, negative past
	// it; absent while paused.
	Left  *int64 `json:"left_seconds,omitempty"`
	Late  bool   `json:"late"`
	Share int    `json:"share_used"` // the part of the impulse's time gone, in percent
	// Missed are the deadlines the side to move missed in the game, and
	// ForfeitAfter those that lose it (its tournament's forfeit_after),
	// 0 where none does.
	Missed       int `json:"missed"`
	ForfeitAfter int `json:"forfeit_after,omitempty"`

	left time.Duration

	// LeftText and ForfeitText say Left and Missed in the page's language.
	LeftText    string `json:"-"`
	ForfeitText string `json:"-"`
}

// leftText says how close the deadline is: "in 5h 20m", "overdue by 3d 2h".
func (r *directorRow) leftText(p *lang.Printer) string {
	switch {
	case r.Paused:
		return p.Sprintf("paused")
	case r.Left == nil:
		return p.Sprintf("no deadline")
	case r.left < 0:
		return p.Sprintf("overdue by %s", span(p, -r.left))
	}
	return p.Sprintf("in %s", span(p, r.left))
}

// forfeitText says how close the side to move is to a forfeit.
func (r *directorRow) forfeitText(p *lang.Printer) string {
	if r.ForfeitAfter == 0 {
		return p.Sprintf("%d missed; no forfeit", r.Missed)
	}
	return p.Sprintf("%d of %d missed", r.Missed, r.ForfeitAfter)
}

// directorSort is an order the director's view sorts by.
type directorSort struct {
	Key   string
	Label rules.Message // its column's heading
	cmp   func(a, b *directorRow) int
}

// directorSorts are the orders the view sorts by, the first the default.
var directorSorts = []directorSort{
	{"deadline", rules.M("Deadline"), func(a, b *directorRow) int { return cmp.Compare(a.sortLeft(), b.sortLeft()) }},
	{"since", rules.M("Since"), func(a, b *directorRow) int { return a.Since.Compare(b.Since) }},
	{"forfeit", rules.M("Forfeit"), func(a, b *directorRow) int { return cmp.Compare(a.toForfeit(), b.toForfeit()) }},
	{"game", rules.M("Game"), func(a, b *directorRow) int { return cmp.Compare(a.ID, b.ID) }},
	{"tournament", rules.M("Tournament"), func(a, b *directorRow) int { return cmp.Compare(a.tourName(), b.tourName()) }},
}

// sortLeft is the time left for sorting: a paused game, which no deadline
// presses, last.
func (r *directorRow) sortLeft() time.Duration {
	if r.Left == nil {
		return 1<<63 - 1
	}
	return r.left
}

// toForfeit is the deadlines the side to move may still miss before a
// forfeit, for sorting: a game without forfeits last.
func (r *directorRow) toForfeit() int {
	if r.ForfeitAfter == 0 {
		return 1 << 30
	}
	return r.ForfeitAfter - r.Missed
}

func (r *directorRow) tourName() string {
	if r.Tournament == nil {
		return "\uffff" // the games of no tournament last
	}
	return r.Tournament.Name
}

// directorView is the director's view's page.
type directorView struct {
	Title      string        `json:"-"`
	Now        time.Time     `json:"now"`
	Sort       string        `json:"sort"`
	Tournament string        `json:"tournament,omitempty"`
	TourName   string        `json:"-"` // the tournament's name, as its page heads it
	Games      []directorRow `json:"games"`
	Late       int           `json:"late"`
	Sorts      []sortLink    `json:"-"`
	SortText   string        `json:"-"`    // Sort's column in the page's language
	Lang       string        `json:"lang"` // the language of the texts
	Here       string        `json:"-"`    // the page's own URL
	API        string        `json:"-"`    // the view as JSON
	Feed       string        `json:"-"`
}

// sortLink is a column's heading: the URL that sorts by it.
type sortLink struct {
	Key, Label, URL string
	On              bool
}

// SortBy returns the heading of the column that sorts by key.
func (v *directorView) SortBy(key string) sortLink {
	for _, s := range v.Sorts {
		if s.Key == key {
			return s
		}
	}
	return sortLink{}
}

// directorURL is the view's address, sorted by key, of one tournament's
// games or (tour "") of all.
func directorURL(key, tour string) string {
	q := []string{}
	if key != "" && key != directorSorts[0].Key {
		q = append(q, "sort="+key)
	}
	if tour != "" {
		q = append(q, "tournament="+url.QueryEscape(tour))
	}
	if len(q) == 0 {
		return "/director"
	}
	return "/director?" + strings.Join(q, "&")
}

// directorRows reads the games in play, of one tournament or of all.
func (j *Journal) directorRows(tour string, now time.Time) ([]directorRow, error) {
	games, err := j.src.Games()
	if err != nil {
		return nil, fmt.Errorf("reading the games: %w", err)
	}
	c := j.community()
	rows := []directorRow{}
	for _, g := range games {
		tl := c.linkOf(g.ID)
		if g.Status != adjudicator.Playing || tour != "" && (tl == nil || tl.ID != tour) {
			continue
		}
		side := g.Next.Side
		r := directorRow{ID: g.ID, URL: gameURL(g.ID), Scenario: g.Scenario, Tournament: tl, Impulse: g.Next.String(), ToMove: side,
			Since: g.Began.UTC(), Paused: g.Paused}
		if p := g.Players[side]; p != nil {
			r.Players, r.Missed = j.sideNames(c, g, side, p), p.Missed
		}
		if tg := c.games[g.ID]; tg != nil {
			r.ForfeitAfter = tg.tour.ForfeitAfter
		}
		if !g.Due.IsZero() && !g.Paused {
			due := g.Due.UTC()
			r.Deadline, r.left = &due, g.Due.Sub(now)
			secs := int64(r.left / time.Second)
			r.Left, r.Late = &secs, r.left < 0
			if span := g.Due.Sub(g.Began); span > 0 {
				r.Share = max(0, int(100*now.Sub(g.Began)/span))
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

func (j *Journal) serveDirector(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	key := cmp.Or(q.Get("sort"), directorSorts[0].Key)
	k := slices.IndexFunc(directorSorts, func(s directorSort) bool { return s.Key == key })
	if k < 0 {
		var keys []string
		for _, s := range directorSorts {
			keys = append(keys, s.Key)
		}
		j.fail(w, r, http.StatusBadRequest, rules.M("No such order"), rules.M("The director's view sorts by %s, not %q.", strings.Join(keys, ", "), key))
		return
	}
	tour := q.Get("tournament")
	now := time.Now().UTC()
	rows, err := j.directorRows(tour, now)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	slices.SortStableFunc(rows, func(a, b directorRow) int {
		return cmp.Or(directorSorts[k].cmp(&a, &b), cmp.Compare(a.ID, b.ID))
	})
	l := j.locOf(r)
	v := &directorView{TourName: j.community().tourName(tour), Title: l.p.Sprintf("The director's view: the games in play"), Now: now, Sort: key, SortText: l.p.Text(directorSorts[k].Label), Tournament: tour, Games: rows,
		Lang: l.code(), Here: directorURL(key, tour), API: "/api" + directorURL("", tour)}
	for i := range rows {
		rows[i].LeftText, rows[i].ForfeitText = rows[i].leftText(l.p), rows[i].forfeitText(l.p)
		if rows[i].Late {
			v.Late++
		}
	}
	for _, s := range directorSorts {
		v.Sorts = append(v.Sorts, sortLink{Key: s.Key, Label: l.p.Text(s.Label), URL: directorURL(s.Key, tour), On: s.Key == key})
	}
	// The view changes with the clock: each answer is written anew, and
	// its ETag is of what it shows and the minute it was written in.
	tags := []string{key, tour, now.Truncate(time.Minute).Format(time.RFC3339)}
	for _, row := range rows {
		due := ""
		if row.Deadline != nil {
			due = row.Deadline.Format(time.RFC3339)
		}
		tags = append(tags, fmt.Sprint(row.ID, row.Impulse, row.Since.Format(time.RFC3339), due, row.Paused, row.Missed, joinNames(row.Players)))
	}
	tag := digestOf(tags)
	var p *page
	if strings.HasPrefix(r.URL.Path, "/api/") {
		p, err = jsonPage(v, now, "api-director-"+l.code(), tag)
	} else {
		p, err = render(l, "director.html", v, now, "director-"+l.key(), tag)
	}
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}
