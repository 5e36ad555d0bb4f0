package journal

import (
	"bytes"
	"cmp"
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
	"titm/adjudicator/lang"
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

// templates are the journal's pages, parsed once; each language has its
// copy (pageSets), whose functions write in it.
var templates = template.Must(template.New("").Funcs(funcsOf(loc{p: lang.EN()})).ParseFS(files, "templates/*.html"))

// pageSets are the templates by loc.key: a copy for each language, and
// for each whether its links keep ?lang=.
var pageSets = func() map[string]*template.Template {
	sets := map[string]*template.Template{}
	for _, code := range lang.Codes {
		for _, explicit := range []bool{false, true} {
			l := loc{lang.For(code), explicit}
			sets[l.key()] = template.Must(templates.Clone()).Funcs(funcsOf(l))
		}
	}
	return sets
}()

// funcsOf are the templates' functions in a language: t translates a
// text of the catalogs (adjudicator/lang), u makes a link keep ?lang=.
func funcsOf(l loc) template.FuncMap {
	p := l.p
	return template.FuncMap{
		"style": func() template.CSS { return style },
		"side":  p.Side,
		"t":     func(key string, args ...any) template.HTML { return textHTML(p, key, args) },
		"u":     l.url,
		"lang":  l.code,
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
		"iso":        func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"short":      func(h string) string { return h[:min(len(h), 16)] },
		"result":     func(r string) string { return p.Text(rules.ResultMessage(r)) },
		"status":     func(s string) string { return statusWord(p, s) },
		"promptness": func(pl player) string { return promptnessOf(p, pl) },
		"waiting":    func(pl players) string { return waitingFor(p, pl) },
		"in":         func(code, u string) string { return loc{lang.For(code), true}.url(cmp.Or(u, "/")) },
		"names":      func(ns []nameLink) template.HTML { return namesHTML(l, ns) },
	}
}

// text escapes a text of the catalogs, with its arguments, for a page:
// as html/template would, but for the apostrophe, which a double-quoted
// attribute and an element's text both keep as it is.
func text(s string) template.HTML {
	return template.HTML(textEscaper.Replace(s))
}

// textHTML is t: a text of the catalogs with its arguments, escaped but
// for the arguments that are HTML already (a player's name as a link),
// which are put in as they are, wherever the language puts them.
func textHTML(p *lang.Printer, key string, args []any) template.HTML {
	var html []string
	for i, a := range args {
		if h, ok := a.(template.HTML); ok {
			html = append(html, string(h))
			args[i] = fmt.Sprintf("\ue000%d\ue001", len(html)-1)
		}
	}
	s := text(p.Sprintf(key, args...))
	for i, h := range html {
		s = template.HTML(strings.Replace(string(s), fmt.Sprintf("\ue000%d\ue001", i), h, 1))
	}
	return s
}

// namesHTML names who played a side, each with a link to his page: "Bert",
// or "Bert, then Hanna from G17-1" (community.go); "—" for nobody.
func namesHTML(l loc, ns []nameLink) template.HTML {
	if len(ns) == 0 {
		return "—"
	}
	var b strings.Builder
	for i, n := range ns {
		if i > 0 {
			b.WriteString(string(text(l.p.Sprintf(", then"))))
		}
		fmt.Fprintf(&b, `<a href="%s">%s</a>`, template.HTMLEscapeString(l.url(n.URL)), template.HTMLEscapeString(n.Name))
		if n.From != "" {
			b.WriteString(string(text(l.p.Sprintf(" from %s", n.From))))
		}
	}
	return template.HTML(b.String())
}

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "\x00", "\uFFFD")

// statusWord names where a game stands, as the list and the page say it.
func statusWord(p *lang.Printer, s string) string {
	if s == "paused" {
		return p.Sprintf("paused")
	}
	return p.Text(adjudicator.Status(s).Message())
}

// promptnessOf tells how a player keeps the game's pace, as his final
// report does: impulses played, the average time taken, deadlines missed
// and extensions asked for.
func promptnessOf(p *lang.Printer, pl player) string {
	played, ext := rules.M("%d impulses", pl.Impulses), rules.M("%d extensions", pl.Extensions)
	if pl.Average != "" {
		return p.Sprintf("%s in %s on average, %d missed, %s", played, span(p, pl.average), pl.Missed, ext)
	}
	return p.Sprintf("%s, %d missed, %s", played, pl.Missed, ext)
}

// pageSizes is the size of the last page written of each template.
var pageSizes sync.Map

// render writes a template into a page, in the language l.
func render(l loc, name string, data any, mod time.Time, kind string, heads ...string) (*page, error) {
	var b bytes.Buffer
	// Room for the page at once, as large as the last of its template: a
	// game's page runs to hundreds of kilobytes, which growing the buffer
	// step by step would copy and clear over and over.
	if n, ok := pageSizes.Load(name); ok {
		b.Grow(n.(int) + n.(int)/8)
	}
	defer func() { pageSizes.Store(name, b.Len()) }()
	if err := pageSets[l.key()].ExecuteTemplate(&b, name, data); err != nil {
		return nil, fmt.Errorf("journal: writing %s: %w", name, err)
	}
	return newPage(b.Bytes(), typeHTML, mod, kind, heads...), nil
}

// listData is what the list of games shows.
type listData struct {
	Title   string
	Feed    string // the journal's Atom feed
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
	d := &listData{Title: "Games", Feed: "/feed.atom", Games: make([]row, 0, len(games))}
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
	Title            string // in the reader's language
	Here             string // the page's own URL, for the link to it in the other language
	Rows             []row
	Page, Pages      int
	First, Last      int // the games shown, from 1
	PrevURL, NextURL string
}

func (j *Journal) serveList(w http.ResponseWriter, r *http.Request) {
	l := j.locOf(r)
	d, err := j.readList()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	n := 1
	if q := r.URL.Query().Get("page"); q != "" {
		if n, err = strconv.Atoi(q); err != nil || n < 1 {
			j.fail(w, r, http.StatusNotFound, rules.M("No such page"), rules.M("The list of games has no page %q: pages are numbered from 1.", q))
			return
		}
	}
	pages := max(1, (len(d.Games)+perPage-1)/perPage)
	if n > pages {
		j.fail(w, r, http.StatusNotFound, rules.M("No such page"), rules.M("The list of games has %d page(s), not %d.", pages, n))
		return
	}
	kind := "list-" + l.key()
	if n > 1 {
		kind = fmt.Sprintf("list-%d-%s", n, l.key())
	}
	p, err := j.listPage(kind, d, func() (*page, error) {
		pd := listPageData{listData: d, Title: l.p.Sprintf("Games"), Here: listURL(n), Page: n, Pages: pages, First: (n-1)*perPage + 1}
		pd.Rows = d.Games[(n-1)*perPage : min(len(d.Games), n*perPage)]
		pd.Last = pd.First + len(pd.Rows) - 1
		if n > 1 {
			pd.PrevURL = l.url(listURL(n - 1))
		}
		if n < pages {
			pd.NextURL = l.url(listURL(n + 1))
		}
		return render(l, "list.html", pd, d.mod, kind, d.heads)
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

// view returns a game's view as its log now stands, in the language of
// p: built at the first request after each change, then kept.
func (j *Journal) view(id string, p *lang.Printer) (*gameView, error) {
	s, err := j.src.Summary(id)
	if err != nil {
		return nil, err
	}
	// The tournament's names of its players are the view's too (community.go).
	return j.views.do(id+"\x00"+p.Code()+"\x00"+s.Head+"\x00"+j.community().tag(id), func() (*gameView, int64, error) {
		defer j.work()()
		g, log, err := j.src.Game(id)
		if err != nil {
			return nil, 0, err
		}
		v, err := j.buildView(g, log, p)
		if err != nil {
			return nil, 0, fmt.Errorf("game %s: %w", id, err)
		}
		return v, v.cost, nil
	})
}

// gameData is what a game's page shows.
type gameData struct {
	Title string
	Here  string // the page's own URL
	Feed  string // the game's Atom feed
	*gameView
	Dice     []die
	DiceRows template.HTML // the rows of the dice log (diceRows)
}

// diceRows writes the rows of the dice log, escaped as the template would
// escape them. A campaign rolls hundreds of dice, and the template, which
// reflects on each field of each row, took most of the time of the page.
func diceRows(p *lang.Printer, dice []die, records bool) template.HTML {
	back := " " + p.Sprintf("(rolled back)")
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
			b.WriteString(back)
		}
		b.WriteString(`</td><td class="n">`)
		b.WriteString(strconv.Itoa(d.N))
		b.WriteString("</td><td>")
		escapeText(&b, adjudicator.PurposeText(p, d.Purpose))
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
	l := j.locOf(r)
	v, err := j.view(id, l.p)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	pg := &v.page[0]
	if l.explicit {
		pg = &v.page[1]
	}
	pg.once.Do(func() {
		title := l.p.Sprintf("Game %s, %s: %s", v.ID, v.ScenarioTitle, statusLine(l.p, &v.row))
		pg.p, pg.err = render(l, "game.html", gameData{Title: title, Here: gameURL(v.ID), gameView: v, Dice: v.dice, DiceRows: diceRows(l.p, v.dice, v.Records != 0),
			Feed: gameURL(v.ID) + "/feed.atom"}, v.Changed, "game-"+l.key(), v.Head, v.tourTag)
	})
	if pg.err != nil {
		j.serverError(w, r, pg.err)
		return
	}
	j.send(w, r, pg.p, "")
}

// statusLine says in a few words where a game stands, for a page's title.
func statusLine(p *lang.Printer, r *row) string {
	switch r.Status {
	case "forming":
		return p.Sprintf("waiting for the %s player to join", waitingFor(p, r.Players))
	case "playing":
		return p.Sprintf("impulse %s, the %s player to move", r.Impulse, r.ToMove)
	case "paused":
		return p.Sprintf("impulse %s, paused", r.Impulse)
	}
	return p.Sprintf("finished: %s", rules.ResultMessage(r.Result))
}

// waitingFor names the sides whose players have still to join a game.
func waitingFor(p *lang.Printer, ps players) string {
	var names []string
	for _, pl := range ps.Both() {
		if pl.Joined == nil {
			names = append(names, p.Side(pl.Side))
		}
	}
	return p.Text(rules.AndList(names))
}

// replayData is what a step of the replay shows.
type replayData struct {
	Title      string
	Here       string // the page's own URL
	Feed       string // the game's Atom feed
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
	l := j.locOf(r)
	v, err := j.view(id, l.p)
	if err != nil {
		j.gameError(w, r, id, err)
		return
	}
	if len(v.line) == 0 {
		j.fail(w, r, http.StatusNotFound, rules.M("Nothing to replay yet"), rules.M("Game %s has played no impulse yet: there is nothing to replay.", id))
		return
	}
	iv := v.line[0]
	if q := r.URL.Query().Get("impulse"); q != "" {
		imp, err := parseImpulse(q)
		if err != nil {
			j.fail(w, r, http.StatusBadRequest, rules.M("Not an impulse"), rules.M("%q is not an impulse: an impulse is written as G16-1 (the German impulse 1 of 16 December) or A16-1.", q))
			return
		}
		if iv = v.find(imp); iv == nil {
			j.fail(w, r, http.StatusNotFound, rules.M("No such impulse"), rules.M("Game %s has not played impulse %s, or it was rolled back.", id, imp))
			return
		}
	}
	d := replayData{Game: v, Step: iv, Report: iv.html, Orders: iv.orders, First: v.line[0], Last: v.line[len(v.line)-1], N: len(v.line),
		Picture: pictureRef{URL: iv.Picture, Width: v.size.W, Height: v.size.H,
			Alt: l.p.Sprintf("Map of game %s after impulse %s: the position of every unit; German VP %d", v.ID, iv.Impulse, iv.VP)},
		Feed: gameURL(v.ID) + "/feed.atom"}
	if iv.step > 0 {
		d.Prev = v.line[iv.step-1]
	}
	if iv.step+1 < len(v.line) {
		d.Next = v.line[iv.step+1]
	}
	d.Title = l.p.Sprintf("Replay of game %s: impulse %s, step %d of %d", v.ID, iv.Impulse, iv.step+1, len(v.line))
	d.Here = iv.Replay
	p, err := render(l, "replay.html", d, v.Changed, "replay-"+iv.Impulse+"-"+l.key(), v.Head, v.tourTag)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}
