// Package journal is the public web journal of a referee's games: the list
// of games, each game's players, reports, dice and log heads, a replay that
// steps through the impulses with the map picture of each, the referee's
// verification of a finished game with its export, and the same data as
// JSON. It presents the adjudicator's records for the web as the report
// and the picture present them by mail, and shows what an observer of the
// game reads: never a token, a mail address (unless the operator allows
// it), a player's standing orders, or the game's seed before the end.
//
// A Journal reads its games from a Source and writes nothing: it answers
// GET and HEAD only. Pages are HTML written on the server, usable without
// JavaScript. docs/journal.md describes every URL and JSON field.
package journal

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/picture"
	"titm/rules"
)

// ErrNotFound is what a Source returns, wrapped, for a game it does not
// hold.
var ErrNotFound = errors.New("no such game")

// A Source is the adjudicator's records as the journal reads them. Each
// call reads one consistent view of them (one read transaction of the
// store), and none changes anything. An unknown id is an error that wraps
// ErrNotFound.
type Source interface {
	// Games returns every game, in the order to list them, without its
	// position or secret (State is nil): a list reads no log.
	Games() ([]*adjudicator.Game, error)
	// Summary returns one game as Games does.
	Summary(id string) (*adjudicator.Game, error)
	// LastRecord returns the last record of a game's log, which says
	// when the game last changed.
	LastRecord(id string) (adjudicator.Record, error)
	// Game returns a game with its position and scenario, and its whole
	// log.
	Game(id string) (*adjudicator.Game, []adjudicator.Record, error)
	// Version names the records as they stand: it is another after any
	// change, so that what was read under a version is still good while
	// the version is the same. The list of games is read again only then.
	Version() (string, error)
}

// Options are a Journal's settings. The zero value serves names rather
// than addresses and keeps caches of a sensible size.
type Options struct {
	// ShowAddresses shows the players' and observers' mail addresses;
	// otherwise a player is named by the part of his address before the @.
	ShowAddresses bool
	// Logger receives the errors of the source and of drawing; nil
	// discards them.
	Logger *slog.Logger
	// GameBytes bounds the memory kept for games already read (their
	// reports and pages), and PictureBytes that kept for pictures already
	// drawn: 8 MiB each when zero, which a daemon that holds some tens of
	// MB can spare (a campaign's page and its reports take about 1 MB, a
	// campaign picture 0.4 MB).
	GameBytes, PictureBytes int64
	// Language is the language of a reader whose browser asks for none
	// the journal has and who chose none with ?lang=: the referee's
	// default (en or ja; English when empty).
	Language string
}

// A Journal is the journal's http.Handler.
type Journal struct {
	mux      *http.ServeMux // the journal's URLs (routes)
	src      Source
	opt      Options
	log      *slog.Logger
	views    *lru[*gameView] // by id and log head
	pictures *lru[[]byte]    // by id, impulse and the log's head after it
	changes  *lru[change]    // each game's last change shown, by id and head

	// busy bounds the replays and drawings in progress at once: each
	// takes a core for some tens of milliseconds, and the mail of the
	// daemon, which shares the machine, must not wait behind a crawler
	// asking for every picture of every game.
	busy chan struct{}

	mu    sync.Mutex
	lists map[string]*page   // the last list page written, HTML and JSON
	read  *listData          // the list as last read, and the version it was read at
	sizes map[string]picSize // picture sizes by the scenario files' digest

	comm communityCache // the tournaments as the games and players join them up (community.go)
}

// picSize is the size of a scenario's map picture, which the position
// does not change.
type picSize struct{ W, H int }

// New returns a Journal that reads src.
func New(src Source, opt *Options) *Journal {
	j := &Journal{src: src, sizes: map[string]picSize{}, lists: map[string]*page{}}
	if opt != nil {
		j.opt = *opt
	}
	j.log = j.opt.Logger
	if j.log == nil {
		j.log = slog.New(slog.DiscardHandler)
	}
	if j.opt.GameBytes <= 0 {
		j.opt.GameBytes = 8 << 20
	}
	if j.opt.PictureBytes <= 0 {
		j.opt.PictureBytes = 8 << 20
	}
	j.busy = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1))
	j.views = newLRU[*gameView](j.opt.GameBytes)
	j.pictures = newLRU[[]byte](j.opt.PictureBytes)
	j.changes = newLRU[change](1 << 16)
	j.mux = j.routes()
	return j
}

// ServeHTTP answers GET and HEAD on the journal's URLs (docs/journal.md).
func (j *Journal) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		j.fail(w, r, http.StatusMethodNotAllowed, rules.M("Not allowed"), rules.M("The journal is read only: it answers GET and HEAD, and nothing can be changed through it."))
		return
	}
	if q, bad := badLang(r); bad {
		j.fail(w, r, http.StatusBadRequest, rules.M("No such language"), rules.M("The journal has no language %q: lang=en (English) or lang=ja (日本語).", q))
		return
	}
	// A page asked for without ?lang= is in the browser's language.
	w.Header().Add("Vary", "Accept-Language")
	j.mux.ServeHTTP(w, r)
}

// routes returns the journal's URLs (docs/journal.md) and what answers
// each. A pattern with GET answers HEAD too; whatever no pattern matches
// gets the journal's own page of a page not found.
func (j *Journal) routes() *http.ServeMux {
	m := http.NewServeMux()
	get := func(pattern string, h func(w http.ResponseWriter, r *http.Request, id string)) {
		m.HandleFunc("GET "+pattern, func(w http.ResponseWriter, r *http.Request) { h(w, r, r.PathValue("id")) })
	}
	m.HandleFunc("GET /{$}", j.serveList)
	m.HandleFunc("GET /api/games", j.serveListJSON)
	m.HandleFunc("GET /tournaments", func(w http.ResponseWriter, r *http.Request) { j.serveTournaments(w, r, false) })
	m.HandleFunc("GET /api/tournaments", func(w http.ResponseWriter, r *http.Request) { j.serveTournaments(w, r, true) })
	m.HandleFunc("GET "+verifyURL, j.serveVerifyPage)
	m.HandleFunc("GET "+verifyWasmURL, j.serveWasm)
	m.HandleFunc("GET "+verifyExecURL, func(w http.ResponseWriter, r *http.Request) { j.send(w, r, execPage, "") })
	m.HandleFunc("GET "+verifyScriptURL, func(w http.ResponseWriter, r *http.Request) { j.send(w, r, scriptPage, "") })
	get("/games/{id}", j.serveGame)
	get("/games/{id}/picture.png", j.serveCurrentPicture)
	get("/games/{id}/replay", j.serveReplay)
	get("/games/{id}/export.json", j.serveExport)
	get("/api/games/{id}", j.serveGameJSON)
	m.HandleFunc("GET /games/{id}/impulses/{imp}/picture.png", func(w http.ResponseWriter, r *http.Request) {
		j.serveImpulsePicture(w, r, r.PathValue("id"), r.PathValue("imp"))
	})
	m.HandleFunc("GET /api/games/{id}/impulses/{imp}", func(w http.ResponseWriter, r *http.Request) {
		j.serveImpulseJSON(w, r, r.PathValue("id"), r.PathValue("imp"))
	})
	get("/tournaments/{id}", func(w http.ResponseWriter, r *http.Request, id string) { j.serveTournament(w, r, id, false) })
	get("/api/tournaments/{id}", func(w http.ResponseWriter, r *http.Request, id string) { j.serveTournament(w, r, id, true) })
	get("/tournaments/{id}/export.json", j.serveTournamentExport)
	m.HandleFunc("GET /feed.atom", j.serveJournalFeed)
	get("/games/{id}/feed.atom", j.serveGameFeed)
	get("/tournaments/{id}/feed.atom", j.serveTournamentFeed)
	// The players' pages and the director's view (community.go).
	j.communityRoutes(m.HandleFunc)
	m.HandleFunc("/", j.notFound)
	return m
}

// A change is the last change of a game the journal shows: the head of
// its log after it and its time.
type change struct {
	Head string
	Time time.Time
}

// lastChange returns a game's last change that the journal shows, read
// once for each head of the log, so that the list of games reads one
// record only of the games that changed since it was last asked for.
//
// A side's standing orders are its own until they take effect: the
// record that keeps them (given when it is not the side's impulse) is not
// told to the other player, nor shown here. The journal's heads, times and
// ETags stop at the last record before them, so that a page that changed
// when no impulse was played does not tell that a player gave some.
func (j *Journal) lastChange(g *adjudicator.Game) (change, error) {
	return j.changes.do(g.ID+"\x00"+g.Head, func() (change, int64, error) {
		r, err := j.src.LastRecord(g.ID)
		if err != nil {
			return change{}, 0, err
		}
		if r.Hash != g.Head {
			// The game changed since its summary was read: the list
			// is read again.
			return change{}, 0, errStale
		}
		if r.Kind == adjudicator.KindStanding {
			_, log, err := j.src.Game(g.ID)
			if err != nil {
				return change{}, 0, err
			}
			if len(log) < g.Log || log[g.Log-1].Hash != g.Head {
				return change{}, 0, errors.New("its log does not end at its head")
			}
			r = log[publicEnd(log[:g.Log])-1]
		}
		return change{r.Hash, r.Time.UTC()}, 1, nil
	})
}

// errStale is lastChange's for a game that changed while it was read.
var errStale = errors.New("journal: the game changed while it was read")

// publicEnd returns how many records of a log the journal shows the head
// of: those up to the last that is not a side's standing orders.
func publicEnd(log []adjudicator.Record) int {
	n := len(log)
	for n > 1 && log[n-1].Kind == adjudicator.KindStanding {
		n--
	}
	return n
}

// work waits for a turn to replay or draw, and returns the function that
// ends it.
func (j *Journal) work() (done func()) {
	j.busy <- struct{}{}
	return func() { <-j.busy }
}

// pictureSize returns the size of the map picture of a game's scenario,
// for the img element's width and height: the layout depends on the map
// alone, so it is worked out once a scenario.
func (j *Journal) pictureSize(g *adjudicator.Game, s *rules.Scenario) picSize {
	j.mu.Lock()
	sz, ok := j.sizes[g.Data]
	j.mu.Unlock()
	if ok {
		return sz
	}
	p := picture.Layout(s, g.State)
	sz = picSize{p.Width, p.Height}
	j.mu.Lock()
	j.sizes[g.Data] = sz
	j.mu.Unlock()
	return sz
}

// name is how the journal names a player or observer: his address when the
// operator allows it, else its part before the @.
func (j *Journal) name(addr string) string {
	if j.opt.ShowAddresses {
		return addr
	}
	if i := strings.IndexByte(addr, '@'); i >= 0 {
		return addr[:i]
	}
	return addr
}

// gameError answers an error of the source about one game: 404 for a game
// it does not hold, 500 for anything else, which is logged.
func (j *Journal) gameError(w http.ResponseWriter, r *http.Request, id string, err error) {
	if errors.Is(err, ErrNotFound) {
		j.fail(w, r, http.StatusNotFound, rules.M("No such game"), rules.M("There is no game %s here. The list of games is on the first page.", id))
		return
	}
	j.serverError(w, r, fmt.Errorf("game %s: %w", id, err))
}

func (j *Journal) serverError(w http.ResponseWriter, r *http.Request, err error) {
	j.log.Error("journal", "path", r.URL.Path, "err", err)
	j.fail(w, r, http.StatusInternalServerError, rules.M("Something went wrong"), rules.M("The journal could not read what this page shows. The referee's operator has it in the log."))
}

func (j *Journal) notFound(w http.ResponseWriter, r *http.Request) {
	j.fail(w, r, http.StatusNotFound, rules.M("Page not found"), rules.M("There is no page at this address. The list of games is on the first page."))
}
