package mail

import (
	"time"

	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// NewGame makes a game in the store with the act of the referee of the
// settings opt (Config.RefereeOptions: its deadline, its languages; nil
// for the defaults) and, when from is not empty, queues the welcome mail
// with his token to each player, from from. It returns the game's id and
// the tokens, which are not kept anywhere else once the welcomes are sent.
func NewGame(tx *store.Tx, from gomail.Address, opt *referee.Options, o referee.NewGame, now time.Time) (string, map[rules.Side]string, error) {
	settings := referee.Options{}
	if opt != nil {
		settings = *opt
	}
	if from.Address != "" {
		settings.Address = from.Address
	}
	ref := referee.New(&settings)
	c, err := ref.New(tx, o, now)
	if err != nil {
		return "", nil, err
	}
	if from.Address != "" {
		if err := Queue(tx, from, c.Mails, now); err != nil {
			return "", nil, err
		}
	}
	return c.Game.ID, c.Tokens, nil
}
