package mail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"titm/mail/embedded"
)

// The refresh token of the tests; no error may show it, nor an access
// token.
const refreshSecret = "zqRefresh-0455"

// provider is an OAuth2 token endpoint whose access tokens the embedded
// servers check: only the last one issued is good, so that a login with an
// older one fails.
type provider struct {
	srv *httptest.Server

	mu        sync.Mutex
	expiresIn int  // seconds, in each token answer
	revoked   bool // the servers refuse every token
	badGrant  bool // the endpoint refuses the refresh token
	issued    int  // tokens issued so far
	last      string
}

func newProvider(t *testing.T, expiresIn int) *provider {
	p := &provider{expiresIn: expiresIn}
	p.srv = httptest.NewServer(http.HandlerFunc(p.token))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *provider) token(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.FormValue("grant_type") != "refresh_token" || r.FormValue("refresh_token") != refreshSecret || p.badGrant {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_grant","error_description":"the refresh token has expired"}`)
		return
	}
	p.issued++
	p.last = fmt.Sprintf("zqAccess-%d", p.issued)
	fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":%d}`, p.last, p.expiresIn)
}

// check is the servers' TokenCheck.
func (p *provider) check(user, token string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.revoked || token != p.last || user != "referee@example.org" {
		return errors.New("bad token")
	}
	return nil
}

func (p *provider) set(f func(p *provider)) {
	p.mu.Lock()
	f(p)
	p.mu.Unlock()
}

func (p *provider) hits() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.issued
}

// oauthConfig starts the embedded servers checking p's tokens and returns
// the configuration that logs in to both with OAuth2 by mech.
func oauthConfig(t *testing.T, p *provider, mech string) *Config {
	s, err := embedded.Start(&embedded.Options{
		IMAPAddr:   "127.0.0.1:0",
		SMTPAddr:   "127.0.0.1:0",
		Users:      map[string]string{"referee@example.org": "unused password"},
		TokenCheck: p.check,
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	// The configuration as the daemon's file with these tables would give
	// it: [imap] and [smtp] logging in with auth = "oauth2", and the
	// [oauth2] table; internal/daemon's tests check that reading.
	o := &OAuth2Config{TokenURL: p.srv.URL + "/token", ClientID: "titm-test", RefreshToken: refreshSecret,
		Scopes: []string{"mail"}, Mechanism: mech}
	cfg := &Config{
		Referee: RefereeConfig{Address: "referee@example.org"},
		IMAP: IMAPConfig{Address: s.IMAPAddr(), Security: "none", Username: "referee@example.org", Auth: "oauth2", OAuth2: o,
			Folder: "INBOX", ProcessedFolder: "processed", PollInterval: time.Minute, IDLE: true},
		SMTP: SMTPConfig{Address: s.SMTPAddr(), Security: "none", Username: "referee@example.org", Auth: "oauth2", OAuth2: o,
			RetryMin: time.Minute, RetryMax: time.Hour, GiveUp: 72 * time.Hour},
		OAuth2: o,
	}
	return cfg
}

// logins are the two ways of logging in, each returning the error of one
// login.
var logins = []struct {
	name  string
	login func(cfg *Config) error
}{
	{"imap", func(cfg *Config) error {
		ib := &Inbox{cfg: &cfg.IMAP}
		c, err := ib.dial(&imapclient.Options{})
		if err != nil {
			return err
		}
		defer c.Close()
		return ib.login(c)
	}},
	{"smtp", func(cfg *Config) error {
		c, err := (&Sender{cfg: &cfg.SMTP}).dial(context.Background())
		if err != nil {
			return err
		}
		c.Close()
		return nil
	}},
}

// noToken fails the test if err shows the refresh token or an access token.
func noToken(t *testing.T, err error) {
	t.Helper()
	if err != nil && (strings.Contains(err.Error(), refreshSecret) || strings.Contains(err.Error(), "zqAccess")) {
		t.Errorf("the error shows a token: %v", err)
	}
}

func TestOAuth2Login(t *testing.T) {
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		for _, l := range logins {
			t.Run(mech+"/"+l.name, func(t *testing.T) {
				t.Run("good token kept", func(t *testing.T) {
					p := newProvider(t, 3600)
					cfg := oauthConfig(t, p, mech)
					for i := range 2 {
						if err := l.login(cfg); err != nil {
							t.Fatalf("login %d: %v", i+1, err)
						}
					}
					if n := p.hits(); n != 1 {
						t.Errorf("%d tokens fetched for two logins; want 1, the first kept", n)
					}
				})
				t.Run("expired token refreshed", func(t *testing.T) {
					// A token that lasts a second is already expired to
					// the client, which renews a little early.
					p := newProvider(t, 1)
					cfg := oauthConfig(t, p, mech)
					for i := range 2 {
						if err := l.login(cfg); err != nil {
							t.Fatalf("login %d: %v", i+1, err)
						}
					}
					if n := p.hits(); n != 2 {
						t.Errorf("%d tokens fetched for two logins with expired tokens; want 2", n)
					}
				})
				t.Run("refused token", func(t *testing.T) {
					p := newProvider(t, 3600)
					cfg := oauthConfig(t, p, mech)
					p.set(func(p *provider) { p.revoked = true })
					err := l.login(cfg)
					if err == nil || !strings.Contains(err.Error(), "the server refused the access token") {
						t.Fatalf("got %v; want the server's refusal of the token", err)
					}
					noToken(t, err)
					// The refused token is dropped: the next login gets
					// another, although the first has not expired.
					p.set(func(p *provider) { p.revoked = false })
					if err := l.login(cfg); err != nil {
						t.Fatalf("login after the refusal: %v", err)
					}
					if n := p.hits(); n != 2 {
						t.Errorf("%d tokens fetched; want 2, a new one after the refusal", n)
					}
				})
				t.Run("refused refresh token", func(t *testing.T) {
					p := newProvider(t, 3600)
					cfg := oauthConfig(t, p, mech)
					p.set(func(p *provider) { p.badGrant = true })
					err := l.login(cfg)
					if err == nil || !strings.Contains(err.Error(), "invalid_grant") || !strings.Contains(err.Error(), "titm oauth2 login") {
						t.Fatalf("got %v; want the refused refresh token and what to do", err)
					}
					noToken(t, err)
				})
			})
		}
	}
}

// TestSMTPLoginRefusedIsTemporary checks that a refused login, which the
// server answers with a 5xx code, does not fail the mails for good: the
// referee's setup or a revoked token is at fault, not the mail.
func TestSMTPLoginRefusedIsTemporary(t *testing.T) {
	s, err := embedded.Start(&embedded.Options{
		IMAPAddr: "127.0.0.1:0",
		SMTPAddr: "127.0.0.1:0",
		Users:    map[string]string{"referee@example.org": "right"},
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snd := &Sender{cfg: &SMTPConfig{Address: s.SMTPAddr(), Security: "none", Username: "referee@example.org", Auth: "password", Password: "wrong"}}
	_, err = snd.dial(context.Background())
	var se *smtp.SMTPError
	if err == nil || errors.As(err, &se) {
		t.Errorf("got %v; want an error that is not an SMTP error, so that the mail is retried", err)
	}
}

// titm serve --check --connect logs in as serve does: with an OAuth2 token
// when imap.auth and smtp.auth say so, and a refused token fails the step.
func TestCheckConnectionsOAuth2(t *testing.T) {
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		t.Run(mech, func(t *testing.T) {
			p := newProvider(t, 3600)
			cfg := oauthConfig(t, p, mech)
			var steps []string
			if !CheckConnections(t.Context(), cfg, func(s CheckStep) { steps = append(steps, s.String()) }) {
				t.Errorf("the check failed:\n%s", strings.Join(steps, "\n"))
			}
			for _, server := range []string{"imap", "smtp"} {
				want := server + ": log in as referee@example.org with an OAuth2 token: ok"
				if !strings.Contains(strings.Join(steps, "\n"), want) {
					t.Errorf("no step %q in:\n%s", want, strings.Join(steps, "\n"))
				}
			}
			p.set(func(p *provider) { p.revoked = true })
			steps = nil
			if CheckConnections(t.Context(), cfg, func(s CheckStep) { steps = append(steps, s.String()) }) {
				t.Errorf("a refused token passed the check:\n%s", strings.Join(steps, "\n"))
			}
		})
	}
}
