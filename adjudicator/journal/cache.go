package journal

import (
	"container/list"
	"errors"
	"sync"
)

// lru keeps the values most recently used, up to a total cost: the journal
// draws a picture or rebuilds a game's reports once, and serves them again
// from memory, without letting a crawler make the daemon grow.
type lru[V any] struct {
	mu    sync.Mutex
	max   int64
	cost  int64
	order *list.List // of *lruEntry[V], the most recently used first
	items map[string]*list.Element

	flight map[string]*call[V] // values being made, so that each is made once
}

type lruEntry[V any] struct {
	key  string
	val  V
	cost int64
}

// call is a value being made by one goroutine, which others wait for.
type call[V any] struct {
	done chan struct{}
	val  V
	err  error
}

func newLRU[V any](max int64) *lru[V] {
	return &lru[V]{max: max, order: list.New(), items: map[string]*list.Element{}, flight: map[string]*call[V]{}}
}

// get returns the value kept for key, if any, and marks it used.
func (c *lru[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruEntry[V]).val, true
	}
	var zero V
	return zero, false
}

// put keeps a value, dropping the least recently used until the total cost
// is within the bound. A value that costs more than the bound is not kept.
func (c *lru[V]) put(key string, val V, cost int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cost > c.max {
		return
	}
	if e, ok := c.items[key]; ok {
		old := e.Value.(*lruEntry[V])
		c.cost += cost - old.cost
		old.val, old.cost = val, cost
		c.order.MoveToFront(e)
	} else {
		c.items[key] = c.order.PushFront(&lruEntry[V]{key: key, val: val, cost: cost})
		c.cost += cost
	}
	for c.cost > c.max {
		e := c.order.Back()
		old := e.Value.(*lruEntry[V])
		c.order.Remove(e)
		delete(c.items, old.key)
		c.cost -= old.cost
	}
}

// do returns the value kept for key, or makes it with build and keeps it.
// Concurrent calls for the same key wait for the one that makes it, so
// that a page asked for by many clients at once is built once.
func (c *lru[V]) do(key string, build func() (V, int64, error)) (V, error) {
	if v, ok := c.get(key); ok {
		return v, nil
	}
	c.mu.Lock()
	if f, ok := c.flight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.val, f.err
	}
	f := &call[V]{done: make(chan struct{})}
	c.flight[key] = f
	c.mu.Unlock()

	// Should build panic (the server recovers a handler's panic), those
	// waiting are let go with an error rather than left waiting.
	f.err = errBuildFailed
	defer func() {
		c.mu.Lock()
		delete(c.flight, key)
		c.mu.Unlock()
		close(f.done)
	}()
	var cost int64
	f.val, cost, f.err = build()
	if f.err == nil {
		c.put(key, f.val, cost)
	}
	return f.val, f.err
}

var errBuildFailed = errors.New("journal: building the page failed")
