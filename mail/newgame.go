package mail

import (
	"time"

	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// NewGameOptions describe a game to make.
type NewGameOptions struct {
	ID        string // "" for the scenario's name and a number
	Scenario  string // a shipped scenario's name or a scenario file
	German    string
	Allied    string
	Observers []string
	Deadline  time.Duration
	Now       time.Time
}

// NewGame makes a game in the store with the referee's act and, when from
// is not empty, queues the welcome mail with his token to each player. It
// returns the game's id and the tokens, which are not kept anywhere else
// once the welcomes are sent.
func NewGame(tx *store.Tx, from gomail.Address, o NewGameOptions) (string, map[rules.Side]string, error) {
	ref := referee.New(&referee.Options{Address: from.Address})
	c, err := ref.New(tx, referee.NewGame{ID: o.ID, Scenario: o.Scenario, German: o.German, Allied: o.Allied,
		Observers: o.Observers, Deadline: o.Deadline}, o.Now)
	if err != nil {
		return "", nil, err
	}
	if from.Address != "" {
		if err := Queue(tx, from, c.Mails, o.Now); err != nil {
			return "", nil, err
		}
	}
	return c.Game.ID, c.Tokens, nil
}
