package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/emersion/go-sasl"
	"golang.org/x/oauth2"
)

// The SASL mechanisms that carry an OAuth2 access token.
const (
	mechXOAuth2     = "XOAUTH2"
	mechOAuthBearer = sasl.OAuthBearer
)

// tokenTimeout bounds each request to the token endpoint.
const tokenTimeout = 30 * time.Second

// Endpoint returns the OAuth2 client of c, for the device-authorization
// flow of titm oauth2 login and for the token source.
func (c *OAuth2Config) Endpoint() *oauth2.Config {
	return &oauth2.Config{
		ClientID:     c.ClientID,
		ClientSecret: c.ClientSecret,
		Scopes:       c.Scopes,
		Endpoint: oauth2.Endpoint{
			TokenURL:      c.TokenURL,
			DeviceAuthURL: c.DeviceAuthURL,
		},
	}
}

// HTTPContext returns a context whose HTTP client the oauth2 package uses
// for the token endpoint: one with a timeout, so that a provider that does
// not answer cannot hold a login for ever.
func HTTPContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Timeout: tokenTimeout})
}

// AccessToken returns an access token to log in with, from the refresh
// token. The token is kept and given again until it is about to expire,
// then renewed from the token endpoint; IMAP and SMTP share it, as both
// take the same scopes. Neither the error nor anything logged holds a
// token.
func (c *OAuth2Config) AccessToken() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens == nil {
		refresh := c.RefreshToken
		if c.refresh != "" {
			refresh = c.refresh
		}
		// Config.TokenSource is an oauth2.ReuseTokenSource over a source
		// that renews with the refresh token.
		c.tokens = c.Endpoint().TokenSource(HTTPContext(context.Background()), &oauth2.Token{RefreshToken: refresh})
	}
	t, err := c.tokens.Token()
	if err != nil {
		return "", fmt.Errorf("oauth2: getting an access token from %s: %w", c.TokenURL, tokenError(err))
	}
	// A provider may send a new refresh token with an access token
	// (Microsoft 365 does); it is the one to renew with from then on.
	if t.RefreshToken != "" {
		c.refresh = t.RefreshToken
	}
	return t.AccessToken, nil
}

// refused forgets the access token a server has just refused, so that the
// next login gets a new one rather than the same until it expires: a token
// may be revoked, or expire, before the time the provider gave.
func (c *OAuth2Config) refused() {
	c.mu.Lock()
	c.tokens = nil
	c.mu.Unlock()
}

// tokenError explains the token endpoint's refusal: invalid_grant means
// the refresh token is no longer good.
func tokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode == "invalid_grant" {
		return fmt.Errorf("the refresh token was refused (invalid_grant: revoked, expired or for another client); run titm oauth2 login for a new one: %w", err)
	}
	return err
}

// saslClient returns the SASL client that logs in as user with an access
// token, by the configured mechanism, and the mechanism's name.
func (c *OAuth2Config) saslClient(user string) (sasl.Client, string, error) {
	tok, err := c.AccessToken()
	if err != nil {
		return nil, "", err
	}
	if c.Mechanism == "oauthbearer" {
		return sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: user, Token: tok}), mechOAuthBearer, nil
	}
	return &xoauth2Client{user: user, token: tok}, mechXOAuth2, nil
}

// xoauth2Client is the XOAUTH2 mechanism, which Gmail and Microsoft 365
// take: the user and the bearer token in one initial response. go-sasl has
// OAUTHBEARER only.
type xoauth2Client struct{ user, token string }

func (a *xoauth2Client) Start() (string, []byte, error) {
	return mechXOAuth2, []byte("user=" + a.user + "\x01auth=Bearer " + a.token + "\x01\x01"), nil
}

// Next handles the only challenge XOAUTH2 has: the server's refusal, a JSON
// object whose status says why.
func (a *xoauth2Client) Next(challenge []byte) ([]byte, error) {
	var e struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(challenge, &e); err != nil || e.Status == "" {
		return nil, errors.New("XOAUTH2: the server refused the login with an unreadable answer")
	}
	return nil, &sasl.OAuthBearerError{Status: e.Status}
}

// loginError explains a refused OAuth2 login, and has the next login get a
// new access token.
func (c *OAuth2Config) loginError(mech string, err error) error {
	c.refused()
	var be *sasl.OAuthBearerError
	if errors.As(err, &be) {
		return fmt.Errorf("%s: the server refused the access token (status %q); check oauth2.scopes, that the account may use this protocol, and the refresh token (titm oauth2 login gets a new one)", mech, be.Status)
	}
	return fmt.Errorf("%s: %w", mech, err)
}
