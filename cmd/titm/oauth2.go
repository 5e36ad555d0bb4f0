package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"titm/internal/daemon"
	"titm/mail"
)

var oauth2Cmd = &command{
	name:    "oauth2",
	summary: "get the OAuth2 refresh token with which serve logs in to IMAP and SMTP",
	subs:    []*command{oauth2LoginCmd},
}

var oauth2LoginCmd = &command{
	name:    "oauth2 login",
	summary: "log in to the mail provider on its web page (device authorization, RFC 8628) and print the refresh token to store",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		configFile := fs.String("config", "titm.toml", "the configuration file, with its [oauth2] table (config.example.toml documents it)")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			cfg, err := daemon.LoadLoginConfig(*configFile, os.Getenv)
			if err != nil {
				var ces daemon.ConfigErrors
				if errors.As(err, &ces) {
					for _, e := range ces {
						fmt.Fprintln(c.errOut, e)
					}
					return errProblems
				}
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return c.oauth2Login(ctx, cfg.OAuth2)
		}
	},
}

// oauth2Login runs the device-authorization flow: the operator is shown a
// code to enter on the provider's page, in any browser, while titm waits
// for the provider to say the login is done. Only the refresh token goes to
// the standard output, so that it can be sent straight into a file; what to
// do is said on the standard error.
func (c *cli) oauth2Login(ctx context.Context, o *mail.OAuth2Config) error {
	oc := o.Endpoint()
	ctx = mail.HTTPContext(ctx)
	da, err := oc.DeviceAuth(ctx)
	if err != nil {
		return fmt.Errorf("asking %s for a device code: %w", o.DeviceAuthURL, err)
	}
	fmt.Fprintf(c.errOut, "Open %s in a browser, log in as the referee's mailbox and enter the code\n\n    %s\n\n", da.VerificationURI, da.UserCode)
	if da.VerificationURIComplete != "" {
		fmt.Fprintf(c.errOut, "(or open %s, which holds the code)\n", da.VerificationURIComplete)
	}
	if !da.Expiry.IsZero() {
		fmt.Fprintf(c.errOut, "The code is good for %s. Waiting for the login...\n", time.Until(da.Expiry).Round(time.Second))
	}
	tok, err := oc.DeviceAccessToken(ctx, da)
	if err != nil {
		return fmt.Errorf("waiting for the login at %s: %w", o.TokenURL, err)
	}
	if tok.RefreshToken == "" {
		return errors.New("the provider gave an access token but no refresh token, which titm needs to renew it; Microsoft 365 gives one only with the scope offline_access in oauth2.scopes")
	}
	where := "in the file named by oauth2.refresh_token_file, readable by titm alone, or in the environment variable named by oauth2.refresh_token_env"
	if f := o.RefreshTokenFile; f != "" {
		where = fmt.Sprintf("in %s (oauth2.refresh_token_file), readable by titm alone, as with\n\n    titm oauth2 login --config FILE > %s\n", f, f)
	}
	fmt.Fprintf(c.errOut, "Logged in. The refresh token is on the standard output: store it %s\n", where)
	fmt.Fprintln(c.errOut, "Anyone holding it can read and send the referee's mail: keep it secret.")
	fmt.Fprintln(c.out, tok.RefreshToken)
	return nil
}
