// Package browser drives a headless Chromium through the DevTools protocol,
// so that tests can load titm's web pages in a real browser: navigate to
// them, evaluate JavaScript in them, click, and take screenshots.
//
// Start launches a private Chromium with its own profile in a temporary
// directory and connects to its page; Close kills it and removes the
// directory. Require does the same for a test, skipping it when Chromium is
// not installed, unless TITM_REQUIRE_CHROMIUM is set.
//
// Every method takes a context and is also bounded by Options.Timeout, so
// that a browser that stops answering fails a test instead of hanging it.
package browser

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PathEnv names the environment variable that, when set, is the Chromium
// program to run, for a machine where it is installed elsewhere than Find
// looks.
const PathEnv = "TITM_CHROMIUM"

// DefaultTimeout bounds Start and each method call when Options.Timeout is
// zero. Loading a page takes well under a second; the margin is for a slow,
// busy machine.
const DefaultTimeout = 30 * time.Second

// ErrNotFound is returned (wrapped) by Find and Start when there is no
// Chromium to run, so that a caller can tell "not installed" from "failed".
var ErrNotFound = errors.New("no Chromium found")

// Options are how Start launches Chromium. The zero value is ready to use.
type Options struct {
	// Path is the Chromium program. Empty means the one Find finds.
	Path string
	// Timeout bounds Start and each method call, on top of any deadline
	// of the context given. Zero means DefaultTimeout.
	Timeout time.Duration
	// Args are further command-line flags, given after the package's own.
	Args []string
}

// Browser is a running headless Chromium and a connection to its page.
// Its methods may be called from several goroutines, but they act on one
// page, so a test normally calls them in turn.
type Browser struct {
	cmd     *exec.Cmd
	dir     string // temporary directory: the profile and Chromium's log
	timeout time.Duration
	page    *conn

	exited  chan struct{} // closed when the process has exited
	waitErr error         // the process's exit status, set before exited is closed

	closeOnce sync.Once
	closeErr  error
}

// Find returns the Chromium program to run: the one named by the
// environment variable TITM_CHROMIUM if set, else chromium or
// chromium-browser in PATH, else /usr/bin/chromium or
// /usr/bin/chromium-browser (a PATH without /usr/bin is not unusual for
// a service's environment).
func Find() (string, error) {
	if p := os.Getenv(PathEnv); p != "" {
		if err := checkExecutable(p); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %v", ErrNotFound, PathEnv, p, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if checkExecutable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w in PATH, /usr/bin/chromium or /usr/bin/chromium-browser (apt-get install chromium, or set %s)", ErrNotFound, PathEnv)
}

func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return errors.New("not an executable file")
	}
	return nil
}

// Start launches a headless Chromium and connects to its page, which shows
// about:blank. The process outlives ctx, which bounds the start alone: call
// Close to end it.
func Start(ctx context.Context, opts Options) (*Browser, error) {
	path := opts.Path
	if path == "" {
		var err error
		if path, err = Find(); err != nil {
			return nil, err
		}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	dir, logFile, err := newProfile()
	if err != nil {
		return nil, err
	}
	profile := filepath.Join(dir, "profile")
	logPath := logFile.Name()
	args := append(chromiumArgs(profile), opts.Args...)
	args = append(args, "about:blank")
	// Not CommandContext: ctx bounds the start, not the browser's life.
	cmd := exec.Command(path, args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	setProcessGroup(cmd)
	err = cmd.Start()
	logFile.Close() // the process has its own copy
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}

	b := &Browser{cmd: cmd, dir: dir, timeout: timeout, exited: make(chan struct{})}
	go func() {
		b.waitErr = cmd.Wait()
		close(b.exited)
	}()
	if err := b.connect(ctx, profile); err != nil {
		log := logTail(logPath, 20)
		b.Close()
		if log != "" {
			return nil, fmt.Errorf("starting %s: %w\nChromium's output ends with:\n%s", path, err, log)
		}
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return b, nil
}

// newProfile makes a directory for Chromium's profile and its log, and
// returns it with the log open.
func newProfile() (string, *os.File, error) {
	dir, err := os.MkdirTemp("", "titm-browser-")
	if err != nil {
		return "", nil, fmt.Errorf("starting Chromium: %w", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "profile"), 0o700); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("starting Chromium: %w", err)
	}
	// Chromium's output goes to a file rather than a pipe: its helper
	// processes inherit the descriptor, and a pipe held open by one of
	// them would keep Wait from returning.
	logFile, err := os.Create(filepath.Join(dir, "chromium.log"))
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("starting Chromium: %w", err)
	}
	return dir, logFile, nil
}

// chromiumArgs are the flags of a headless Chromium with its profile in
// the directory profile.
func chromiumArgs(profile string) []string {
	return []string{
		"--headless=new",
		// The sandbox needs user namespaces or a setuid helper, and
		// refuses to run as root, which CI is.
		"--no-sandbox",
		"--disable-gpu",
		// Port 0: Chromium picks a free port and writes it to
		// DevToolsActivePort in the profile, so that browsers started at
		// once never collide.
		"--remote-debugging-port=0",
		"--remote-allow-origins=" + origin,
		"--user-data-dir=" + profile,
		"--no-first-run",
		"--no-default-browser-check",
		// Tests must not depend on, or wait for, the internet: no
		// component updates, safe-browsing lists or the like.
		"--disable-background-networking",
		"--disable-component-update",
	}
}

// connect waits for Chromium's DevTools endpoint and connects to a page.
func (b *Browser) connect(ctx context.Context, profile string) error {
	port, err := b.waitPort(ctx, profile)
	if err != nil {
		return err
	}
	url, err := pageURL(ctx, port)
	if err != nil {
		return err
	}
	if b.page, err = dial(ctx, url); err != nil {
		return err
	}
	// The page's events (its load above all) are sent only once asked
	// for; lifecycle events tell which document each load is of.
	if err := b.page.call(ctx, "Page.enable", nil, nil); err != nil {
		return err
	}
	return b.page.call(ctx, "Page.setLifecycleEventsEnabled", map[string]any{"enabled": true}, nil)
}

// waitPort waits for Chromium to write the DevTools port to the profile's
// DevToolsActivePort file, which it does once it listens.
func (b *Browser) waitPort(ctx context.Context, profile string) (int, error) {
	path := filepath.Join(profile, "DevToolsActivePort")
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		// The file is written in place, so it may be read half
		// written: the port counts only once the line after it begins.
		if data, err := os.ReadFile(path); err == nil {
			if line, _, ok := strings.Cut(string(data), "\n"); ok {
				port, err := strconv.Atoi(line)
				if err != nil || port <= 0 || port > 65535 {
					return 0, fmt.Errorf("reading %s: bad port %q", path, line)
				}
				return port, nil
			}
		}
		select {
		case <-tick.C:
		case <-b.exited:
			return 0, fmt.Errorf("the browser exited before it listened: %v", b.waitErr)
		case <-ctx.Done():
			return 0, fmt.Errorf("waiting for Chromium's DevTools port: %w", context.Cause(ctx))
		}
	}
}

// pageURL returns the websocket URL of a page target: the one Chromium
// opened, or if it lists none (yet), a new one.
func pageURL(ctx context.Context, port int) (string, error) {
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	var targets []struct {
		Type                 string `json:"type"`
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := getJSON(ctx, base+"/json/list", &targets); err != nil {
		return "", err
	}
	for _, t := range targets {
		if t.Type == "page" && t.WebSocketDebuggerURL != "" {
			return t.WebSocketDebuggerURL, nil
		}
	}

	var version struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := getJSON(ctx, base+"/json/version", &version); err != nil {
		return "", err
	}
	c, err := dial(ctx, version.WebSocketDebuggerURL)
	if err != nil {
		return "", err
	}
	defer c.close()
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := c.call(ctx, "Target.createTarget", map[string]any{"url": "about:blank"}, &created); err != nil {
		return "", fmt.Errorf("opening a page: %w", err)
	}
	return fmt.Sprintf("ws://127.0.0.1:%d/devtools/page/%s", port, created.TargetID), nil
}

// getJSON fetches a DevTools HTTP endpoint. The connection is not kept
// alive: there is no later request to reuse it, and an idle connection
// would leave goroutines behind.
func getJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("fetching %s: %w", url, err)
	}
	req.Close = true
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("fetching %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fetching %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("fetching %s: %w", url, err)
	}
	return nil
}

// logTail returns the last n lines of Chromium's output, for an error
// message.
func logTail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// withTimeout bounds one call by the browser's timeout as well as by ctx.
func (b *Browser) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, b.timeout)
}

// Call sends any DevTools protocol command to the page and decodes its
// result into result, unless that is nil. It is for what the other methods
// do not cover.
func (b *Browser) Call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	return b.page.call(ctx, method, params, result)
}

// Navigate loads url in the page and waits for its load event: the page,
// its images and its scripts are then all loaded. A URL that cannot be
// loaded at all (e.g. a refused connection) is an error, returned once
// Chromium shows its error page in its stead; an HTTP error status is not,
// since its page loads.
func (b *Browser) Navigate(ctx context.Context, url string) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	err := b.loadAfter(ctx, func() (string, error) {
		var r struct {
			LoaderID  string `json:"loaderId"`
			ErrorText string `json:"errorText"`
		}
		if err := b.page.call(ctx, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
			return "", err
		}
		if r.ErrorText != "" {
			return "", &navigationError{r.ErrorText}
		}
		if r.LoaderID == "" {
			// A move within the document (a fragment): nothing loads.
			return "", errNoLoad
		}
		return r.LoaderID, nil
	})
	if err != nil {
		return fmt.Errorf("navigating to %s: %w", url, err)
	}
	return nil
}

// navigationError is Chromium's reason for not loading a page, such as
// "net::ERR_CONNECTION_REFUSED".
type navigationError struct{ text string }

func (e *navigationError) Error() string { return e.text }

// errNoLoad tells loadAfter that the action loads no document, so there is
// nothing to wait for.
var errNoLoad = errors.New("no document to load")

// errorPageWait bounds the wait for Chromium's error page after a failed
// navigation. It shows one within milliseconds, but for a reason it shows
// none for, a failed navigation should not take the whole timeout.
const errorPageWait = 5 * time.Second

// loadAfter runs action and waits until the document it leads to is
// loaded. action returns the loader id of that document when it knows it
// (Page.navigate does), else "" to take the next document committed in the
// main frame, as after a click or history.back().
//
// The events are subscribed to before action runs so that none can be
// missed. Waiting for a given document's load, rather than for any load
// event, keeps a late event of an earlier page from being taken for it. For
// the same reason, after a failed navigation it waits for the error page
// Chromium shows instead: its events would otherwise come during the next
// call and be taken for that call's page.
func (b *Browser) loadAfter(ctx context.Context, action func() (loaderID string, err error)) error {
	navigated, cancelNav := b.page.subscribe("Page.frameNavigated")
	defer cancelNav()
	lifecycle, cancelLife := b.page.subscribe("Page.lifecycleEvent")
	defer cancelLife()

	loaderID, err := action()
	var failed *navigationError
	switch {
	case errors.Is(err, errNoLoad):
		return nil
	case errors.As(err, &failed):
		// An aborted navigation (e.g. an answer of 204 No Content)
		// leaves the page as it was.
		if failed.text != "net::ERR_ABORTED" {
			ctx, cancel := context.WithTimeout(ctx, errorPageWait)
			defer cancel()
			_ = b.waitLoaded(ctx, navigated, lifecycle, "") // the failure is the error to report
		}
		return err
	case err != nil:
		return err
	}
	return b.waitLoaded(ctx, navigated, lifecycle, loaderID)
}

// waitLoaded waits, on the events subscribed to, for the load of the
// document of loaderID in the main frame, or of the next one committed there
// if loaderID is "". A page restored from the back-forward cache fires no
// load event: it is loaded once committed.
func (b *Browser) waitLoaded(ctx context.Context, navigated, lifecycle *subscription, loaderID string) error {
	loaded := make(map[string]bool) // loader ids whose load event came
	for {
		select {
		case p := <-navigated.ch:
			var ev struct {
				Frame struct {
					ParentID string `json:"parentId"`
					LoaderID string `json:"loaderId"`
				} `json:"frame"`
				Type string `json:"type"`
			}
			if json.Unmarshal(p, &ev) != nil || ev.Frame.ParentID != "" {
				continue
			}
			if loaderID == "" {
				loaderID = ev.Frame.LoaderID
			}
			if ev.Frame.LoaderID == loaderID && ev.Type == "BackForwardCacheRestore" {
				return nil
			}
		case p := <-lifecycle.ch:
			var ev struct {
				LoaderID string `json:"loaderId"`
				Name     string `json:"name"`
			}
			if json.Unmarshal(p, &ev) != nil || ev.Name != "load" {
				continue
			}
			loaded[ev.LoaderID] = true
		case <-ctx.Done():
			return fmt.Errorf("waiting for the page to load: %w", context.Cause(ctx))
		case <-b.page.done:
			return b.page.err
		}
		if loaderID != "" && loaded[loaderID] {
			return nil
		}
	}
}

// Eval evaluates the JavaScript expression js in the page and decodes its
// value, as JSON, into out unless that is nil. A promise is awaited, so js
// may be an async function's call. A JavaScript exception, thrown or a
// rejected promise, is returned as an error with its message.
func (b *Browser) Eval(ctx context.Context, js string, out any) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	if err := b.eval(ctx, js, out); err != nil {
		return fmt.Errorf("evaluating %s: %w", abbreviate(js), err)
	}
	return nil
}

func (b *Browser) eval(ctx context.Context, js string, out any) error {
	var r struct {
		Result struct {
			Type                string          `json:"type"`
			Value               json.RawMessage `json:"value"`
			UnserializableValue string          `json:"unserializableValue"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := b.page.call(ctx, "Runtime.evaluate", map[string]any{
		"expression":    js,
		"returnByValue": true,
		"awaitPromise":  true,
		// As if the user did it, so that what a page allows only then
		// (e.g. opening a window from a click) works in tests.
		"userGesture": true,
	}, &r)
	if err != nil {
		return err
	}
	if d := r.ExceptionDetails; d != nil {
		// The description is the error's message and stack; text alone
		// is often just "Uncaught".
		if d.Exception != nil && d.Exception.Description != "" {
			return fmt.Errorf("JavaScript exception: %s", d.Exception.Description)
		}
		return fmt.Errorf("JavaScript exception: %s", d.Text)
	}
	if out == nil {
		return nil
	}
	if r.Result.UnserializableValue != "" {
		return fmt.Errorf("the value %s has no JSON form", r.Result.UnserializableValue)
	}
	value := r.Result.Value
	if len(value) == 0 { // undefined
		value = json.RawMessage("null")
	}
	if err := json.Unmarshal(value, out); err != nil {
		return fmt.Errorf("decoding the value: %w", err)
	}
	return nil
}

// abbreviate shortens a script for an error message, which would otherwise
// quote a long one whole.
func abbreviate(js string) string {
	r := []rune(strings.Join(strings.Fields(js), " "))
	if len(r) > 60 {
		return strconv.Quote(string(r[:57]) + "...")
	}
	return strconv.Quote(string(r))
}

// Click clicks the first element that matches the CSS selector, and does
// not wait for what follows: use ClickAndWait for a link or a button that
// loads another page. No element matching is an error.
func (b *Browser) Click(ctx context.Context, selector string) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	if err := b.eval(ctx, clickScript(selector), nil); err != nil {
		return fmt.Errorf("clicking %s: %w", selector, err)
	}
	return nil
}

// ClickAndWait clicks the first element that matches the CSS selector and
// waits until the page it leads to is loaded. A click that loads no page
// waits until the timeout.
func (b *Browser) ClickAndWait(ctx context.Context, selector string) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	err := b.loadAfter(ctx, func() (string, error) {
		return "", b.eval(ctx, clickScript(selector), nil)
	})
	if err != nil {
		return fmt.Errorf("clicking %s: %w", selector, err)
	}
	return nil
}

// clickScript is the JavaScript that clicks the element selector matches.
// A synthetic click does what a user's does for links, buttons and form
// controls, which is what the tests click.
func clickScript(selector string) string {
	sel, _ := json.Marshal(selector) // a string always marshals
	return fmt.Sprintf(`(sel => {
	const el = document.querySelector(sel);
	if (!el) throw new Error("no element matches " + sel);
	el.click();
})(%s)`, sel)
}

// Back goes back in the page's history, as the browser's back button does,
// and waits until the page is shown again. With no page to go back to it
// is an error.
func (b *Browser) Back(ctx context.Context) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	// history.back() with nothing to go back to does nothing, which
	// would leave the wait below to the timeout.
	var history struct {
		CurrentIndex int `json:"currentIndex"`
	}
	if err := b.page.call(ctx, "Page.getNavigationHistory", nil, &history); err != nil {
		return fmt.Errorf("going back: %w", err)
	}
	if history.CurrentIndex == 0 {
		return errors.New("going back: no page to go back to")
	}
	err := b.loadAfter(ctx, func() (string, error) {
		return "", b.eval(ctx, "history.back()", nil)
	})
	if err != nil {
		return fmt.Errorf("going back: %w", err)
	}
	return nil
}

// SetViewport makes the page's viewport width by height CSS pixels, at one
// device pixel per CSS pixel, e.g. 390 wide for a phone. It stays so across
// navigations until set again.
func (b *Browser) SetViewport(ctx context.Context, width, height int) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	err := b.page.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width":             width,
		"height":            height,
		"deviceScaleFactor": 1,
		"mobile":            false,
	}, nil)
	if err != nil {
		return fmt.Errorf("setting the viewport to %dx%d: %w", width, height, err)
	}
	return nil
}

// Screenshot writes a PNG of the whole page to path: the viewport's width
// (or the page's, if wider) and the page's height (or the viewport's, if
// taller), one pixel per CSS pixel at the default scale.
func (b *Browser) Screenshot(ctx context.Context, path string) error {
	ctx, cancel := b.withTimeout(ctx)
	defer cancel()
	if err := b.screenshot(ctx, path); err != nil {
		return fmt.Errorf("taking a screenshot to %s: %w", path, err)
	}
	return nil
}

func (b *Browser) screenshot(ctx context.Context, path string) error {
	// The page's size, measured by the page itself: the layout metrics
	// of the protocol leave out the scrollbar, which the screenshot has.
	var size struct{ Width, Height float64 }
	err := b.eval(ctx, `({
	width: Math.max(innerWidth, document.documentElement.scrollWidth),
	height: Math.max(innerHeight, document.documentElement.scrollHeight),
})`, &size)
	if err != nil {
		return fmt.Errorf("measuring the page: %w", err)
	}
	var r struct {
		Data string `json:"data"`
	}
	err = b.page.call(ctx, "Page.captureScreenshot", map[string]any{
		"format": "png",
		"clip": map[string]any{
			"x": 0, "y": 0, "width": size.Width, "height": size.Height, "scale": 1,
		},
		// Without it, what lies below the viewport comes out blank.
		"captureBeyondViewport": true,
	}, &r)
	if err != nil {
		return err
	}
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		return fmt.Errorf("decoding the image: %w", err)
	}
	return os.WriteFile(path, png, 0o644)
}

// Close kills Chromium and its helper processes, waits for it to exit and
// removes its temporary directory. The Browser is unusable afterwards; a
// second Close does nothing and returns the first one's result.
//
// Chromium is killed rather than asked to quit: its profile is thrown
// away, so there is nothing for it to save, and a kill cannot hang.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		if b.page != nil {
			b.page.close()
		}
		killProcessGroup(b.cmd)
		<-b.exited
		if err := os.RemoveAll(b.dir); err != nil {
			b.closeErr = fmt.Errorf("closing Chromium: %w", err)
		}
	})
	return b.closeErr
}
