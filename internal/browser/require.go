package browser

import (
	"errors"
	"os"
	"testing"
)

// RequireEnv names the environment variable that turns "Chromium is
// missing or cannot start" from a skip into a test failure. CI sets it, so
// that a machine without Chromium cannot pass the browser tests by skipping
// them.
const RequireEnv = "TITM_REQUIRE_CHROMIUM"

// Require starts a headless Chromium for the test and closes it when the
// test ends (t.Cleanup). When Chromium is not installed or cannot start, it
// calls t.Skip with the reason, unless TITM_REQUIRE_CHROMIUM is set to a
// non-empty value, then t.Fatal.
func Require(t testing.TB) *Browser {
	t.Helper()
	b, err := Start(t.Context(), Options{})
	if err != nil {
		summary := "Chromium did not start"
		if errors.Is(err, ErrNotFound) {
			summary = "Chromium is not installed"
		}
		if os.Getenv(RequireEnv) != "" {
			t.Fatalf("%s (%s is set, so this fails rather than skips): %v", summary, RequireEnv, err)
		}
		t.Skipf("%s (set %s=1 to fail instead): %v", summary, RequireEnv, err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}
