// Package tamper forges exports of hash-chained logs, for the tests that
// prove a verifier finds every forgery: it changes one value of a record
// at a time (every leaf of the record's JSON, inside arrays too), or moves
// whole records, and rebuilds the chain after the change as a forger
// would (each record's hash, each prev, the head), so that only the
// replay can tell.
//
// It works on an export's JSON, not on its Go types, so it serves a
// game's export and a tournament's alike, and changes fields added later
// without being told of them.
package tamper

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// Doc is an export's JSON, decoded with its numbers kept as written.
type Doc = map[string]any

// Parse decodes an export's JSON.
func Parse(data []byte) (Doc, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var d Doc
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("tamper: %w", err)
	}
	return d, nil
}

// Leaf is one value of a JSON value that holds no other: a string, a
// number, a bool or a null.
type Leaf struct {
	Path  []any  // the keys (string) and indices (int) down to the leaf
	Name  string // the path written as a field name: dice[2].roll
	Field string // the path with its indices left out: dice[].roll
	Value any
}

// Leaves returns every leaf of v, objects' keys in sorted order.
func Leaves(v any) []Leaf {
	var out []Leaf
	var walk func(v any, path []any)
	walk = func(v any, path []any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(x[k], append(slices.Clip(path), k))
			}
		case []any:
			for i, e := range x {
				walk(e, append(slices.Clip(path), i))
			}
		default:
			out = append(out, Leaf{Path: path, Name: Name(path, true), Field: Name(path, false), Value: v})
		}
	}
	walk(v, nil)
	return out
}

// Name writes a path as a field's name, with its indices or without.
func Name(path []any, indices bool) string {
	var b strings.Builder
	for _, p := range path {
		switch p := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p)
		case int:
			if indices {
				fmt.Fprintf(&b, "[%d]", p)
			} else {
				b.WriteString("[]")
			}
		}
	}
	return b.String()
}

// Get returns the value at path in v.
func Get(v any, path []any) any {
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v = v.(map[string]any)[p]
		case int:
			v = v.([]any)[p]
		}
	}
	return v
}

// Set puts x at path in v, in place, and returns what was there.
func Set(v any, path []any, x any) any {
	parent := Get(v, path[:len(path)-1])
	switch p := path[len(path)-1].(type) {
	case string:
		m := parent.(map[string]any)
		old := m[p]
		m[p] = x
		return old
	case int:
		a := parent.([]any)
		old := a[p]
		a[p] = x
		return old
	}
	panic("tamper: a path of neither keys nor indices")
}

// Copy returns a deep copy of a JSON value.
func Copy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = Copy(e)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = Copy(e)
		}
		return c
	}
	return v
}

// Enums are the values a field (by its last key) may take: a string field
// among them is changed to another of them, as a forger who wants a valid
// record would (german to allied, one kind to another).
type Enums map[string][]string

// Change returns a value of the same JSON type as the leaf at path of
// root, and different: a number plus one, a bool negated, a time one
// millisecond earlier, a value of an enum the next one, a hex text with
// its last digit changed, another text with its last letter or digit
// changed. A null becomes a copy of a value beside it in its array; a
// null with none has no value of its type to become, and false is
// returned.
func Change(root any, path []any, enums Enums) (any, bool) {
	v := Get(root, path)
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return json.Number(strconv.FormatInt(i+1, 10)), true
		}
		if f, ok := new(big.Float).SetString(string(x)); ok {
			f.Add(f, big.NewFloat(1))
			return json.Number(f.Text('g', -1)), true
		}
		return json.Number(string(x) + "1"), true
	case bool:
		return !x, true
	case string:
		return changeString(x, path, enums), true
	case nil:
		if i, ok := path[len(path)-1].(int); ok {
			a := Get(root, path[:len(path)-1]).([]any)
			for j, e := range a {
				if j != i && e != nil {
					return Copy(e), true
				}
			}
		}
		return nil, false
	}
	return nil, false
}

func changeString(s string, path []any, enums Enums) string {
	key, _ := path[len(path)-1].(string)
	if vals := enums[key]; slices.Contains(vals, s) {
		return vals[(slices.Index(vals, s)+1)%len(vals)]
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil && len(s) >= 20 {
		return t.Add(-time.Millisecond).Format(time.RFC3339Nano)
	}
	rs := []rune(s)
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		switch {
		case r >= '0' && r <= '8', r >= 'a' && r <= 'e', r >= 'A' && r <= 'Y', r >= 'g' && r <= 'y':
			rs[i] = r + 1
		case r == '9':
			rs[i] = '0'
		case r == 'f':
			rs[i] = '0' // keeps a hex text hex
		case r == 'z':
			rs[i] = 'a'
		case r == 'Z':
			rs[i] = 'A'
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			rs[i] = 'x'
		default:
			continue
		}
		return string(rs)
	}
	return s + "x"
}

// Chain is how an export's chain is rebuilt: Hash returns the hash of a
// record (its JSON decoded), with its hash field as it stands; the
// records are at Records in the export, each with "prev" and "hash", and
// the export's head at Head.
type Chain struct {
	Records string // "records"
	Head    string // "head"
	Hash    func(rec map[string]any) (string, error)
}

// Records returns the records of an export.
func (c Chain) records(d Doc) []any { return d[c.Records].([]any) }

// Rebuild recomputes the chain of d from its i-th record on: each prev,
// each hash, and the head.
func (c Chain) Rebuild(d Doc, from int) error {
	recs := c.records(d)
	prev := ""
	if from > 0 {
		prev, _ = recs[from-1].(map[string]any)["hash"].(string)
	}
	for j := from; j < len(recs); j++ {
		r := recs[j].(map[string]any)
		r["prev"] = prev
		r["hash"] = ""
		h, err := c.Hash(r)
		if err != nil {
			return fmt.Errorf("tamper: hashing record %d: %w", j, err)
		}
		r["hash"] = h
		prev = h
	}
	d[c.Head] = prev
	return nil
}

// Renumber sets each record's seq to its place in the log, as a forger
// who moves records would.
func (c Chain) Renumber(d Doc) {
	for j, r := range c.records(d) {
		r.(map[string]any)["seq"] = json.Number(strconv.Itoa(j))
	}
}

// Saved is the chain of an export as it was, to put back after a change.
type Saved struct {
	links [][2]any
	head  any
}

// Save keeps each record's prev and hash and the head.
func (c Chain) Save(d Doc) Saved {
	var s Saved
	for _, r := range c.records(d) {
		m := r.(map[string]any)
		s.links = append(s.links, [2]any{m["prev"], m["hash"]})
	}
	s.head = d[c.Head]
	return s
}

// Restore puts back a chain Save kept.
func (c Chain) Restore(d Doc, s Saved) {
	for j, r := range c.records(d) {
		m := r.(map[string]any)
		m["prev"], m["hash"] = s.links[j][0], s.links[j][1]
	}
	d[c.Head] = s.head
}

// A Move is a change of a log's records as a whole.
type Move struct {
	Name   string
	Swap   bool // records At and At+1 swapped
	At     int  // the first place in the log it changes
	Change func(recs []any) []any
}

// Moves are the changes of a log of n records as a whole, around the
// places given: each record deleted, inserted again after itself (a
// duplicate), a copy of it inserted further on, swapped with the next,
// and the log cut before its last record.
func Moves(n int, places []int) []Move {
	var out []Move
	for _, i := range places {
		if i < 0 || i >= n {
			continue
		}
		out = append(out,
			Move{fmt.Sprintf("record %d deleted", i), false, i, func(r []any) []any { return slices.Delete(slices.Clone(r), i, i+1) }},
			Move{fmt.Sprintf("record %d duplicated", i), false, i + 1, func(r []any) []any { return slices.Insert(slices.Clone(r), i+1, Copy(r[i])) }},
		)
		if i+1 < n {
			out = append(out, Move{fmt.Sprintf("records %d and %d swapped", i, i+1), true, i, func(r []any) []any {
				c := slices.Clone(r)
				c[i], c[i+1] = c[i+1], c[i]
				return c
			}})
		}
		if i+2 < n {
			out = append(out, Move{fmt.Sprintf("a copy of record %d inserted after record %d", i, i+1), false, i + 2, func(r []any) []any {
				return slices.Insert(slices.Clone(r), i+2, Copy(r[i]))
			}})
		}
	}
	return out
}

// Unchecked tells what a verifier checks of a field it cannot check
// fully at its own record: Order (a time, checked only against its
// neighbours'), Later (a change fails at a later record, where what it
// seals is revealed), None (a change may pass: the record is where the
// value comes from). A change of a listed field may fail at its own
// record or a later one; one of Later must fail. ok is false for a field
// the verifier checks fully, at its own record: a change of it must fail
// there (or at the record of the act that made it with another).
type Unchecked func(kind, field string) (check string, ok bool)

// What a verifier checks of a field Unchecked lists.
const (
	Order = "order"
	Later = "later"
	None  = "none"
)

// Suite forges an export in every way and expects its verifier to fail
// on each forgery, naming the record changed.
type Suite struct {
	Chain Chain
	Enums Enums
	// Verify verifies an export's JSON.
	Verify func(data []byte) error
	// Where returns the record (its place in the log; -1 for the export's
	// own fields) and field a verifier's error names, and the record of
	// the act that made that record with it (act, or -1), false for an
	// error that is no discrepancy. A change of either record of one act
	// may be named by the other: which was changed, the log cannot tell.
	Where     func(err error) (seq, act int, field string, ok bool)
	Unchecked Unchecked
	// Export reports whether a leaf of the export outside its records is
	// to be changed (nil: every one).
	Export func(l Leaf) bool
	// Also reports whether a leaf of record rec is changed besides the
	// values of its field that pick chooses (nil: none): what a test
	// wants forged wherever it stands in a long field, as one die among
	// a long impulse's many.
	Also func(rec any, l Leaf) bool
}

// Count is what a suite changed and what came of it.
type Count struct {
	Records int // records changed
	Pairs   int // (record, field) pairs changed, with the chain rebuilt
	Fields  int // distinct fields (without indices) changed
	Failed  int // changes the verifier refused, naming the record (or, Later, one after it)
	Listed  int // changes the verifier accepted, of fields Unchecked lists
	Nulls   int // nulls with no value of their type to become
	Bounds  int // times moved before the record before, refused
	Moves   int // records deleted, duplicated, inserted, swapped, the head moved: refused
	Export  int // values of the export outside its records changed, refused or listed
}

// pick returns which of n values of one field of a record are changed:
// all of up to three, else the first, the middle one and the last, so
// that each record and each field is changed at least once and a long
// impulse's hundred dice do not cost a hundred replays.
func pick(n int) []int {
	if n <= 3 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	return []int{0, n / 2, n - 1}
}

// pick returns which of the values ls of one field of record rec are
// changed: those pick chooses, and those Also asks for.
func (s Suite) pick(rec any, ls []Leaf) []int {
	out := pick(len(ls))
	if s.Also == nil {
		return out
	}
	for i, l := range ls {
		if !slices.Contains(out, i) && s.Also(rec, l) {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

func (s Suite) verify(t testing.TB, d Doc) error {
	t.Helper()
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return s.Verify(data)
}

// Run makes every forgery of d and checks the verifier refuses each. d is
// left as it was.
func (s Suite) Run(t testing.TB, d Doc) Count {
	t.Helper()
	var c Count
	if err := s.verify(t, d); err != nil {
		t.Fatalf("the export as made does not verify: %v", err)
	}
	fields := map[string]bool{}
	for k, r := range s.Chain.records(d) {
		if s.forgeRecord(t, d, k, r, &c, fields) {
			c.Records++
		}
	}
	c.Fields = len(fields)
	c.Moves = s.moves(t, d)
	c.Export = s.export(t, d)
	return c
}

// forgeRecord changes the picked leaves of each field of record k, r, one
// at a time, counting into c and naming each kind and field changed in
// fields. It reports whether it changed any.
func (s Suite) forgeRecord(t testing.TB, d Doc, k int, r any, c *Count, fields map[string]bool) bool {
	t.Helper()
	kind, _ := r.(map[string]any)["kind"].(string)
	groups := map[string][]Leaf{}
	var order []string
	for _, l := range Leaves(r) {
		if groups[l.Field] == nil {
			order = append(order, l.Field)
		}
		groups[l.Field] = append(groups[l.Field], l)
	}
	changed := false
	for _, f := range order {
		for _, i := range s.pick(r, groups[f]) {
			if s.forge(t, d, k, kind, groups[f][i], c) {
				changed, fields[kind+" "+f] = true, true
			}
		}
	}
	return changed
}

// forge changes leaf l of record k, of kind, rebuilds the chain after it
// and checks the verifier refuses it, naming record k, unless the field is
// one verify is known not to check. d is left as it was. It reports
// whether it could change the leaf.
func (s Suite) forge(t testing.TB, d Doc, k int, kind string, l Leaf, c *Count) bool {
	t.Helper()
	f := l.Field
	path := append([]any{s.Chain.Records, k}, l.Path...)
	x, ok := Change(d, path, s.Enums)
	if !ok {
		c.Nulls++
		return false
	}
	c.Pairs++
	saved := s.Chain.Save(d)
	old := Set(d, path, x)
	if f != "hash" && f != "prev" {
		// A changed hash or link is the change; any other is hidden by a
		// chain rebuilt after it.
		if err := s.Chain.Rebuild(d, k); err != nil {
			t.Fatal(err)
		}
	}
	err := s.verify(t, d)
	Set(d, path, old)
	s.Chain.Restore(d, saved)
	check, listed := s.Unchecked(kind, f)
	what := fmt.Sprintf("record %d (%s), %s %v -> %v", k, kind, l.Name, l.Value, x)
	if f == "time" && listed && check == Order && k > 0 {
		c.Bounds += s.outOfOrder(t, d, k, what)
	}
	if err == nil {
		if listed && (check == Order || check == None) {
			c.Listed++
			return true
		}
		t.Errorf("%s: verified", what)
		return true
	}
	seq, act, field, ok := s.Where(err)
	switch {
	case !ok:
		t.Errorf("%s: %v is no discrepancy", what, err)
	case seq == k, act == k, listed && seq > k:
		c.Failed++
	default:
		t.Errorf("%s: the error names record %d (%s), not %d: %v", what, seq, field, k, err)
	}
	return true
}

// outOfOrder moves record k's time an hour before the record before it,
// rebuilds the chain and expects the verifier to refuse it at k.
func (s Suite) outOfOrder(t testing.TB, d Doc, k int, what string) int {
	t.Helper()
	recs := s.Chain.records(d)
	prev, err := time.Parse(time.RFC3339Nano, recs[k-1].(map[string]any)["time"].(string))
	if err != nil {
		t.Fatal(err)
	}
	path := []any{s.Chain.Records, k, "time"}
	saved := s.Chain.Save(d)
	old := Set(d, path, prev.Add(-time.Hour).Format(time.RFC3339Nano))
	if err := s.Chain.Rebuild(d, k); err != nil {
		t.Fatal(err)
	}
	err = s.verify(t, d)
	Set(d, path, old)
	s.Chain.Restore(d, saved)
	if seq, act, _, ok := s.Where(err); err == nil || !ok || seq != k && act != k {
		t.Errorf("%s, an hour before the record before it: %v", what, err)
		return 0
	}
	return 1
}

// moves deletes, duplicates, inserts and swaps records around the start,
// the middle and the end of the log, with the chain rebuilt, with and
// without the records numbered again; and moves the head back.
func (s Suite) moves(t testing.TB, d Doc) int {
	t.Helper()
	recs := s.Chain.records(d)
	n := len(recs)
	saved := s.Chain.Save(d)
	count := 0
	for _, m := range Moves(n, []int{0, 1, n / 2, n - 2, n - 1}) {
		if m.Swap && same(recs[m.At], recs[m.At+1]) {
			// Two records of one kind and time (the two players' joins)
			// swapped and numbered again are a log that could have been
			// written: nothing in it is forged.
			continue
		}
		for _, renumber := range []bool{false, true} {
			d[s.Chain.Records] = m.Change(Copy(recs).([]any))
			if renumber {
				s.Chain.Renumber(d)
			}
			if err := s.Chain.Rebuild(d, 0); err != nil {
				t.Fatal(err)
			}
			err := s.verify(t, d)
			if _, _, _, ok := s.Where(err); err == nil || !ok {
				t.Errorf("%s (numbered again: %v): %v", m.Name, renumber, err)
			} else {
				count++
			}
		}
	}
	d[s.Chain.Records] = recs
	s.Chain.Restore(d, saved)
	for _, back := range []int{n - 2, 0} {
		d[s.Chain.Head] = recs[back].(map[string]any)["hash"]
		if err := s.verify(t, d); err == nil {
			t.Errorf("the head moved to record %d: verified", back)
		} else {
			count++
		}
	}
	s.Chain.Restore(d, saved)
	return count
}

// export changes each value of the export outside its records (its seeds,
// commitment, head, status, result, files, ...), one at a time.
func (s Suite) export(t testing.TB, d Doc) int {
	t.Helper()
	count := 0
	for _, l := range Leaves(d) {
		if len(l.Path) > 0 && l.Path[0] == s.Chain.Records || s.Export != nil && !s.Export(l) {
			continue
		}
		x, ok := Change(d, l.Path, s.Enums)
		if !ok {
			continue
		}
		old := Set(d, l.Path, x)
		err := s.verify(t, d)
		Set(d, l.Path, old)
		count++
		if err != nil {
			continue
		}
		if check, listed := s.Unchecked("export", l.Field); listed && check == None {
			continue
		}
		t.Errorf("the export's %s %v -> %v: verified", l.Name, l.Value, x)
	}
	return count
}

// same reports whether two records are of one kind and time.
func same(a, b any) bool {
	x, y := a.(map[string]any), b.(map[string]any)
	return x["kind"] == y["kind"] && x["time"] == y["time"]
}

// Differences returns the fields in which the export b differs from a,
// each as the kind of its record and its name without indices ("export"
// for a field of the export outside its records), and false when they
// differ in their shape (a record, a field or an element more or less),
// which no field names. A fuzz target asks it whether a changed export
// differs only in fields its verifier lists as unchecked.
func (c Chain) Differences(a, b Doc) ([][2]string, bool) {
	var out [][2]string
	same := true
	var walk func(x, y any, path []any)
	walk = func(x, y any, path []any) {
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			if !ok || len(xv) != len(yv) {
				same = false
				return
			}
			for k, e := range xv {
				f, ok := yv[k]
				if !ok {
					same = false
					return
				}
				walk(e, f, append(slices.Clip(path), k))
			}
		case []any:
			yv, ok := y.([]any)
			if !ok || len(xv) != len(yv) {
				same = false
				return
			}
			for i := range xv {
				walk(xv[i], yv[i], append(slices.Clip(path), i))
			}
		default:
			if fmt.Sprint(x) == fmt.Sprint(y) && fmt.Sprintf("%T", x) == fmt.Sprintf("%T", y) {
				return
			}
			kind := "export"
			field := Name(path, false)
			if len(path) >= 2 && path[0] == c.Records {
				rec, _ := Get(a, path[:2]).(map[string]any)
				kind, _ = rec["kind"].(string)
				field = Name(path[2:], false)
			}
			out = append(out, [2]string{kind, field})
		}
	}
	walk(a, b, nil)
	return out, same
}
