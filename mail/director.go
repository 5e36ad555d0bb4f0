package mail

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// director handles the tournament director's mail: NEW, PAUSE, RESUME,
// EXTEND and ROLLBACK, one a line, each with a reason, acknowledged and
// logged. The acts are the referee's; this reads the lines and answers.
func (w *work) director() error {
	cfg := w.h.cfg
	if !constantEqual(tokenOf(w.in.Text), cfg.Referee.DirectorToken) {
		w.outcome = "refused: the director's token is missing or wrong"
		w.h.log.Warn("director's mail refused: missing or wrong token", "from", w.in.From, "message_id", w.in.MessageID)
		p := w.printer()
		w.send(referee.Mail{Kind: referee.KindWarning, To: []string{cfg.Referee.Director}, Subject: p.Sprintf("a mail in your name was refused"),
			Text: p.Sprintf("A mail from your address (subject %q) was refused: it had no TOKEN line, or a wrong one. Nothing in it was applied.\n", w.in.Subject)})
		return nil
	}
	var answers, done []string
	lines := strings.Split(strings.ReplaceAll(w.in.Text, "\r\n", "\n"), "\n")
	for n, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.HasPrefix(f[0], ">") {
			continue
		}
		kw := strings.ToUpper(f[0])
		if kw == "END" || l == "-- " {
			break
		}
		if kw == "TOKEN" {
			continue
		}
		if kw == "NEW" && len(f) == 2 && strings.EqualFold(f[1], "TOURNAMENT") {
			// The tournament's file is the rest of the mail, to END.
			ans, err := w.newTournament(lines[n+1:])
			if err != nil {
				ans = err.Error()
			} else {
				done = append(done, "NEW TOURNAMENT")
			}
			answers = append(answers, fmt.Sprintf("line %d: %s\n%s", n+1, strings.TrimSpace(l), indent(ans)))
			break
		}
		ans, err := w.directorLine(kw, f[1:])
		if err != nil {
			answers = append(answers, fmt.Sprintf("line %d: %s\n  %v", n+1, strings.TrimSpace(l), err))
			continue
		}
		answers = append(answers, fmt.Sprintf("line %d: %s\n  %s", n+1, strings.TrimSpace(l), ans))
		done = append(done, kw)
	}
	if len(answers) == 0 {
		answers = append(answers, directorHelp)
	}
	w.outcome = "director: " + strings.Join(done, ", ")
	if len(done) == 0 {
		w.outcome = "director: nothing done"
	}
	w.reply(w.game, strings.Join(answers, "\n\n")+"\n")
	return nil
}

const directorHelp = `The director's orders, one a line, after TOKEN:
  NEW scenario german-address allied-address
  PAUSE game reason...
  RESUME game reason...
  EXTEND game 24h reason...
  ROLLBACK game G17-2 reason...
  NEW TOURNAMENT, then the tournament's file to END
  TOURNAMENT PAUSE id reason...
  TOURNAMENT RESUME id reason...
  TOURNAMENT REPLACE id old-address new-address reason...
  TOURNAMENT WITHDRAW id address reason...
  TOURNAMENT ADJUDICATE id game draw|german|allied reason...
  TOURNAMENT STANDINGS id`

// directorLine does one line of the director's mail. An error is the
// answer to that line; the lines done before it stand.
func (w *work) directorLine(kw string, args []string) (string, error) {
	if kw == "NEW" {
		if len(args) != 3 {
			return "", errors.New("NEW takes a scenario and the two players' addresses: NEW campaign german@example.org allied@example.org")
		}
		c, err := w.h.ref.New(w.tx, referee.NewGame{Scenario: args[0], German: args[1], Allied: args[2]}, w.now)
		if err != nil {
			return "", err
		}
		w.collect(c.Result)
		return c.Reply, nil
	}
	if kw == "TOURNAMENT" {
		return w.tournamentLine(args)
	}
	if len(args) < 2 {
		return "", fmt.Errorf("%s takes a game and a reason\n%s", kw, directorHelp)
	}
	id := args[0]
	if _, err := w.tx.Summary(id); errors.Is(err, store.ErrNoGame) {
		return "", fmt.Errorf("no game %s", id)
	} else if err != nil {
		return "", err
	}
	w.game = id
	res, err := w.directorAct(kw, id, args)
	if err != nil {
		return "", err
	}
	w.collect(res)
	return res.Reply, nil
}

// directorAct calls the referee's act a line names.
func (w *work) directorAct(kw, id string, args []string) (*referee.Result, error) {
	ref, tx, now := w.h.ref, w.tx, w.now
	switch kw {
	case "PAUSE":
		return ref.Pause(tx, id, strings.Join(args[1:], " "), now)
	case "RESUME":
		return ref.Resume(tx, id, strings.Join(args[1:], " "), now)
	case "EXTEND":
		d, err := time.ParseDuration(strings.ToLower(args[1]))
		if err != nil || len(args) < 3 {
			return nil, errors.New("EXTEND takes a game, a time as 24h, and a reason")
		}
		return ref.Extend(tx, id, d, strings.Join(args[2:], " "), now)
	case "ROLLBACK":
		to, err := rules.ParseImpulse(args[1])
		if err != nil || len(args) < 3 {
			return nil, errors.New("ROLLBACK takes a game, the impulse to play again as G17-2, and a reason")
		}
		return ref.Rollback(tx, id, to, strings.Join(args[2:], " "), now)
	}
	return nil, fmt.Errorf("unknown order %s\n%s", kw, directorHelp)
}

// collect takes the mails of one of the director's acts; the answer to the
// director is the reply to his whole mail.
func (w *work) collect(res *referee.Result) {
	if res.Game != nil {
		w.game = res.Game.ID
	}
	for _, m := range res.Mails {
		w.send(m)
	}
}

func constantEqual(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return adjudicator.HashToken(a) == adjudicator.HashToken(b)
}

// newTournament makes a tournament of the file's text in the director's
// mail: the lines after NEW TOURNAMENT, to END or a signature.
func (w *work) newTournament(lines []string) (string, error) {
	var file []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "END" || l == "-- " {
			break
		}
		file = append(file, l)
	}
	res, err := w.h.ref.NewTournament(w.tx, "the tournament's file", []byte(strings.Join(file, "\n")), w.now)
	if err != nil {
		return "", err
	}
	w.collect(res)
	return res.Reply, nil
}

// tournamentLine does one of the director's TOURNAMENT lines.
func (w *work) tournamentLine(args []string) (string, error) {
	ref, tx, now := w.h.ref, w.tx, w.now
	const form = "TOURNAMENT takes PAUSE, RESUME, REPLACE, WITHDRAW, ADJUDICATE or STANDINGS, the tournament's id, and what they need"
	if len(args) < 2 {
		return "", errors.New(form)
	}
	id := args[1]
	reason := func(from int) (string, error) {
		if len(args) <= from {
			return "", fmt.Errorf("TOURNAMENT %s needs a reason\n%s", strings.ToUpper(args[0]), directorHelp)
		}
		return strings.Join(args[from:], " "), nil
	}
	var res *referee.Result
	var err error
	switch strings.ToUpper(args[0]) {
	case "STANDINGS":
		t, err := tx.Tournament(id)
		if err != nil {
			return "", err
		}
		return referee.TournamentStandings(t), nil
	case "PAUSE", "RESUME":
		why, err := reason(2)
		if err != nil {
			return "", err
		}
		if strings.EqualFold(args[0], "PAUSE") {
			res, err = ref.TournamentPause(tx, id, why, now)
		} else {
			res, err = ref.TournamentResume(tx, id, why, now)
		}
		if err != nil {
			return "", err
		}
	case "REPLACE":
		why, rerr := reason(4)
		if rerr != nil {
			return "", rerr
		}
		res, err = ref.TournamentReplace(tx, id, args[2], "", args[3], why, now)
	case "WITHDRAW":
		why, rerr := reason(3)
		if rerr != nil {
			return "", rerr
		}
		res, err = ref.TournamentWithdraw(tx, id, args[2], why, now)
	case "ADJUDICATE":
		why, rerr := reason(4)
		if rerr != nil {
			return "", rerr
		}
		res, err = ref.TournamentAdjudicate(tx, id, args[2], args[3], why, now)
	default:
		return "", errors.New(form)
	}
	if err != nil {
		return "", err
	}
	w.collect(res)
	return res.Reply, nil
}

// indent sets a text two spaces in, as the director's answers are.
func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}
