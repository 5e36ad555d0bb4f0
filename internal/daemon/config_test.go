package daemon

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"titm/adjudicator"
	"titm/mail"
)

// The secrets of the test files. No error text may hold any of them.
const (
	imapSecret  = "zqImapPass-0451"
	smtpSecret  = "zqSmtpPass-0452"
	tokenSecret = "zqTokenValue-0453"
	shortToken  = "zqShortTok1"
	userSecret  = "zqUserPass-0454"
	// refreshSecret is the refresh token of [oauth2], as mail's tests have it.
	refreshSecret = "zqRefresh-0455"
)

// testEnv is the environment of the tests.
func testEnv(name string) string {
	return map[string]string{
		"TEST_IMAP_PASSWORD": imapSecret,
		"TEST_SMTP_PASSWORD": smtpSecret,
		"TEST_TOKEN":         tokenSecret,
		"TEST_SHORT_TOKEN":   shortToken,
	}[name]
}

// noEnv fails the test if the configuration reads the environment.
func noEnv(t *testing.T) func(string) string {
	return func(name string) string {
		t.Errorf("getenv(%q) called; the file names no variable", name)
		return ""
	}
}

// lines writes a file one line an argument, so that a case's line numbers
// can be counted.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// minimal is the shortest valid file: required keys only, password from the
// environment.
var minimal = []string{
	`[referee]`,                           // 1
	`address = "referee@example.org"`,     // 2
	`[imap]`,                              // 3
	`address = "mail.example.org:143"`,    // 4
	`username = "referee"`,                // 5
	`password_env = "TEST_IMAP_PASSWORD"`, // 6
	`[smtp]`,                              // 7
	`address = "mail.example.org:25"`,     // 8: a relay taking mail without a login
}

// with returns minimal with more lines after line n.
func with(n int, more ...string) string {
	ls := append([]string{}, minimal[:n]...)
	ls = append(ls, more...)
	return lines(append(ls, minimal[n:]...)...)
}

// goodFiles are files without a mistake, each with the Config it gives.
var goodFiles = []struct {
	name string
	file string // the file to read, or
	text string // the text itself
	// env is the environment; nil for a file that names no variable,
	// which then fails the test if it reads the environment.
	env  func(string) string
	want *Config
}{
	{
		name: "config.example.toml",
		file: "../../config.example.toml",
		want: &Config{
			Store: StoreConfig{Path: "titm.db", ControlSocket: "titm.db.sock"},
			Config: mail.Config{
				Referee: mail.RefereeConfig{
					Address:         "referee@demo.test",
					Name:            "titm referee",
					MaxMessageBytes: 262144,
					Deadline:        72 * time.Hour,
					Reminder:        12 * time.Hour,
					MaxExtensions:   2,
					MaxExtension:    72 * time.Hour,
					Scenario:        "campaign",
					MapPicture:      true,
					Language:        "en",
					Languages:       map[string]string{},
				},
				IMAP: mail.IMAPConfig{
					Address:         "127.0.0.1:1143",
					Security:        "none",
					Username:        "referee@demo.test",
					Auth:            "password",
					Password:        "referee",
					Folder:          "INBOX",
					ProcessedFolder: "processed",
					PollInterval:    time.Minute,
					IDLE:            true,
				},
				SMTP: mail.SMTPConfig{
					Address:  "127.0.0.1:1025",
					Security: "none",
					Auth:     "password",
					RetryMin: time.Minute,
					RetryMax: time.Hour,
					GiveUp:   72 * time.Hour,
				},
			},
			Embedded: EmbeddedConfig{
				Enabled:     true,
				IMAPAddress: "127.0.0.1:1143",
				SMTPAddress: "127.0.0.1:1025",
				Users: map[string]string{
					"referee@demo.test": "referee",
					"german@demo.test":  "demo",
					"allied@demo.test":  "demo",
				},
				Path: "titm.db.mail",
			},
			Log: LogConfig{Level: "info", Format: "text"},
		},
	},
	{
		name: "defaults",
		text: lines(minimal...),
		env:  testEnv,
		want: &Config{
			Store: StoreConfig{Path: "titm.db", ControlSocket: "titm.db.sock"},
			Config: mail.Config{
				Referee: mail.RefereeConfig{
					Address:         "referee@example.org",
					Name:            "titm referee",
					MaxMessageBytes: 262144,
					Deadline:        72 * time.Hour,
					Reminder:        12 * time.Hour,
					MaxExtensions:   2,
					MaxExtension:    72 * time.Hour,
					Scenario:        "campaign",
					MapPicture:      true,
					Language:        "en",
				},
				IMAP: mail.IMAPConfig{
					Address:         "mail.example.org:143",
					Security:        "starttls",
					Username:        "referee",
					Auth:            "password",
					Password:        imapSecret,
					Folder:          "INBOX",
					ProcessedFolder: "processed",
					PollInterval:    time.Minute,
					IDLE:            true,
				},
				SMTP: mail.SMTPConfig{
					Address:  "mail.example.org:25",
					Security: "starttls",
					Auth:     "password",
					RetryMin: time.Minute,
					RetryMax: time.Hour,
					GiveUp:   72 * time.Hour,
				},
			},
			Embedded: EmbeddedConfig{
				IMAPAddress: "127.0.0.1:1143",
				SMTPAddress: "127.0.0.1:1025",
				Users:       map[string]string{},
				Path:        "titm.db.mail",
			},
			Log: LogConfig{Level: "info", Format: "text"},
		},
	},
	{
		// Values other than the defaults.
		name: "values",
		text: lines(
			`[store]`,
			`path = "/var/lib/titm/games.db"`,
			`[referee]`,
			`address = "referee@example.org"`,
			`name = "Bulge referee"`,
			`director = "td@example.org"`,
			`director_token_env = "TEST_TOKEN"`,
			`max_message_bytes = 1024`,
			`deadline = "1h30m"`,
			`reminder = "0s"`,
			`max_extensions = 0`,
			`max_extension = "336h"`,
			`scenario = "intro"`,
			`require_dkim = true`,
			`map_picture = false`,
			`language = "ja"`,
			`languages = { "Hanako@Example.jp" = "ja", "tom@example.org" = "en" }`,
			`[imap]`,
			`address = "[::1]:993"`,
			`security = "none"`,
			`username = "referee"`,
			`password = "`+imapSecret+`"`,
			`folder = "Orders"`,
			`processed_folder = "INBOX"`,
			`poll_interval = "5s"`,
			`idle = false`,
			`insecure_skip_verify = true`,
			`[smtp]`,
			`address = "localhost:465"`,
			`security = "tls"`,
			`username = "referee"`,
			`password_env = "TEST_SMTP_PASSWORD"`,
			`retry_min = "1s"`,
			`retry_max = "1s"`,
			`give_up = "1s"`,
			`[embedded]`,
			`smtp_address = "127.0.0.2:2525"`,
			`path = "/var/lib/titm/mail/embedded.db"`,
			`users = { "a@example.org" = "`+userSecret+`" }`,
			`[log]`,
			`level = "debug"`,
			`format = "json"`,
		),
		env: testEnv,
		want: &Config{
			Store: StoreConfig{Path: "/var/lib/titm/games.db", ControlSocket: "/var/lib/titm/games.db.sock"},
			Config: mail.Config{
				Referee: mail.RefereeConfig{
					Address:         "referee@example.org",
					Name:            "Bulge referee",
					Director:        "td@example.org",
					DirectorToken:   tokenSecret,
					MaxMessageBytes: 1024,
					Deadline:        90 * time.Minute,
					MaxExtension:    336 * time.Hour,
					Scenario:        "intro",
					RequireDKIM:     true,
					Language:        "ja",
					Languages:       map[string]string{"hanako@example.jp": "ja", "tom@example.org": "en"},
				},
				IMAP: mail.IMAPConfig{
					Address:            "[::1]:993",
					Security:           "none",
					Username:           "referee",
					Auth:               "password",
					Password:           imapSecret,
					Folder:             "Orders",
					ProcessedFolder:    "INBOX",
					PollInterval:       5 * time.Second,
					InsecureSkipVerify: true,
				},
				SMTP: mail.SMTPConfig{
					Address:  "localhost:465",
					Security: "tls",
					Username: "referee",
					Auth:     "password",
					Password: smtpSecret,
					RetryMin: time.Second,
					RetryMax: time.Second,
					GiveUp:   time.Second,
				},
			},
			Embedded: EmbeddedConfig{
				IMAPAddress: "127.0.0.1:1143",
				SMTPAddress: "127.0.0.2:2525",
				Users:       map[string]string{"a@example.org": userSecret},
				Path:        "/var/lib/titm/mail/embedded.db",
			},
			Log: LogConfig{Level: "debug", Format: "json"},
		},
	},
}

func TestConfigGood(t *testing.T) {
	for _, tt := range goodFiles {
		t.Run(tt.name, func(t *testing.T) {
			getenv := tt.env
			if getenv == nil {
				getenv = noEnv(t)
			}
			var cfg *Config
			var err error
			if tt.file != "" {
				cfg, err = LoadConfig(tt.file, getenv)
			} else {
				cfg, err = ParseConfig("config.toml", []byte(tt.text), getenv)
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(cfg, tt.want) {
				t.Errorf("got\n%+v\nwant\n%+v", *cfg, *tt.want)
			}
		})
	}
}

// TestConfigExampleDocumentsEveryKey checks that config.example.toml shows
// every key titm knows, set or commented out.
func TestConfigExampleDocumentsEveryKey(t *testing.T) {
	data, err := os.ReadFile("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, tb := range newLoader(toml.MetaData{}).tables() {
		// A table used only by some setups, as [oauth2], may be shown
		// commented out.
		if !strings.Contains(text, "\n["+tb.name+"]\n") && !strings.Contains(text, "\n# ["+tb.name+"]\n") {
			t.Errorf("no [%s] table", tb.name)
		}
		for _, s := range tb.settings {
			k := s.key
			switch k {
			case "users":
				k = "[embedded.users]"
			case "languages":
				k = "[referee.languages]"
			default:
				k = "\n" + k + " = "
			}
			if !strings.Contains(text, k) && !strings.Contains(text, "\n# "+strings.TrimPrefix(k, "\n")) {
				t.Errorf("%s.%s is not in the example", tb.name, s.key)
			}
		}
	}
}

// mistakes are files with mistakes, each with every line of its error, in
// order.
var mistakes = []struct {
	name string
	text string
	want []string // every line of the error, in order
}{
	{
		name: "unknown key with suggestion",
		text: with(5, `pasword = "x"`),
		want: []string{`config.toml:6: imap.pasword: unknown key; did you mean imap.password?`},
	},
	{
		name: "unknown key in the wrong table",
		text: with(6, `retry_min = "1m"`),
		want: []string{`config.toml:7: imap.retry_min: unknown key; did you mean smtp.retry_min?`},
	},
	{
		name: "unknown language",
		text: with(2, `language = "fr"`),
		want: []string{`config.toml:3: referee.language: "fr" is not one of en, ja`},
	},
	{
		name: "a player's language",
		text: with(2, `languages = { "hanako@example.jp" = "jp", "not an address" = "ja" }`),
		want: []string{
			`config.toml:3: referee.languages."hanako@example.jp": "jp" is not one of en, ja`,
			`config.toml:3: referee.languages."not an address": "not an address" is not a mail address; expected one such as "referee@example.org"`,
		},
	},
	{
		name: "a player's address given twice",
		text: with(2, `languages = { "Hanako@example.jp" = "ja", "hanako@example.jp" = "en" }`),
		want: []string{
			`config.toml:3: referee.languages."hanako@example.jp": hanako@example.jp is Hanako@example.jp again, which differs only in case; give each address once`,
		},
	},
	{
		name: "unknown key far from any",
		text: with(6, `colour = "red"`),
		want: []string{`config.toml:7: imap.colour: unknown key`},
	},
	{
		name: "unknown table reported alone",
		text: lines(append(minimal, `[imapp]`, `pasword = "x"`, `folder = "INBOX"`)...),
		want: []string{`config.toml:9: imapp: unknown table; did you mean imap?`},
	},
	{
		name: "keys are case-sensitive",
		text: with(5, `Password = "x"`),
		want: []string{`config.toml:6: imap.Password: unknown key; did you mean imap.password?`},
	},
	{
		name: "table of the first example file",
		text: lines(append(minimal, `[games]`, `scenario = "campaign"`, `deadline = "72h"`)...),
		want: []string{
			`config.toml:10: games.scenario: unknown key; did you mean referee.scenario?`,
			`config.toml:11: games.deadline: unknown key; did you mean referee.deadline?`,
		},
	},
	{
		name: "empty unknown table",
		text: lines(append(minimal, `[extra]`)...),
		want: []string{`config.toml:9: extra: unknown table`},
	},
	{
		name: "bad duration",
		text: with(2, `deadline = "3 days"`),
		want: []string{`config.toml:3: referee.deadline: "3 days" is not a duration; write it as 72h or 90m`},
	},
	{
		name: "duration as a number",
		text: with(2, `deadline = 72`),
		want: []string{`config.toml:3: referee.deadline: 72 is not a duration; write it in quotes with its unit, as "72h" or "90m"`},
	},
	{
		name: "bad security",
		text: with(6, `security = "startls"`),
		want: []string{`config.toml:7: imap.security: "startls" is not one of starttls, tls, none`},
	},
	{
		name: "none on a remote host",
		text: with(8, `security = "none"`),
		want: []string{`config.toml:9: smtp.security: "none" sends the password unencrypted, so it is allowed only for a server on this machine (127.0.0.1, ::1 or localhost), not mail.example.org`},
	},
	{
		name: "missing required key",
		text: lines(
			`[referee]`,
			`address = "referee@example.org"`,
			`[imap]`,
			`password_env = "TEST_IMAP_PASSWORD"`,
			`[smtp]`,
			`address = "mail.example.org:25"`,
		),
		want: []string{
			`config.toml:3: imap.address: required: the IMAP server as host:port, as "mail.example.org:143"`,
			`config.toml:3: imap.username: required: the referee's login name on the IMAP server`,
		},
	},
	{
		name: "missing key of a table given by dotted keys",
		text: lines(
			`imap.address = "mail.example.org:143"`,
			`imap.username = "referee"`,
			`referee.address = "referee@example.org"`,
			`smtp.address = "mail.example.org:25"`,
		),
		want: []string{`config.toml:1: imap.password: required; give it here or name an environment variable with imap.password_env`},
	},
	{
		name: "empty file",
		text: "",
		want: []string{
			`config.toml: referee.address: required: a mail address, as "referee@example.org"`,
			`config.toml: imap.address: required: the IMAP server as host:port, as "mail.example.org:143"`,
			`config.toml: imap.username: required: the referee's login name on the IMAP server`,
			`config.toml: imap.password: required; give it here or name an environment variable with imap.password_env`,
			`config.toml: smtp.address: required: the SMTP server as host:port, as "mail.example.org:587"`,
		},
	},
	{
		name: "password and password_env",
		text: with(6, `password = "`+imapSecret+`"`),
		want: []string{`config.toml:6: imap.password_env: imap.password is set too; give the secret in one place only`},
	},
	{
		name: "variable unset",
		text: with(8, `username = "referee"`, `password_env = "TEST_UNSET"`),
		want: []string{`config.toml:10: smtp.password_env: environment variable TEST_UNSET is not set or is empty`},
	},
	{
		name: "variable named empty",
		text: with(8, `username = "referee"`, `password_env = ""`),
		want: []string{`config.toml:10: smtp.password_env: is empty; expected the name of an environment variable, as "TITM_IMAP_PASSWORD"`},
	},
	{
		name: "smtp password without username",
		text: with(8, `password_env = "TEST_SMTP_PASSWORD"`),
		want: []string{`config.toml:7: smtp.username: required when a password is set: the referee's login name on the SMTP server`},
	},
	{
		name: "smtp username without password",
		text: with(8, `username = "referee"`),
		want: []string{`config.toml:7: smtp.password: required when smtp.username is set; give it here or name an environment variable with smtp.password_env`},
	},
	{
		name: "out of range",
		text: with(2,
			`max_message_bytes = 100`,
			`max_extensions = 25`,
			`max_extension = "400h"`,
			`deadline = "30m"`,
		) + lines(`[embedded]`, `imap_address = "127.0.0.1:0"`),
		want: []string{
			`config.toml:3: referee.max_message_bytes: 100 is out of range; expected 1024 to 52428800`,
			`config.toml:4: referee.max_extensions: 25 is out of range; expected 0 to 20`,
			`config.toml:5: referee.max_extension: 400h is out of range; expected 1h to 336h`,
			`config.toml:6: referee.deadline: 30m is too short; expected at least 1h`,
			`config.toml:14: embedded.imap_address: "127.0.0.1:0": the port must be a number from 1 to 65535`,
		},
	},
	{
		name: "poll interval out of range",
		text: with(6, `poll_interval = "2s"`),
		want: []string{`config.toml:7: imap.poll_interval: 2s is out of range; expected 5s to 1h`},
	},
	{
		name: "negative duration",
		text: with(2, `reminder = "-1h"`),
		want: []string{`config.toml:3: referee.reminder: -1h is negative`},
	},
	{
		name: "reminder not before deadline",
		text: with(2, `deadline = "12h"`, `reminder = "12h"`),
		want: []string{`config.toml:4: referee.reminder: 12h is not shorter than referee.deadline (12h); the reminder must come before the deadline (0 for none)`},
	},
	{
		name: "director without token",
		text: with(2, `director = "td@example.org"`),
		want: []string{`config.toml:1: referee.director_token: required when referee.director is set; give it here or name an environment variable with referee.director_token_env`},
	},
	{
		name: "token without director",
		text: with(2, `director_token_env = "TEST_TOKEN"`),
		want: []string{`config.toml:3: referee.director_token_env: set, but referee.director is not; give the director's address too, or remove the token`},
	},
	{
		name: "show_addresses without a listener",
		text: lines(append(minimal, `[web]`, `show_addresses = true`)...),
		want: []string{`config.toml:10: web.show_addresses: set, but web.listen is not; the journal that would show the addresses is served on web.listen`},
	},
	{
		name: "short token",
		text: with(2, `director = "td@example.org"`, `director_token = "`+shortToken+`"`),
		want: []string{`config.toml:4: referee.director_token: the token is 11 characters long; a director's token must have at least 16`},
	},
	{
		name: "processed folder is the folder",
		text: with(6, `folder = "Orders"`, `processed_folder = "Orders"`),
		want: []string{`config.toml:8: imap.processed_folder: "Orders" is also imap.folder; read mails must go to another folder`},
	},
	{
		name: "retry_max below retry_min",
		text: with(8, `retry_min = "10m"`, `retry_max = "5m"`, `give_up = "1m"`),
		want: []string{
			`config.toml:10: smtp.retry_max: 5m is shorter than smtp.retry_min (10m); it caps the wait, so it must be at least that`,
			`config.toml:11: smtp.give_up: 1m is shorter than smtp.retry_min (10m); a mail would be marked failed before its first retry`,
		},
	},
	{
		name: "embedded on a non-loopback address",
		text: lines(append(minimal, `[embedded]`, `imap_address = "0.0.0.0:1143"`, `smtp_address = "mail.example.org:25"`)...),
		want: []string{
			`config.toml:10: embedded.imap_address: "0.0.0.0:1143" is not a loopback address; the embedded servers take passwords unencrypted, so they listen only on 127.0.0.1, ::1 or localhost`,
			`config.toml:11: embedded.smtp_address: "mail.example.org:25" is not a loopback address; the embedded servers take passwords unencrypted, so they listen only on 127.0.0.1, ::1 or localhost`,
		},
	},
	{
		name: "embedded mail in the store",
		text: lines(append(minimal, `[embedded]`, `enabled = true`, `path = "./titm.db"`, `[embedded.users]`, `"referee@example.org" = "x"`)...),
		want: []string{`config.toml:11: embedded.path: "./titm.db" is the store itself (store.path); the embedded servers keep their mail in a file of their own, by default the store's path with ".mail"`},
	},
	{
		name: "embedded mail path empty",
		text: lines(append(minimal, `[embedded]`, `path = " "`)...),
		want: []string{`config.toml:10: embedded.path: is empty; give a value, or remove the key`},
	},
	{
		name: "embedded without the referee's mailbox",
		text: lines(append(minimal, `[embedded]`, `enabled = true`, `[embedded.users]`, `"player@example.org" = "x"`)...),
		want: []string{`config.toml:11: embedded.users: must include the referee's mailbox referee@example.org (referee.address), as the embedded server is enabled`},
	},
	{
		name: "embedded without the imap login",
		text: lines(
			`[referee]`,
			`address = "referee@example.org"`,
			`[imap]`,
			`address = "127.0.0.1:1143"`,
			`security = "none"`,
			`username = "reader@example.org"`,
			`password = "`+imapSecret+`"`,
			`[smtp]`,
			`address = "127.0.0.1:1025"`,
			`security = "none"`,
			`[embedded]`,
			`enabled = true`,
			`users = { "referee@example.org" = "`+userSecret+`" }`,
		),
		want: []string{`config.toml:13: embedded.users: must include reader@example.org (imap.username), as imap.address is the embedded IMAP server`},
	},
	{
		name: "embedded password not the imap password",
		text: lines(
			`[referee]`,
			`address = "referee@example.org"`,
			`[imap]`,
			`address = "127.0.0.1:1143"`,
			`security = "none"`,
			`username = "Referee@example.org"`,
			`password = "`+imapSecret+`"`,
			`[smtp]`,
			`address = "127.0.0.1:1025"`,
			`security = "none"`,
			`[embedded]`,
			`enabled = true`,
			`users = { "referee@example.org" = "`+userSecret+`" }`,
		),
		want: []string{`config.toml:7: imap.password: is not the password of referee@example.org in [embedded.users], so serve could not log in to the embedded IMAP server`},
	},
	{
		name: "bad embedded users",
		text: lines(append(minimal, `[embedded.users]`, `"not an address" = "x"`, `"b@example.org" = ""`, `"c@example.org" = 5`)...),
		want: []string{
			`config.toml:10: embedded.users."not an address": "not an address" is not a mail address; expected one such as "referee@example.org"`,
			`config.toml:11: embedded.users."b@example.org": the password is empty`,
			`config.toml:12: embedded.users."c@example.org": expected the mailbox's password as a string in quotes, not a number`,
		},
	},
	{
		name: "bad addresses",
		text: lines(
			`[referee]`,
			`address = "Referee <referee@example.org>"`,
			`director = "td at example.org"`,
			`director_token_env = "TEST_TOKEN"`,
			`[imap]`,
			`address = "mail.example.org"`,
			`username = "referee"`,
			`password_env = "TEST_IMAP_PASSWORD"`,
			`[smtp]`,
			`address = "mail.example.org:smtp"`,
		),
		want: []string{
			`config.toml:2: referee.address: "Referee <referee@example.org>" is not a bare mail address; write only the address, as "referee@example.org"`,
			`config.toml:3: referee.director: "td at example.org" is not a mail address; expected one such as "referee@example.org"`,
			`config.toml:6: imap.address: "mail.example.org" is not host:port, as "mail.example.org:993"`,
			`config.toml:10: smtp.address: "mail.example.org:smtp": the port must be a number from 1 to 65535`,
		},
	},
	{
		name: "wrong types",
		text: with(6, `idle = "true"`, `folder = 3`) + lines(`[log]`, `level = "verbose"`, `format = ["json"]`),
		want: []string{
			`config.toml:7: imap.idle: expected true or false, not a string`,
			`config.toml:8: imap.folder: expected a string in quotes, not a number`,
			`config.toml:12: log.level: "verbose" is not one of debug, info, warn, error`,
			`config.toml:13: log.format: expected a string in quotes, not an array`,
		},
	},
	{
		name: "table of the wrong type",
		text: lines(append([]string{`log = "debug"`}, minimal...)...),
		want: []string{`config.toml:1: log: expected a table, written [log] followed by its keys, not a string`},
	},
	{
		name: "empty values",
		text: with(0, `[store]`, `path = ""`, `control_socket = "`+strings.Repeat("x", 104)+`"`),
		want: []string{
			`config.toml:2: store.path: is empty; give a value, or remove the key`,
			`config.toml:3: store.control_socket: "` + strings.Repeat("x", 104) + `" is 104 bytes long; a Unix socket path may have at most 103 (set a shorter one)`,
		},
	},
	{
		name: "syntax error",
		text: with(2, `deadline = 72h`),
		want: []string{`config.toml:3: expected a top-level item to end with a newline, comment, or EOF, but got 'h' instead`},
	},
	{
		name: "syntax error in a secret",
		text: with(5, `password = `+imapSecret),
		want: []string{`config.toml:6: the line holds a secret and cannot be read as TOML; check its quotes (the text is not shown)`},
	},
	{
		name: "ca_file missing",
		text: with(6, `ca_file = "/nonexistent/ca.pem"`),
		want: []string{`config.toml:7: imap.ca_file: cannot read the CA certificates: open /nonexistent/ca.pem: no such file or directory`},
	},
	{
		name: "ca_file without a certificate",
		text: with(8, `ca_file = "../../go.mod"`),
		want: []string{`config.toml:9: smtp.ca_file: ../../go.mod holds no PEM certificate (a block beginning "-----BEGIN CERTIFICATE-----")`},
	},
	{
		name: "ca_file with a key",
		text: with(8, `ca_file = "../../testdata/config/ca-with-key.pem"`),
		want: []string{`config.toml:9: smtp.ca_file: ../../testdata/config/ca-with-key.pem holds a PEM block of type "PRIVATE KEY"; it must hold CA certificates only`},
	},
	{
		name: "ca_file without TLS",
		text: lines(`[referee]`, `address = "referee@example.org"`, `[imap]`, `address = "127.0.0.1:143"`, `security = "none"`,
			`ca_file = "/nonexistent/ca.pem"`, `username = "referee"`, `password_env = "TEST_IMAP_PASSWORD"`, `[smtp]`, `address = "mail.example.org:25"`),
		want: []string{`config.toml:6: imap.ca_file: set, but imap.security is "none", so no certificate is checked; use "tls" or "starttls", or remove ca_file`},
	},
	{
		name: "several mistakes",
		text: lines(
			`[referee]`,
			`address = "referee@example.org"`,
			`deadline = "3 days"`,
			`reminder = "80h"`,
			`[imap]`,
			`address = "mail.example.org:143"`,
			`security = "startls"`,
			`username = "referee"`,
			`pasword = "x"`,
			`[smtp]`,
			`address = "mail.example.org:587"`,
			`security = "none"`,
		),
		want: []string{
			`config.toml:3: referee.deadline: "3 days" is not a duration; write it as 72h or 90m`,
			`config.toml:4: referee.reminder: 80h is not shorter than referee.deadline (72h); the reminder must come before the deadline (0 for none)`,
			`config.toml:5: imap.password: required; give it here or name an environment variable with imap.password_env`,
			`config.toml:7: imap.security: "startls" is not one of starttls, tls, none`,
			`config.toml:9: imap.pasword: unknown key; did you mean imap.password?`,
			`config.toml:10: smtp.username: required for mail.example.org:587: port 587 is mail submission, where the server takes mail only from a user who logs in (AUTH); give the referee's login name, and smtp.password or smtp.password_env`,
			`config.toml:12: smtp.security: "none" sends the password unencrypted, so it is allowed only for a server on this machine (127.0.0.1, ::1 or localhost), not mail.example.org`,
		},
	},
	{
		name: "oauth2 without its table",
		text: with(5, `auth = "oauth2"`),
		want: []string{
			`config.toml:6: imap.auth: "oauth2" needs an [oauth2] table with the provider's token_url, client_id, scopes and the refresh token`,
			`config.toml:7: imap.password_env: set, but imap.auth is "oauth2", which logs in with an access token; remove the password`,
		},
	},
	{
		name: "oauth2 table incomplete",
		text: lines(
			`[referee]`,                       // 1
			`address = "referee@example.org"`, // 2
			`[imap]`,                          // 3
			`address = "mail.example.org:993"`,
			`username = "referee"`,
			`auth = "oauth2"`,
			`[smtp]`, // 7
			`address = "mail.example.org:587"`,
			`auth = "oauth2"`,
			`[oauth2]`, // 10
			`token_url = "http://login.example.org/token"`,
			`refresh_token_env = "TEST_TOKEN"`,
			`refresh_token_file = "/nonexistent/refresh_token"`,
			`scopes = ["mail", "a b"]`,
			`mechanism = "plain"`,
		),
		want: []string{
			`config.toml:3: imap.security: the default "starttls" does not fit the address mail.example.org:993: port 993 is IMAP over TLS, where the connection is encrypted from the start: set security = "tls"`,
			`config.toml:7: smtp.username: required when smtp.auth is "oauth2": the referee's login name on the SMTP server, usually its address`,
			`config.toml:10: oauth2.client_id: required: the identifier of the OAuth2 client registered with the provider`,
			`config.toml:11: oauth2.token_url: "http://login.example.org/token" is not https; plain http is allowed only for a server on this machine, as the tokens would cross the network unencrypted`,
			`config.toml:13: oauth2.refresh_token_file: more than one of oauth2.refresh_token, oauth2.refresh_token_env and oauth2.refresh_token_file is set; give the secret in one place only`,
			`config.toml:14: oauth2.scopes: item 2: "a b" is empty or holds a space; write each item as a string of its own`,
			`config.toml:15: oauth2.mechanism: "plain" is not one of xoauth2, oauthbearer`,
		},
	},
	{
		name: "oauth2 secret file missing",
		text: lines(append(minimal,
			`[oauth2]`, // 9
			`token_url = "https://login.example.org/token"`,
			`client_id = "titm"`,
			`client_secret_file = "/nonexistent/client_secret"`,
			`scopes = ["mail"]`,
		)...),
		want: []string{
			`config.toml:9: oauth2.refresh_token_file: required (or refresh_token_env): the refresh token titm oauth2 login prints`,
			`config.toml:12: oauth2.client_secret_file: cannot read the secret: open /nonexistent/client_secret: no such file or directory`,
		},
	},
}

func TestConfigMistakes(t *testing.T) {
	for _, tt := range mistakes {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig("config.toml", []byte(tt.text), testEnv)
			if err == nil {
				t.Fatalf("no error; config %+v", *cfg)
			}
			if cfg != nil {
				t.Errorf("config %+v returned with the error", *cfg)
			}
			var ces ConfigErrors
			if !errors.As(err, &ces) {
				t.Fatalf("error %T %q is not a ConfigErrors", err, err)
			}
			if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(tt.want, "\n"))
			}
			if len(ces) != len(tt.want) {
				t.Errorf("%d ConfigErrors, want %d", len(ces), len(tt.want))
			}
			checkNoSecret(t, err.Error())
		})
	}
}

// TestConfigFixtures checks the files of testdata/config against the
// errors they list in their first comment lines, each "# want: ERROR".
func TestConfigFixtures(t *testing.T) {
	files, err := filepath.Glob("../../testdata/config/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, l := range strings.Split(string(data), "\n") {
				if e, ok := strings.CutPrefix(l, "# want: "); ok {
					want = append(want, strings.ReplaceAll(e, "FILE", f))
				}
			}
			_, err = LoadConfig(f, testEnv)
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, want) {
				t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
			}
			checkNoSecret(t, err.Error())
		})
	}
}

// TestConfigSecretsNotShown puts every secret into files that are wrong in
// every way one can be wrong about or around a secret, and checks that no
// message shows one.
func TestConfigSecretsNotShown(t *testing.T) {
	texts := []string{
		// Wrong key names holding secrets.
		with(5, `pasword = "`+imapSecret+`"`, `password = "`+imapSecret+`"`),
		with(8, `username = "u"`, `Password = "`+smtpSecret+`"`),
		// Both forms; secrets that do not match.
		with(5, `password = "`+imapSecret+`"`),
		lines(
			`[referee]`,
			`address = "referee@example.org"`,
			`director_token = "`+shortToken+`"`,
			`[imap]`,
			`address = "127.0.0.1:1143"`,
			`security = "none"`,
			`username = "referee@example.org"`,
			`password_env = "TEST_IMAP_PASSWORD"`,
			`[smtp]`,
			`address = "127.0.0.1:1025"`,
			`security = "none"`,
			`password = "`+smtpSecret+`"`,
			`[embedded]`,
			`enabled = true`,
			`imap_address = "10.0.0.1:1143"`,
			`[embedded.users]`,
			`"referee@example.org" = "`+userSecret+`"`,
			`"not-an-address" = "`+userSecret+`"`,
		),
		// A short token read from the environment.
		with(2, `director = "td@example.org"`, `director_token_env = "TEST_SHORT_TOKEN"`),
		// Secrets of the wrong type, and broken TOML around them.
		with(8, `username = "u"`, `password = ["`+smtpSecret+`"]`),
		with(8, `username = "u"`, `password = { value = "`+smtpSecret+`" }`),
		with(5, `password = `+imapSecret),
		with(5, `password = "`+imapSecret),
		with(5, `password = '`+imapSecret+`' x`),
		with(5, `password = """`+imapSecret),
		with(2, `director_token = `+tokenSecret),
		lines(append(minimal, `[embedded.users]`, `"a@example.org" = `+userSecret)...),
		lines(append(minimal, `[embedded]`, `users = { "a@example.org" = `+userSecret+` }`)...),
		// The secrets of [oauth2].
		lines(append(minimal, `[oauth2]`, `refresh_token = `+refreshSecret)...),
		lines(append(minimal, `[oauth2]`, `client_secret = "`+refreshSecret)...),
		lines(append(minimal, `[oauth2]`, `refresh_token = "`+refreshSecret+`"`, `refresh_token_env = "TEST_TOKEN"`)...),
		lines(append(minimal, `[oauth2]`, `refresh_token = ["`+refreshSecret+`"]`)...),
	}
	for i, text := range texts {
		_, err := ParseConfig("config.toml", []byte(text), testEnv)
		if err == nil {
			t.Errorf("file %d: no error", i)
			continue
		}
		checkNoSecret(t, err.Error())
	}
}

// checkNoSecret fails the test if msg holds any secret, or a good part of
// one: each begins with "zq" and a word found nowhere else.
func checkNoSecret(t *testing.T, msg string) {
	t.Helper()
	for _, s := range []string{imapSecret, smtpSecret, tokenSecret, shortToken, userSecret, refreshSecret} {
		if strings.Contains(msg, s[:7]) {
			t.Errorf("a secret shows in:\n%s", msg)
		}
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "none.toml"), testEnv)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v, want one wrapping fs.ErrNotExist", err)
	}
	var ces ConfigErrors
	if errors.As(err, &ces) {
		t.Errorf("error %v is a ConfigErrors; the file was not read", err)
	}
	if !strings.HasPrefix(err.Error(), "reading config ") {
		t.Errorf("error %q does not say what was being done", err)
	}
}

// TestConfigNilGetenv checks that a nil getenv reads the process's
// environment.
func TestConfigNilGetenv(t *testing.T) {
	t.Setenv("TEST_IMAP_PASSWORD", "from-the-environment")
	cfg, err := ParseConfig("config.toml", []byte(lines(minimal...)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.IMAP.Password != "from-the-environment" {
		t.Errorf("imap password %q, want the environment's", cfg.IMAP.Password)
	}
}

func TestConfigErrorText(t *testing.T) {
	tests := []struct {
		e    ConfigError
		want string
	}{
		{ConfigError{File: "config.toml", Key: "imap.security", Line: 12, Msg: "bad"}, "config.toml:12: imap.security: bad"},
		{ConfigError{File: "config.toml", Key: "imap.security", Msg: "bad"}, "config.toml: imap.security: bad"},
		{ConfigError{File: "config.toml", Line: 3, Msg: "bad"}, "config.toml:3: bad"},
		{ConfigError{Key: "imap.security", Line: 3, Msg: "bad"}, "line 3: imap.security: bad"},
		{ConfigError{Msg: "bad"}, "bad"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%#v.Error() = %q, want %q", tt.e, got, tt.want)
		}
	}
	es := ConfigErrors{tests[0].e, tests[1].e}
	if got, want := es.Error(), tests[0].want+"\n"+tests[1].want; got != want {
		t.Errorf("ConfigErrors.Error() = %q, want %q", got, want)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Hour:                    "1h",
		72 * time.Hour:               "72h",
		time.Minute:                  "1m",
		90 * time.Minute:             "1h30m",
		5 * time.Second:              "5s",
		time.Hour + time.Second:      "1h0m1s",
		0:                            "0s",
		90 * time.Second:             "1m30s",
		336 * time.Hour:              "336h",
		time.Hour + 30*time.Second:   "1h0m30s",
		2*time.Hour + 5*time.Minute:  "2h5m",
		1500 * time.Millisecond:      "1.5s",
		10*time.Minute + time.Second: "10m1s",
	} {
		if got := adjudicator.FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// The settings that decode well one by one but cannot work together at a
// real provider: a submission port without a login, and a security that
// does not fit a well-known port. Each names its key.
func TestConfigIncomplete(t *testing.T) {
	file := func(imapAddr, imapSec, smtpAddr, smtpSec string, smtpLogin bool) string {
		ls := []string{`[referee]`, `address = "referee@example.org"`, `[imap]`, `address = "` + imapAddr + `"`,
			`username = "referee"`, `password_env = "TEST_IMAP_PASSWORD"`}
		if imapSec != "" {
			ls = append(ls, `security = "`+imapSec+`"`)
		}
		ls = append(ls, `[smtp]`, `address = "`+smtpAddr+`"`)
		if smtpSec != "" {
			ls = append(ls, `security = "`+smtpSec+`"`)
		}
		if smtpLogin {
			ls = append(ls, `username = "referee"`, `password_env = "TEST_SMTP_PASSWORD"`)
		}
		return lines(ls...)
	}
	cases := []struct {
		name string
		text string
		want []string // the keys at fault; none for a good file
	}{
		{"a provider's servers with a login", file("imap.gmail.com:993", "tls", "smtp.gmail.com:587", "", true), nil},
		{"submission without a login", file("imap.gmail.com:993", "tls", "smtp.gmail.com:587", "", false), []string{"smtp.username"}},
		{"submission over TLS without a login", file("imap.gmail.com:993", "tls", "smtp.gmail.com:465", "tls", false), []string{"smtp.username"}},
		{"a relay on port 25 without a login", file("mail.example.org:143", "", "mail.example.org:25", "", false), nil},
		{"a server on this machine without a login", file("127.0.0.1:143", "", "127.0.0.1:587", "", false), nil},
		{"port 993 with the default starttls", file("imap.gmail.com:993", "", "smtp.gmail.com:587", "", true), []string{"imap.security"}},
		{"port 465 with starttls", file("imap.gmail.com:993", "tls", "smtp.gmail.com:465", "starttls", true), []string{"smtp.security"}},
		{"port 143 with tls", file("mail.example.org:143", "tls", "mail.example.org:587", "", true), []string{"imap.security"}},
		{"port 587 with tls", file("mail.example.org:143", "", "mail.example.org:587", "tls", true), []string{"smtp.security"}},
		{"another port takes either", file("mail.example.org:1993", "tls", "mail.example.org:2525", "starttls", true), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("config.toml", []byte(c.text), testEnv)
			var got []string
			var ces ConfigErrors
			if errors.As(err, &ces) {
				for _, e := range ces {
					got = append(got, e.Key)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("keys at fault %q, want %q; errors:\n%v", got, c.want, err)
			}
		})
	}
}
