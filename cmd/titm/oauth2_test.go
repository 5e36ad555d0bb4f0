package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOAuth2Login runs titm oauth2 login against a provider whose device
// and token endpoints follow RFC 8628: the refresh token alone goes to the
// standard output, the code to enter and where to store the token to the
// standard error.
func TestOAuth2Login(t *testing.T) {
	tests := []struct {
		name string
		// answer is the token endpoint's answer to the device code.
		answer   string
		code     int
		wantOut  string
		wantErrs []string
	}{
		{
			name:     "refresh token",
			answer:   `{"access_token":"zqAccess","token_type":"Bearer","expires_in":3600,"refresh_token":"zqRefresh-1"}`,
			wantOut:  "zqRefresh-1\n",
			wantErrs: []string{"enter the code", "WDJB-MJHT", "store it in", "refresh_token_file"},
		},
		{
			name:     "no refresh token",
			answer:   `{"access_token":"zqAccess","token_type":"Bearer","expires_in":3600}`,
			wantErrs: []string{"no refresh token", "offline_access"},
		},
		{
			name:     "login refused",
			answer:   `{"error":"access_denied"}`,
			code:     http.StatusBadRequest,
			wantErrs: []string{"waiting for the login", "access_denied"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/device", func(w http.ResponseWriter, r *http.Request) {
				if r.FormValue("client_id") != "titm-test" || r.FormValue("scope") != "mail offline_access" {
					http.Error(w, `{"error":"invalid_client"}`, http.StatusBadRequest)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"device_code":"dev-1","user_code":"WDJB-MJHT","verification_uri":"https://example.org/device","expires_in":600,"interval":1}`)
			})
			mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
				if r.FormValue("grant_type") != "urn:ietf:params:oauth:grant-type:device_code" || r.FormValue("device_code") != "dev-1" {
					http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				if tt.code != 0 {
					w.WriteHeader(tt.code)
				}
				io.WriteString(w, tt.answer)
			})
			srv := httptest.NewServer(mux)
			defer srv.Close()

			dir := t.TempDir()
			config := filepath.Join(dir, "titm.toml")
			tokenFile := filepath.Join(dir, "refresh_token") // not there yet
			text := fmt.Sprintf(`[referee]
address = "referee@example.org"
[imap]
address = "imap.example.org:993"
security = "tls"
username = "referee@example.org"
auth = "oauth2"
[smtp]
address = "smtp.example.org:587"
username = "referee@example.org"
auth = "oauth2"
[oauth2]
token_url = "%s/token"
device_auth_url = "%s/device"
client_id = "titm-test"
refresh_token_file = %q
scopes = ["mail", "offline_access"]
`, srv.URL, srv.URL, tokenFile)
			if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runT(t, "oauth2", "login", "--config", config)
			if wantCode := map[bool]int{true: exitOK, false: exitProblems}[tt.wantOut != ""]; code != wantCode {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, wantCode, errOut)
			}
			if out != tt.wantOut {
				t.Errorf("stdout %q, want %q", out, tt.wantOut)
			}
			for _, w := range tt.wantErrs {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if strings.Contains(errOut, "zqRefresh") || strings.Contains(errOut, "zqAccess") {
				t.Errorf("a token shows on the standard error:\n%s", errOut)
			}
		})
	}
}

// TestOAuth2LoginNeedsDeviceEndpoint checks that the configuration is
// checked first, naming the key that is missing.
func TestOAuth2LoginNeedsDeviceEndpoint(t *testing.T) {
	config := filepath.Join(t.TempDir(), "titm.toml")
	text := `[referee]
address = "referee@example.org"
[imap]
address = "imap.example.org:993"
username = "referee@example.org"
auth = "oauth2"
[smtp]
address = "smtp.example.org:587"
[oauth2]
token_url = "https://example.org/token"
client_id = "titm-test"
scopes = ["mail"]
`
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runT(t, "oauth2", "login", "--config", config)
	if code != exitProblems || !strings.Contains(errOut, "oauth2.device_auth_url: required by titm oauth2 login") {
		t.Errorf("exit code %d, stderr:\n%s", code, errOut)
	}
}
