package mail_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"titm/mail"
	"titm/rules"
	"titm/store"
)

// The mails of a Flush to many players, a lane each, leave over as many
// connections as send at once, each kept from one lane to the next: not a
// connection (a greeting, TLS and a login) for each player's mail.
func TestFlushKeepsConnections(t *testing.T) {
	t.Parallel()
	const players = 12
	var users []string
	for i := range players {
		users = append(users, playerOf(rules.German, i))
	}
	var (
		mu      sync.Mutex
		remotes = map[string]int{}
	)
	w := newWorld(t, &worldOptions{noStart: true, users: users, serverLog: logOn("SMTP message accepted", func(r slog.Record) {
		mu.Lock()
		defer mu.Unlock()
		remotes[attr(r, "remote")]++
	})})
	err := w.st.Update(func(tx *store.Tx) error {
		for _, to := range users {
			data, id, err := mail.Compose(gomail.Address{Address: referee}, &mail.Outgoing{To: []string{to}, Subject: "a notice", Text: "text\n"}, time.Now())
			if err != nil {
				return err
			}
			if err := tx.Queue(&store.Mail{Kind: "notice", MessageID: id, From: referee, To: []string{to}, Subject: "a notice", Data: data, Created: time.Now()}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mail.NewSender(&w.cfg.SMTP, gomail.Address{Address: referee}, w.st, quiet(), time.Now).Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var sent int
	for _, n := range remotes {
		sent += n
	}
	// The world's game's welcomes go too.
	if sent < players {
		t.Fatalf("%d mails accepted, want the %d queued", sent, players)
	}
	if len(remotes) > 2 {
		t.Errorf("%d mails to %d players went over %d connections, want 2 at most: %v", sent, players, len(remotes), fmt.Sprint(remotes))
	}
}
