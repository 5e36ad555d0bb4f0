package mail

import (
	"titm/adjudicator/referee"
)

// director hands the tournament director's mail to the referee, which
// reads his lines (NEW, PAUSE, RESUME, EXTEND, ROLLBACK, NEW TOURNAMENT and
// the TOURNAMENT lines), checks his token and does each line's act; the
// answer goes back to him, or, without his token, a warning to his
// address.
func (w *work) director() error {
	cfg := w.h.cfg
	res, err := w.h.ref.Direct(w.tx, referee.DirectorMail{Address: cfg.Referee.Director, Token: cfg.Referee.DirectorToken,
		Subject: w.in.Subject, Text: w.in.Text}, w.now)
	if err != nil {
		return err
	}
	if res.Refused {
		w.h.log.Warn("director's mail refused: missing or wrong token", "from", w.in.From, "message_id", w.in.MessageID)
		w.collect(res)
		w.outcome = res.Outcome
		return nil
	}
	w.result(res)
	return nil
}

// collect takes the mails of a referee's act, and its game.
func (w *work) collect(res *referee.Result) {
	if res.Game != nil {
		w.game = res.Game.ID
	}
	for _, m := range res.Mails {
		w.send(m)
	}
}
