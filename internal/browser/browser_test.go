package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"titm/internal/waitfor"
)

// site serves the pages the tests browse: a page with an image and a link
// to a second page, and a page taller than any viewport.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 6))
	for x := range 8 {
		for y := range 6 {
			img.Set(x, y, color.RGBA{R: 200, A: 255})
		}
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("GET /{$}", page(`<!doctype html>
<title>One</title>
<p><img id=pic src="/pic.png" alt="a red rectangle">
<p><a id=next href="/two">to the second page</a>`))
	mux.HandleFunc("GET /two", page(`<!doctype html>
<title>Two</title>
<p>The second page.`))
	mux.HandleFunc("GET /tall", page(`<!doctype html>
<title>Tall</title>
<style>body { margin: 0 } div { height: 2000px }</style>
<div>A page taller than the viewport.</div>`))
	mux.HandleFunc("GET /pic.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(pic.Bytes())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// eval is Eval that fails the test on an error.
func eval[T any](t *testing.T, b *Browser, js string) T {
	t.Helper()
	var v T
	if err := b.Eval(t.Context(), js, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBrowse walks the pages as a user would, in one browser, since
// starting one takes the longest.
func TestBrowse(t *testing.T) {
	srv := site(t)
	b := Require(t)
	ctx := t.Context()

	if err := b.Navigate(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	if title := eval[string](t, b, "document.title"); title != "One" {
		t.Errorf("document.title = %q, want One", title)
	}
	// The load event waits for images, so the image is there at once.
	if w := eval[int](t, b, "document.getElementById('pic').naturalWidth"); w != 8 {
		t.Errorf("the image's naturalWidth = %d, want 8 (not loaded?)", w)
	}

	if err := b.ClickAndWait(ctx, "#next"); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, b, "document.title + ' ' + location.pathname"); got != "Two /two" {
		t.Errorf("after the click: %q, want the second page, %q", got, "Two /two")
	}

	if err := b.Back(ctx); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, b, "document.title + ' ' + location.pathname"); got != "One /" {
		t.Errorf("after going back: %q, want the first page, %q", got, "One /")
	}

	const w, h = 390, 844
	if err := b.SetViewport(ctx, w, h); err != nil {
		t.Fatal(err)
	}
	if got := eval[int](t, b, "window.innerWidth"); got != w {
		t.Errorf("window.innerWidth = %d, want %d", got, w)
	}
	shot := filepath.Join(t.TempDir(), "one.png")
	if err := b.Screenshot(ctx, shot); err != nil {
		t.Fatal(err)
	}
	if size := pngSize(t, shot); size != image.Pt(w, h) {
		t.Errorf("screenshot of a short page is %v, want the viewport's %v", size, image.Pt(w, h))
	}

	// The whole page, not only what the viewport shows.
	if err := b.Navigate(ctx, srv.URL+"/tall"); err != nil {
		t.Fatal(err)
	}
	shot = filepath.Join(t.TempDir(), "tall.png")
	if err := b.Screenshot(ctx, shot); err != nil {
		t.Fatal(err)
	}
	if size := pngSize(t, shot); size != image.Pt(w, 2000) {
		t.Errorf("screenshot of a tall page is %v, want %v", size, image.Pt(w, 2000))
	}
}

// pngSize decodes the PNG file at path and returns its size.
func pngSize(t *testing.T, path string) image.Point {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", path, err)
	}
	return img.Bounds().Size()
}

// TestErrors checks that what fails in the page, or cannot be reached,
// comes back as an error within its time, and leaves the browser usable.
func TestErrors(t *testing.T) {
	srv := site(t)
	b := Require(t)
	ctx := t.Context()
	if err := b.Back(ctx); err == nil || !strings.Contains(err.Error(), "no page to go back to") {
		t.Errorf("Back from the first page: %v, want an error at once", err)
	}
	if err := b.Navigate(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}

	t.Run("thrown", func(t *testing.T) {
		err := b.Eval(ctx, `(() => { throw new Error("boom in the page") })()`, nil)
		if err == nil || !strings.Contains(err.Error(), "boom in the page") {
			t.Errorf("Eval of a throw: %v, want an error with its message", err)
		}
	})
	t.Run("rejected", func(t *testing.T) {
		err := b.Eval(ctx, `Promise.reject(new TypeError("rejected in the page"))`, nil)
		if err == nil || !strings.Contains(err.Error(), "TypeError: rejected in the page") {
			t.Errorf("Eval of a rejected promise: %v, want an error with its message", err)
		}
	})
	t.Run("no element", func(t *testing.T) {
		err := b.Click(ctx, "#missing")
		if err == nil || !strings.Contains(err.Error(), "no element matches #missing") {
			t.Errorf("Click of a missing element: %v, want an error naming it", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		// A promise that never settles: the call gives up at the
		// context's deadline, and the browser goes on answering.
		ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := b.Eval(ctx, `new Promise(() => {})`, nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Eval of a promise never settled: %v, want the deadline exceeded", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("the timeout of 300ms took %v", d)
		}
		if got := eval[int](t, b, "6 * 7"); got != 42 {
			t.Errorf("after a timeout, 6 * 7 = %d", got)
		}
	})
	t.Run("closed port", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + l.Addr().String() + "/"
		l.Close()
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		err = b.Navigate(ctx, url)
		if err == nil || !strings.Contains(err.Error(), "ERR_CONNECTION_REFUSED") {
			t.Errorf("Navigate to a closed port: %v, want a refused connection", err)
		}
		if href := eval[string](t, b, "location.href"); !strings.HasPrefix(href, "chrome-error:") {
			t.Errorf("after a refused connection the page shows %s, want the error page", href)
		}
		// The error page's events do not confuse what follows.
		if err := b.Navigate(ctx, srv.URL+"/"); err != nil {
			t.Fatal(err)
		}
		if err := b.ClickAndWait(ctx, "#next"); err != nil {
			t.Fatal(err)
		}
		if title := eval[string](t, b, "document.title"); title != "Two" {
			t.Errorf("document.title = %q after the error page and a click, want Two", title)
		}
	})
}

// TestConcurrentCalls checks that responses reach their own callers when
// several calls are on the wire at once.
func TestConcurrentCalls(t *testing.T) {
	b := Require(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			js := fmt.Sprintf("new Promise(r => setTimeout(() => r(%d), %d))", i, 20*(20-i))
			var got int
			if err := b.Eval(t.Context(), js, &got); err != nil {
				t.Error(err)
			} else if got != i {
				t.Errorf("call %d got the answer %d", i, got)
			}
		})
	}
	wg.Wait()
}

// TestClose checks that Close ends Chromium and all its processes, removes
// its directory and leaves no goroutine behind.
func TestClose(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	b := Require(t)
	if got := eval[string](t, b, "navigator.userAgent"); !strings.Contains(got, "Chrome") {
		t.Errorf("user agent %q", got)
	}
	pid := b.cmd.Process.Pid
	// Chromium runs as several processes, all given the profile's path;
	// seeing them here shows the check after Close can see them.
	before, err := processesWith(b.dir)
	if err != nil {
		t.Logf("cannot list processes: %v", err)
	} else if len(before) < 2 {
		t.Errorf("%d processes of Chromium found running, want the browser and its helpers:\n%s", len(before), strings.Join(before, "\n"))
	}
	t.Logf("%d processes running", len(before))
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	select {
	case <-b.exited:
	default:
		t.Fatal("Close returned before the process exited")
	}
	if st := b.cmd.ProcessState; st == nil || st.Pid() != pid {
		t.Fatalf("the process's Wait has not returned: %v", st)
	}
	if _, err := os.Stat(b.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary directory %s is still there: %v", b.dir, err)
	}
	// The helper processes too: none of them may still run with the
	// profile that was removed.
	if procs, err := processesWith(b.dir); err != nil {
		t.Logf("cannot list processes: %v", err)
	} else if len(procs) > 0 {
		t.Errorf("processes left after Close:\n%s", strings.Join(procs, "\n"))
	}

	if err := b.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if err := b.Eval(t.Context(), "1", nil); err == nil {
		t.Error("Eval after Close succeeded")
	}

	// The reader and the process's waiter are gone; allow the runtime a
	// moment to retire them.
	waitfor.Within(2*time.Second, func() bool { return runtime.NumGoroutine() <= goroutines })
	if n := runtime.NumGoroutine(); n > goroutines {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after Close, %d before:\n%s", n, goroutines, buf[:runtime.Stack(buf, true)])
	}
}

// processesWith lists the processes whose command line mentions s, from
// /proc.
func processesWith(s string) ([]string, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var found []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue // not a process, or one that has just exited
		}
		if bytes.Contains(cmdline, []byte(s)) {
			found = append(found, e.Name()+": "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
		}
	}
	return found, nil
}

// TestFind checks that TITM_CHROMIUM, when set, is the only place looked
// at, and that its absence is told apart from a failure.
func TestFind(t *testing.T) {
	t.Setenv(PathEnv, filepath.Join(t.TempDir(), "no-chromium"))
	if _, err := Find(); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find with %s naming no file: %v, want ErrNotFound", PathEnv, err)
	}
	if _, err := Start(t.Context(), Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Start with %s naming no file: %v, want ErrNotFound", PathEnv, err)
	}

	// A program that exits at once is a failure to start, not a
	// missing browser, and is reported at once.
	exit, err := exec.LookPath("false")
	if err != nil {
		t.Skip(err)
	}
	start := time.Now()
	_, err = Start(t.Context(), Options{Path: exit})
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "exited before it listened") {
		t.Errorf("Start of a program that exits: %v, want a failure to start", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the failure took %v", d)
	}
}
