package journal

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"titm/adjudicator"
	"titm/rules"
)

//go:embed templates/*.html templates/style.css
var files embed.FS

// style is the journal's style sheet, put in each page: one request a
// page, and a page readable whatever the network does.
var style = template.CSS(mustRead("templates/style.css"))

func mustRead(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("journal: " + err.Error())
	}
	return string(b)
}

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"style": func() template.CSS { return style },
	"side":  func(s rules.Side) string { return sideTitle(s) },
	"when": func(t any) string {
		switch t := t.(type) {
		case time.Time:
			return adjudicator.FormatTime(t)
		case *time.Time:
			if t != nil {
				return adjudicator.FormatTime(*t)
			}
		}
		return ""
	},
	"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"short": func(h string) string { return h[:min(len(h), 16)] },
}).ParseFS(files, "templates/*.html"))

func sideTitle(s rules.Side) string {
	if s == "" {
		return ""
	}
	return s.Title()
}

// pageSizes is the size of the last page written of each template.
var pageSizes sync.Map

// render writes a template into a page.
func render(name string, data any, mod time.Time, kind string, heads ...string) (*page, error) {
	var b bytes.Buffer
	// Room for the page at once, as large as the last of its template: a
	// game's page runs to hundreds of kilobytes, which growing the buffer
	// step by step would copy and clear over and over.
	if n, ok := pageSizes.Load(name); ok {
		b.Grow(n.(int) + n.(int)/8)
	}
	defer func() { pageSizes.Store(name, b.Len()) }()
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, fmt.Errorf("journal: writing %s: %w", name, err)
	}
	return newPage(b.Bytes(), typeHTML, mod, kind, heads...), nil
}

// listData is what the list of games shows.
type listData struct {
	Title   string
	Games   []row
	mod     time.Time
	heads   string // a digest of every game's head, for the ETag
	version string // the source's version it was read at
}

// readList reads the list of games, or returns it as last read when the
// source has not changed since: a crowd asking for the list costs one
// small read transaction a request.
func (j *Journal) readList() (*listData, error) {
	version, err := j.src.Version()
	if err != nil {
		return nil, fmt.Errorf("reading the games: %w", err)
	}
	j.mu.Lock()
	d := j.read
	j.mu.Unlock()
	if d != nil && d.version == version {
		return d, nil
	}
	// A game that changes while the list is read is read again with
	// the list, a few times at most.
	for range 3 {
		if d, err = j.readGames(); !errors.Is(err, errStale) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	d.version = version
	j.mu.Lock()
	j.read = d
	j.mu.Unlock()
	return d, nil
}

// digestOf is a digest of a list's ids and heads, for its ETag: each
// string followed by a NUL.
func digestOf(heads []string) string {
	h := sha256.New()
	for _, s := range heads {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// readGames reads the list of games from the source.
func (j *Journal) readGames() (*listData, error) {
	games, err := j.src.Games()
	if err != nil {
		return nil, fmt.Errorf("reading the games: %w", err)
	}
	d := &listData{Title: "Games", Games: make([]row, 0, len(games))}
	var heads []string
	for _, g := range games {
		c, err := j.lastChange(g)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
		r := j.rowOf(g, c)
		d.Games = append(d.Games, r)
		// A tournament's names of the players change without the log.
		heads = append(heads, r.ID, r.Head, j.community().tag(r.ID))
		if r.Changed.After(d.mod) {
			d.mod = r.Changed
		}
	}
	d.heads = digestOf(heads)
	return d, nil
}

// listPage returns the page of the list, written again only when a game
// changed.
func (j *Journal) listPage(kind string, d *listData, write func() (*page, error)) (*page, error) {
	tag := etag(kind, d.heads)
	j.mu.Lock()
	p := j.lists[kind]
	j.mu.Unlock()
	if p != nil && p.etag == tag {
		return p, nil
	}
	p, err := write()
	if err != nil {
		return nil, err
	}
	j.mu.Lock()
	j.lists[kind] = p
	j.mu.Unlock()
	return p, nil
}

// perPage is how many games a page of the list shows: a store of years
// holds thousands, which no reader scrolls through at once.
const perPage = 100

// listPageData is one page of the list of games.
type listPageData struct {
	*listData
	Rows             []row
	Page, Pages      int
	First, Last      int // the games shown, from 1
	PrevURL, NextURL string
}

func (j *Journal) serveList(w http.ResponseWriter, r *http.Request) {
	d, err := j.readList()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	n := 1
	if q := r.URL.Query().Get("page"); q != "" {
		if n, err = strconv.Atoi(q); err != nil || n < 1 {
			j.fail(w, r, http.StatusNotFound, "No such page", fmt.Sprintf("The list of games has no page %q: pages are numbered from 1.", q))
			return
		}
	}
	pages := max(1, (len(d.Games)+perPage-1)/perPage)
	if n > pages {
		j.fail(w, r, http.StatusNotFound, "No such page", fmt.Sprintf("The list of games has %d page(s), not %d.", pages, n))
		return
	}
	kind := "list"
	if n > 1 {
		kind = fmt.Sprintf("list-%d", n)
	}
	p, err := j.listPage(kind, d, func() (*page, error) {
		pd := listPageData{listData: d, Page: n, Pages: pages, First: (n-1)*perPage + 1}
		pd.Rows = d.Games[(n-1)*perPage : min(len(d.Games), n*perPage)]
		pd.Last = pd.First + len(pd.Rows) - 1
		if n > 1 {
			pd.PrevURL = listURL(n - 1)
		}
		if n < pages {
			pd.NextURL = listURL(n + 1)
		}
		return render("list.html", pd, d.mod, kind, d.heads)
	})
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

// listURL is the address of a page of the list of games.
func listURL(n int) string {
	if n == 1 {
		return "/"
	}
	return fmt.Sprintf("/?page=%d", n)
}

// view returns a game's view as its log now stands: built at the first
// request after each change, then kept.
func (j *Journal) view(id string) (*gameView, error) {
	s, err := j.src.Summary(id)
	if err != nil {
		return nil, err
	}
	// The tournament's names of its players are the view's too (community.go).
	return j.views.do(id+"\x00"+s.Head+"\x00"+j.community().tag(id), func() (*gameView, int64, error) {
		defer j.work()()
		g, log, err := j.src.Game(id)
		if err != nil {
			return nil, 0, err
		}
		v, err := j.buildView(g, log)
		if err != nil {
			return nil, 0, fmt.Errorf("game %s: %w", id, err)
		}
		return v, v.cost, nil
	})
}

// gameData is what a game's page shows.
type gameData struct {
	Title string
	*gameView
	Dice     []die
	DiceRows template.HTML // the rows of the dice log (diceRows)
}

// diceRows writes the rows of the dice log, escaped as the template would
// escape them. A campaign rolls hundreds of dice, and the template, which
// reflects on each field of each row, took most of the time of the page.
func diceRows(dice []die, records bool) template.HTML {
	var b strings.Builder
	b.Grow(len(dice) * 160)
	for _, d := range dice {
		b.WriteString("<tr")
		if d.RolledBack {
			b.WriteString(` class="rolled"`)
		}
		b.WriteString(">")
		if records {
			b.WriteString(`<td class="n">`)
			b.WriteString(strconv.Itoa(d.Record))
			b.WriteString("</td>")
		}
		b.WriteString("<td>")
		escapeText(&b, d.Impulse)
		if d.RolledBack {
			b.WriteString(" (rolled back)")
		}
		b.WriteString(`</td><td class="n">`)
		b.WriteString(strconv.Itoa(d.N))
		b.WriteString("</td><td>")
		escapeText(&b, d.Purpose)
		b.WriteString(`</td><td class="n">`)
		b.WriteString(strconv.Itoa(d.Value))
		b.WriteString(`</td><td class="n">`)
		b.WriteString(strconv.FormatUint(d.Draw, 10))
		b.WriteString("</td></tr>\n")
	}
	return template.HTML(b.String())
}

// escapeText escapes text as html/template escapes a value in an
// element's text: the same characters, the same entities.
func escapeText(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(repl)
		last = i + 1
	}
	b.WriteString(s[last:])
}

func (j *Journal) serveGame(w http.ResponseWriter, r *http.Request, id string) {
	v, err := j.view(id)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	v.page.once.Do(func() {
		title := fmt.Sprintf("Game %s, %s: %s", v.ID, v.ScenarioTitle, statusLine(&v.row))
		v.page.p, v.page.err = render("game.html", gameData{Title: title, gameView: v, Dice: v.dice, DiceRows: diceRows(v.dice, v.Records != 0)}, v.Changed, "game", v.Head, v.tourTag)
	})
	if v.page.err != nil {
		j.serverError(w, r, v.page.err)
		return
	}
	j.send(w, r, v.page.p, "")
}

// statusLine says in a few words where a game stands, for a page's title.
func statusLine(r *row) string {
	switch r.Status {
	case "forming":
		return "waiting for the " + r.Waiting + " player to join"
	case "playing":
		return fmt.Sprintf("impulse %s, %s to move", r.Impulse, sideTitle(r.ToMove))
	case "paused":
		return fmt.Sprintf("impulse %s, paused", r.Impulse)
	}
	return "finished: " + r.Result
}

// replayData is what a step of the replay shows.
type replayData struct {
	Title      string
	Game       *gameView
	Step       *impulse
	Report     template.HTML
	Orders     string
	Picture    pictureRef
	Prev, Next *impulse
	First      *impulse
	Last       *impulse
	N          int
}

// parseImpulse reads an impulse from a URL: G16-1, or g16-1.
func parseImpulse(s string) (rules.Impulse, error) {
	return rules.ParseImpulse(strings.ToUpper(s))
}

func (j *Journal) serveReplay(w http.ResponseWriter, r *http.Request, id string) {
	v, err := j.view(id)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	if len(v.line) == 0 {
		j.fail(w, r, http.StatusNotFound, "Nothing to replay yet", fmt.Sprintf("Game %s has played no impulse yet: there is nothing to replay.", id))
		return
	}
	iv := v.line[0]
	if q := r.URL.Query().Get("impulse"); q != "" {
		imp, err := parseImpulse(q)
		if err != nil {
			j.fail(w, r, http.StatusBadRequest, "Not an impulse", fmt.Sprintf("%q is not an impulse: an impulse is written as G16-1 (the German impulse 1 of 16 December) or A16-1.", q))
			return
		}
		if iv = v.find(imp); iv == nil {
			j.fail(w, r, http.StatusNotFound, "No such impulse", fmt.Sprintf("Game %s has not played impulse %s, or it was rolled back.", id, imp))
			return
		}
	}
	d := replayData{Game: v, Step: iv, Report: iv.html, Orders: iv.orders, First: v.line[0], Last: v.line[len(v.line)-1], N: len(v.line),
		Picture: pictureRef{URL: iv.Picture, Width: v.size.W, Height: v.size.H,
			Alt: fmt.Sprintf("Map of game %s after impulse %s: the position of every unit; German VP %d", v.ID, iv.Impulse, iv.VP)}}
	if iv.step > 0 {
		d.Prev = v.line[iv.step-1]
	}
	if iv.step+1 < len(v.line) {
		d.Next = v.line[iv.step+1]
	}
	d.Title = fmt.Sprintf("Replay of game %s: impulse %s, step %d of %d", v.ID, iv.Impulse, iv.step+1, len(v.line))
	p, err := render("replay.html", d, v.Changed, "replay-"+iv.Impulse, v.Head, v.tourTag)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}
