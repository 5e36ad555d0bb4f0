package referee

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// The director's acts: each is logged with its reason, and both players and
// the observers are told.

// Pause stops a game's clock: no impulse is played until Resume.
func (r *Referee) Pause(tx Tx, id, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		recs, err := g.Pause(reason, now)
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has paused game %s: %s. No impulse is played until the director resumes it.", g.ID, reason)
		}, err
	})
}

// Resume starts a paused game's clock again, with the time that was left.
func (r *Referee) Resume(tx Tx, id, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		recs, err := g.Resume(reason, now)
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has resumed game %s: %s. Impulse %s is due by %s.", g.ID, reason, g.Next.String(), adjudicator.FormatTime(g.Due))
		}, err
	})
}

// Extend moves the deadline of the impulse in play by d.
func (r *Referee) Extend(tx Tx, id string, d time.Duration, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		recs, err := g.Extend("", d, reason, now)
		if g.Paused {
			// The clock is stopped: the time left is what the extension
			// changed, and the deadline comes when the game resumes.
			return recs, func(p *lang.Printer) string {
				return p.Sprintf("The director has extended impulse %s of game %s by %s: %s. The game is paused, with %s left on the clock when it resumes.", g.Next.String(), g.ID, human(d), reason, human(g.Left))
			}, err
		}
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has extended impulse %s of game %s by %s: %s. It is due by %s.", g.Next.String(), g.ID, human(d), reason, adjudicator.FormatTime(g.Due))
		}, err
	})
}

// Rollback returns a game to the position before impulse to, for a proven
// adjudication error. The log keeps everything; no die is rolled twice.
func (r *Referee) Rollback(tx Tx, id string, to rules.Impulse, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		log, err := tx.Log(g.ID)
		if err != nil {
			return nil, nil, err
		}
		recs, err := g.Rollback(log, to, reason, now)
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has rolled game %s back to before impulse %s: %s.\nImpulse %s is to be played again, due by %s. The log keeps everything; no die is rolled twice.", g.ID, to.String(), reason, g.Next.String(), adjudicator.FormatTime(g.Due))
		}, err
	})
}

// direct runs one act of the director on a game. An error of the act is the
// refusal, for the director to read; nothing is then kept.
func (r *Referee) direct(tx Tx, id string, act func(g *adjudicator.Game) ([]adjudicator.Record, text, error)) (*Result, error) {
	g, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	recs, notice, err := act(g)
	if err != nil {
		return nil, err
	}
	res := &Result{Game: g, Records: recs}
	if err := res.save(tx, g); err != nil {
		return nil, err
	}
	r.toAll(res, g, notice)
	res.Reply = "done\nlog head " + g.Head
	res.Outcome = recs[len(recs)-1].Kind
	return res, nil
}

// The director's mail: his lines, one a line, after his TOKEN, read by the
// one order parser with the director's keywords alone (DirectorKeywords).
// Each line is answered; an error is that line's answer, and the lines
// done before it stand.

// DirectorLine is one of the director's lines, as read: its act, the
// words the act takes and the reason, as written.
type DirectorLine struct {
	Act    string // NEW, NEW TOURNAMENT, PAUSE, ..., TOURNAMENT PAUSE, ...
	Args   []string
	Reason string
}

// Keyword returns the line's keyword.
func (l DirectorLine) Keyword() string { k, _, _ := strings.Cut(l.Act, " "); return k }

func (l DirectorLine) String() string {
	return strings.TrimSpace(strings.Join(append([]string{l.Act}, l.Args...), " ") + " " + l.Reason)
}

// Class says that the director's lines are requests.
func (DirectorLine) Class() rules.Class { return rules.Request }

// EndsOrders reports whether the line is NEW TOURNAMENT, whose file is the
// rest of the mail.
func (l DirectorLine) EndsOrders() bool { return l.Act == "NEW TOURNAMENT" }

// The forms of the director's acts on a game, for HELP and their errors.
var (
	syntaxPause    = rules.M("PAUSE game reason")
	syntaxResume   = rules.M("RESUME game reason")
	syntaxExtend   = rules.M("EXTEND game 24h reason")
	syntaxRollback = rules.M("ROLLBACK game G17-2 reason")
)

// DirectorKeywords are the lines of the director's mail, in the order HELP
// lists them.
var DirectorKeywords = []rules.Keyword{
	adjudicator.Headings[1], // TOKEN: the director's token
	{Name: "NEW", Syntax: rules.M("NEW scenario german-address allied-address").Key, Class: rules.Request,
		Summary: rules.M("a new game; NEW TOURNAMENT, then the tournament's file to END, a new tournament").Key, Parse: parseNew},
	{Name: "PAUSE", Syntax: syntaxPause.Key, Class: rules.Request,
		Summary: rules.M("stops the game's clock until RESUME").Key, Parse: directorAct("PAUSE", 1, syntaxPause)},
	{Name: "RESUME", Syntax: syntaxResume.Key, Class: rules.Request,
		Summary: rules.M("starts a paused game's clock again").Key, Parse: directorAct("RESUME", 1, syntaxResume)},
	{Name: "EXTEND", Syntax: syntaxExtend.Key, Class: rules.Request,
		Summary: rules.M("moves the deadline of the impulse in play").Key, Parse: directorAct("EXTEND", 2, syntaxExtend)},
	{Name: "ROLLBACK", Syntax: syntaxRollback.Key, Class: rules.Request,
		Summary: rules.M("returns the game to before the impulse, for a proven adjudication error; the log keeps everything").Key,
		Parse:   directorAct("ROLLBACK", 2, syntaxRollback)},
	{Name: "TOURNAMENT", Syntax: rules.M("TOURNAMENT PAUSE|RESUME id reason").Key, Class: rules.Request,
		Summary: rules.M("also TOURNAMENT REPLACE id old-address new-address reason, TOURNAMENT WITHDRAW id address reason, TOURNAMENT ADJUDICATE id game draw|german|allied reason, TOURNAMENT STANDINGS id").Key,
		Parse:   parseTournamentLine},
	{Name: "HELP", Syntax: "HELP", Class: rules.Request, Summary: rules.M("this text").Key, Parse: simple(HelpRequest{})},
}

// reasonAfter is the text of line after its first n words, as written.
func reasonAfter(line string, n int) string {
	f := strings.Fields(line)
	if len(f) <= n {
		return ""
	}
	rest := line
	for i := 0; i < n; i++ {
		rest = strings.TrimLeft(rest, " ")
		rest = rest[len(f[i]):]
	}
	return strings.TrimSpace(rest)
}

func parseNew(_ string, w []string) (rules.Order, []string, error) {
	if len(w) == 1 && strings.EqualFold(w[0], "TOURNAMENT") {
		return DirectorLine{Act: "NEW TOURNAMENT"}, nil, nil
	}
	if len(w) != 3 {
		return nil, nil, rules.M("NEW takes a scenario and the two players' addresses, as NEW campaign german@example.org allied@example.org; or NEW TOURNAMENT, then the tournament's file to END").Err()
	}
	return DirectorLine{Act: "NEW", Args: slices.Clone(w)}, nil, nil
}

// directorAct reads a line of an act on a game: the game, n-1 words more
// and a reason.
func directorAct(act string, n int, syntax rules.Message) func(string, []string) (rules.Order, []string, error) {
	return func(line string, w []string) (rules.Order, []string, error) {
		l := DirectorLine{Act: act, Reason: reasonAfter(line, n+1)}
		if len(w) > n {
			l.Args = slices.Clone(w[:n]) // w is the parser's, used again for the next line
		}
		switch {
		case l.Reason == "" || len(w) <= n:
			return nil, nil, rules.M("%s takes a game and a reason: %s", act, syntax).Err()
		case act == "EXTEND" && !isDuration(w[1]):
			return nil, nil, rules.M("EXTEND takes a game, a time as 24h, and a reason, not %q", w[1]).Err()
		case act == "ROLLBACK" && !isImpulse(w[1]):
			return nil, nil, rules.M("ROLLBACK takes a game, the impulse to play again as G17-2, and a reason, not %q", w[1]).Err()
		}
		return l, nil, nil
	}
}

func isDuration(s string) bool { _, err := time.ParseDuration(strings.ToLower(s)); return err == nil }

func isImpulse(s string) bool { _, err := rules.ParseImpulse(s); return err == nil }

// tournamentActs are the director's TOURNAMENT lines: the words each takes
// after the tournament's id, and whether it takes a reason.
var tournamentActs = map[string]struct {
	words  int
	reason bool
}{
	"STANDINGS": {0, false}, "PAUSE": {0, true}, "RESUME": {0, true},
	"REPLACE": {2, true}, "WITHDRAW": {1, true}, "ADJUDICATE": {2, true},
}

func parseTournamentLine(line string, w []string) (rules.Order, []string, error) {
	form := rules.M("TOURNAMENT takes PAUSE, RESUME, REPLACE, WITHDRAW, ADJUDICATE or STANDINGS, the tournament's id, and what they need")
	if len(w) < 2 {
		return nil, nil, form.Err()
	}
	verb := strings.ToUpper(w[0])
	a, ok := tournamentActs[verb]
	if !ok {
		return nil, nil, form.Err()
	}
	n := 2 + a.words // the verb, the id, the words
	if len(w) < n {
		return nil, nil, form.Err()
	}
	l := DirectorLine{Act: "TOURNAMENT " + verb, Args: slices.Clone(w[1:n])}
	if !a.reason {
		return l, w[n:], nil
	}
	if l.Reason = reasonAfter(line, n+1); l.Reason == "" {
		return nil, nil, rules.M("TOURNAMENT %s needs a reason", verb).Err()
	}
	return l, nil, nil
}

// DirectorMail is a mail from the director's address: the door gives his
// address and token as configured, and the mail's subject and text.
type DirectorMail struct {
	Address, Token string
	Subject, Text  string
}

// Direct does the director's mail: without his token, nothing, and his
// address is warned; else each line's act, and the answer to each line, in
// his language.
func (r *Referee) Direct(tx Tx, m DirectorMail, now time.Time) (*Result, error) {
	o, perr := rules.ParseOrders(m.Text, nil, &rules.ParseOptions{Keywords: DirectorKeywords, Only: true})
	p := lang.For(r.languageOf("", m.Address))
	if !sameToken(headingOf(o).Token, m.Token) {
		text := wrap(p.Sprintf("A mail from your address (subject %q) was refused: it had no TOKEN line with the director's token, or a wrong one. Nothing in it was applied.", m.Subject)) + "\n"
		return &Result{Refused: true, Outcome: "refused: the director's token is missing or wrong",
			Mails: []Mail{{Kind: KindWarning, To: []string{m.Address}, Subject: p.Sprintf("a mail in your name was refused"), Text: text}}}, nil
	}
	var errs rules.OrderErrors
	errors.As(perr, &errs)
	d := &directing{r: r, tx: tx, p: p, now: now, res: &Result{}, text: m.Text}
	for _, l := range lineOrder(o, errs) {
		d.line(l)
	}
	if len(d.answers) == 0 {
		d.answers = append(d.answers, directorHelp(p))
	}
	d.res.Reply = strings.Join(d.answers, "\n\n") + "\n"
	d.res.Outcome = "director: " + strings.Join(d.acts, ", ")
	if len(d.acts) == 0 {
		d.res.Outcome = "director: nothing done"
	}
	return d.res, nil
}

// directorHelp lists the director's lines, in his language.
func directorHelp(p *lang.Printer) string {
	return p.Sprintf("The director's lines, one a line, after TOKEN and the director's token:") + "\n" + keywordList(p, DirectorKeywords[1:])
}

func sameToken(a, b string) bool {
	return a != "" && b != "" && adjudicator.HashToken(a) == adjudicator.HashToken(b)
}

// aLine is a line of a mail as read: its order, or its error.
type aLine struct {
	n   int
	ord rules.Order
	err *rules.OrderError
}

// lineOrder puts a parse's orders and errors in the order of their lines.
func lineOrder(o *rules.Orders, errs rules.OrderErrors) []aLine {
	var out []aLine
	if o != nil {
		for i, ord := range o.List {
			out = append(out, aLine{n: o.Lines[i], ord: ord})
		}
	}
	for i := range errs {
		out = append(out, aLine{n: errs[i].Line, err: &errs[i]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].n < out[j].n })
	return out
}

// directing is one director's mail being done.
type directing struct {
	r       *Referee
	tx      Tx
	p       *lang.Printer
	now     time.Time
	res     *Result
	text    string
	answers []string
	acts    []string // the acts done
}

// line does one line and answers it.
func (d *directing) line(l aLine) {
	p := d.p
	if e := l.err; e != nil {
		msg := e.Msg
		if e.Why.Key != "" {
			msg = p.Text(e.Why)
		}
		d.answer(l.n, e.Text, msg)
		return
	}
	switch o := l.ord.(type) {
	case HelpRequest:
		d.answers = append(d.answers, directorHelp(p))
	case DirectorLine:
		ans, err := d.act(o, l.n)
		if err != nil {
			// The act's refusal is the line's answer, as the store's
			// error is: the lines done before it stand.
			d.answer(l.n, o.String(), p.Text(rules.MessageOf(err)))
			return
		}
		d.answer(l.n, o.String(), ans)
		d.acts = append(d.acts, o.Act)
	}
}

// answer answers the line n, which read text: the line, and the answer
// below it, set in.
func (d *directing) answer(n int, text, ans string) {
	var b strings.Builder
	b.WriteString(d.p.Sprintf("line %d: %s", n, text))
	for _, l := range strings.Split(strings.TrimRight(ans, "\n"), "\n") {
		b.WriteString("\n")
		if strings.HasPrefix(l, " ") {
			b.WriteString("  " + l)
		} else {
			b.WriteString(wrapLine(l, "  ", "  "))
		}
	}
	d.answers = append(d.answers, b.String())
}

// act does a director's line; its answer is the act's reply.
func (d *directing) act(l DirectorLine, n int) (string, error) {
	r, tx, now, a := d.r, d.tx, d.now, l.Args
	var res *Result
	var err error
	switch l.Act {
	case "NEW":
		var c *Created
		if c, err = r.New(tx, NewGame{Scenario: a[0], German: a[1], Allied: a[2]}, now); err == nil {
			res = c.Result
		}
	case "NEW TOURNAMENT":
		res, err = r.NewTournament(tx, d.p.Sprintf("the tournament's file"), tournamentFile(d.text, n), now)
	case "PAUSE", "RESUME", "EXTEND", "ROLLBACK":
		res, err = d.gameAct(l)
	case "TOURNAMENT STANDINGS":
		t, err := tx.Tournament(a[0])
		if err != nil {
			return "", err
		}
		return standingsText(d.p, t), nil
	default:
		res, err = d.tournamentAct(l)
	}
	if err != nil {
		return "", err
	}
	d.collect(res)
	return d.done(l, res), nil
}

// done is the answer to a line whose act was done, in the director's
// language: what was made, or the log's head after the act.
func (d *directing) done(l DirectorLine, res *Result) string {
	p := d.p
	switch t := res.Tournament; {
	case l.Act == "NEW":
		return p.Sprintf("game %s made; its players are welcomed and asked to JOIN", res.Game.ID)
	case l.Act == "NEW TOURNAMENT":
		return p.Sprintf("tournament %s made: %d players, %s, %s; its players are welcomed and round 1 is paired\ncommitment %s",
			t.ID, len(t.Entrants), t.Format, tournament.RoundsText(t.Settings.Rounds), t.Commitment)
	case t != nil:
		return p.Sprintf("done\ntournament log head %s", t.Head)
	case res.Game != nil:
		return p.Sprintf("done\nlog head %s", res.Game.Head)
	}
	return res.Reply
}

// gameAct does a director's act on a game.
func (d *directing) gameAct(l DirectorLine) (*Result, error) {
	r, tx, now, id := d.r, d.tx, d.now, l.Args[0]
	if !gameExists(tx, id) {
		return nil, rules.M("no game %s", id).Err()
	}
	switch l.Act {
	case "PAUSE":
		return r.Pause(tx, id, l.Reason, now)
	case "RESUME":
		return r.Resume(tx, id, l.Reason, now)
	case "EXTEND":
		by, _ := time.ParseDuration(strings.ToLower(l.Args[1]))
		return r.Extend(tx, id, by, l.Reason, now)
	}
	to, _ := rules.ParseImpulse(l.Args[1])
	return r.Rollback(tx, id, to, l.Reason, now)
}

// tournamentAct does a director's act on a tournament.
func (d *directing) tournamentAct(l DirectorLine) (*Result, error) {
	r, tx, now, a := d.r, d.tx, d.now, l.Args
	switch l.Act {
	case "TOURNAMENT PAUSE":
		return r.TournamentPause(tx, a[0], l.Reason, now)
	case "TOURNAMENT RESUME":
		return r.TournamentResume(tx, a[0], l.Reason, now)
	case "TOURNAMENT REPLACE":
		return r.TournamentReplace(tx, a[0], a[1], "", a[2], l.Reason, now)
	case "TOURNAMENT WITHDRAW":
		return r.TournamentWithdraw(tx, a[0], a[1], l.Reason, now)
	}
	return r.TournamentAdjudicate(tx, a[0], a[1], a[2], l.Reason, now)
}

// gameExists reports whether the store holds a game id.
func gameExists(tx Tx, id string) bool {
	gs, err := tx.Games()
	if err != nil {
		return false
	}
	return slices.ContainsFunc(gs, func(g *adjudicator.Game) bool { return g.ID == id })
}

// collect takes the records and mails of one of the director's acts: the
// answer to the director is the reply to his whole mail.
func (d *directing) collect(res *Result) {
	if res.Game != nil {
		d.res.Game = res.Game
	}
	if res.Tournament != nil {
		d.res.Tournament = res.Tournament
	}
	d.res.Mails = append(d.res.Mails, res.Mails...)
}

// tournamentFile is the tournament's file in the director's mail: the
// lines after line n (NEW TOURNAMENT), to END or a signature.
func tournamentFile(text string, n int) []byte {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	var file []string
	for _, l := range lines[min(n, len(lines)):] {
		if strings.TrimSpace(l) == "END" || l == "-- " {
			break
		}
		file = append(file, l)
	}
	return []byte(strings.Join(file, "\n"))
}
