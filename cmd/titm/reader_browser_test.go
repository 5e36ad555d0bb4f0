package main

import (
	"context"
	"os"
	"testing"
	"time"

	"titm/internal/browser"
)

// startReader starts headless Chromium as the journal's browser tests
// read with it: a window of 1280x900, every page asked for in language
// when it is not "" (Accept-Language), and the directory its screenshots
// go to, $TITM_SCREENSHOTS when set, else a temporary one. eval runs a
// script in the page and gives its string.
func startReader(t *testing.T, language string) (b *browser.Browser, ctx context.Context, shots string, eval func(js string) string) {
	t.Helper()
	shots = os.Getenv("TITM_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	b = browser.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	if err := b.SetViewport(ctx, 1280, 900); err != nil {
		t.Fatal(err)
	}
	if language != "" {
		if err := b.Call(ctx, "Network.enable", map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.Call(ctx, "Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": language}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	eval = func(js string) (s string) {
		t.Helper()
		if err := b.Eval(ctx, js, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	return b, ctx, shots, eval
}
