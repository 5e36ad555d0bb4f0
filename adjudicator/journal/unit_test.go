package journal

import (
	"errors"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// The cache keeps the values most recently used within its cost, and
// makes a value asked for by many at once only once.
func TestLRU(t *testing.T) {
	c := newLRU[string](10)
	c.put("a", "A", 4)
	c.put("b", "B", 4)
	c.get("a") // b is now the least recently used
	c.put("c", "C", 4)
	if _, ok := c.get("b"); ok {
		t.Error("b kept beyond the cost")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.get(k); !ok {
			t.Errorf("%s dropped", k)
		}
	}
	c.put("huge", "H", 11)
	if _, ok := c.get("huge"); ok {
		t.Error("a value costlier than the bound kept")
	}
	if c.cost != 8 || len(c.items) != 2 || c.order.Len() != 2 {
		t.Errorf("cost %d, %d items", c.cost, len(c.items))
	}

	var made atomic.Int32
	started, release := make(chan struct{}, 1), make(chan struct{})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			v, err := c.do("slow", func() (string, int64, error) {
				made.Add(1)
				started <- struct{}{}
				<-release
				return "S", 1, nil
			})
			if v != "S" || err != nil {
				t.Errorf("do: %q, %v", v, err)
			}
		})
	}
	<-started
	close(release)
	wg.Wait()
	if made.Load() != 1 {
		t.Errorf("made %d times", made.Load())
	}
	failed := errors.New("no")
	if _, err := c.do("bad", func() (string, int64, error) { return "", 1, failed }); err != failed {
		t.Errorf("do's error: %v", err)
	}
	if _, ok := c.get("bad"); ok {
		t.Error("a failure kept")
	}
}

func TestAcceptsGzip(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"GZIP", true},
		{"x-gzip", true},
		{"deflate, gzip;q=1.0, *;q=0.5", true},
		{"gzip;q=0", false},
		{"gzip; q=0.0", false},
		{"br", false},
		{"*", true},
		{"*;q=0", false},
		{"identity", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", tt.header)
		if got := acceptsGzip(r); got != tt.want {
			t.Errorf("Accept-Encoding %q: %v", tt.header, got)
		}
	}
}

func TestETag(t *testing.T) {
	if got := etag("game", "0123456789abcdef0123456789abcdef"); got != "j2-game-0123456789abcdef01234567" {
		t.Errorf("etag %q", got)
	}
	if etag("game", "ab") == etag("list", "ab") || etag("game", "ab") == etag("game", "ac") {
		t.Error("ETags alike")
	}
}
