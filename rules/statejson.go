package rules

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// AppendJSON appends the state's JSON to b, byte for byte what
// json.Marshal(st) writes: the same fields in the same order, the same
// omissions, map keys sorted as encoding/json sorts them, and strings
// escaped as it escapes them (HTML characters included). A game's log keeps
// the digest of these bytes after every change (adjudicator.StateHash), so
// they must never differ from json.Marshal's, or old logs would no longer
// verify; TestAppendJSONMatchesMarshal holds them to it, field by field.
// It exists because the reflection of json.Marshal is most of the time of a
// digest, and a replay takes one after every impulse.
//
// The standing orders, small and of many types, are left to json.Marshal.
func (st *State) AppendJSON(b []byte) []byte {
	if st == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"scenario":`...)
	b = appendJSONString(b, st.Scenario)
	b = append(b, `,"next":`...)
	b = appendJSONImpulse(b, st.Next)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, st.Over)
	if st.Result != "" {
		b = append(b, `,"result":`...)
		b = appendJSONString(b, st.Result)
	}
	b = append(b, `,"vp":`...)
	b = strconv.AppendInt(b, int64(st.VP), 10)
	b = append(b, `,"units":`...)
	b = appendJSONUnits(b, st.Units)
	b = append(b, `,"bridges":`...)
	b = appendJSONBridges(b, st.Bridges)
	b = append(b, `,"control":`...)
	b = appendJSONControl(b, st.Control)
	if len(st.Released) > 0 {
		b = append(b, `,"released":`...)
		b = appendJSONStrings(b, st.Released)
	}
	if len(st.ReleasedAt) > 0 {
		b = append(b, `,"released_at":`...)
		b = appendJSONImpulses(b, st.ReleasedAt)
	}
	b = append(b, `,"standing":`...)
	b = appendJSONMarshal(b, st.Standing)
	if st.SF != nil {
		b = append(b, `,"special_forces":`...)
		b = st.SF.appendJSON(b)
	}
	if len(st.SFUsed) > 0 {
		b = append(b, `,"sf_used":`...)
		b = appendJSONStrings(b, st.SFUsed)
	}
	if len(st.SFDays) > 0 {
		b = append(b, `,"sf_days":[`...)
		for i, d := range st.SFDays {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(d), 10)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendJSONUnits(b []byte, units []*UnitState) []byte {
	if units == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, u := range units {
		if i > 0 {
			b = append(b, ',')
		}
		b = u.appendJSON(b)
	}
	return append(b, ']')
}

func appendJSONBridges(b []byte, bridges []BridgeState) []byte {
	if bridges == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, br := range bridges {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"a":`...)
		b = strconv.AppendInt(b, int64(br.A), 10)
		b = append(b, `,"b":`...)
		b = strconv.AppendInt(b, int64(br.B), 10)
		b = append(b, `,"blown":`...)
		b = strconv.AppendBool(b, br.Blown)
		b = append(b, `,"repair_failures":`...)
		b = strconv.AppendInt(b, int64(br.RepairFailures), 10)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJSONImpulses appends a map of impulses, its keys sorted as
// encoding/json sorts them.
func appendJSONImpulses(b []byte, m map[string]Impulse) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONImpulse(b, m[k])
	}
	return append(b, '}')
}

func (sf *SFCounter) appendJSON(b []byte) []byte {
	b = append(b, `{"area":`...)
	b = strconv.AppendInt(b, int64(sf.Area), 10)
	b = append(b, `,"effect":`...)
	b = appendJSONString(b, sf.Effect)
	if sf.Battle != 0 {
		b = append(b, `,"battle":`...)
		b = strconv.AppendInt(b, int64(sf.Battle), 10)
	}
	b = append(b, `,"placed":`...)
	b = appendJSONImpulse(b, sf.Placed)
	return append(b, '}')
}

// appendJSON appends a unit's JSON as json.Marshal writes it: what is
// false or empty left out (omitempty, omitzero).
func (u *UnitState) appendJSON(b []byte) []byte {
	if u == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"id":`...)
	b = appendJSONString(b, u.ID)
	b = append(b, `,"strength":`...)
	b = strconv.AppendInt(b, int64(u.Strength), 10)
	if !u.Place.IsZero() { // omitzero calls IsZero
		b = append(b, `,"place":`...)
		b = appendJSONPlace(b, u.Place)
	}
	flags := [...]struct {
		on   bool
		name string
	}{
		{u.Arrived, `,"arrived":true`},
		{u.Eliminated, `,"eliminated":true`},
		{u.Entrenched, `,"entrenched":true`},
		{u.Moved, `,"moved":true`},
		{u.Attacked, `,"attacked":true`},
		{u.Stayed, `,"stayed":true`},
		{u.Dismounted, `,"dismounted":true`},
		{u.InSupply, `,"in_supply":true`},
		{u.Exited, `,"exited":true`},
		{u.Bridging, `,"bridging":true`},
	}
	for _, f := range flags {
		if f.on {
			b = append(b, f.name...)
		}
	}
	if !u.TurnStart.IsZero() {
		b = append(b, `,"turn_start":`...)
		b = appendJSONPlace(b, u.TurnStart)
	}
	return append(b, '}')
}

// appendJSONPlace writes a place as its MarshalText does, quoted.
func appendJSONPlace(b []byte, p Place) []byte {
	if p.Zone == "" && p.Area != 0 {
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(p.Area), 10)
		return append(b, '"')
	}
	return appendJSONString(b, p.String())
}

// appendJSONImpulse writes an impulse as its MarshalText does, quoted.
func appendJSONImpulse(b []byte, i Impulse) []byte {
	b = append(b, '"')
	b = append(b, i.Side.Letter()...)
	b = strconv.AppendInt(b, int64(i.Day), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(i.N), 10)
	return append(b, '"')
}

// appendJSONControl writes the control of the areas, its keys sorted as
// encoding/json sorts an int-keyed map's: as the strings they are written
// as ("10" before "9"). Areas are numbered below 1000 (3.22): when every
// key is an area's and every side German or Allied, as in every game, the
// keys are put in that order by a table, with nothing to allocate; else
// they are sorted.
func appendJSONControl(b []byte, control map[int]Side) []byte {
	if control == nil {
		return append(b, "null"...)
	}
	order := areaKeyOrder()
	var at [areaKeys]uint8 // by the rank of an area's key: 1 German, 2 Allied
	for a, side := range control {
		if a < 0 || a >= areaKeys || side != German && side != Allied {
			return appendJSONControlSorted(b, control)
		}
		at[order.rank[a]] = 1
		if side == Allied {
			at[order.rank[a]] = 2
		}
	}
	b = append(b, '{')
	first := true
	for r, side := range at {
		if side == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, order.key[r]...)
		if side == 1 {
			b = append(b, `":"german"`...)
		} else {
			b = append(b, `":"allied"`...)
		}
	}
	return append(b, '}')
}

// appendJSONControlSorted is appendJSONControl for any keys and sides.
func appendJSONControlSorted(b []byte, control map[int]Side) []byte {
	type entry struct {
		key  string
		side Side
	}
	sorted := make([]entry, 0, len(control))
	for a, side := range control {
		sorted = append(sorted, entry{strconv.Itoa(a), side})
	}
	slices.SortFunc(sorted, func(x, y entry) int { return strings.Compare(x.key, y.key) })
	b = append(b, '{')
	for i, e := range sorted {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, e.key...)
		b = append(b, `":`...)
		b = appendJSONString(b, string(e.side))
	}
	return append(b, '}')
}

// areaKeys bounds the keys appendJSONControl orders by a table: the
// numbers of the areas.
const areaKeys = 1000

// areaKeyTable holds the keys 0 to 999 as strings in the order
// encoding/json sorts them, and each number's rank in that order.
type areaKeyTable struct {
	key  [areaKeys]string
	rank [areaKeys]int16
}

// areaKeyOrder returns the table, made the first time.
var areaKeyOrder = sync.OnceValue(func() *areaKeyTable {
	t := &areaKeyTable{}
	n := make([]int, areaKeys)
	for i := range n {
		n[i] = i
	}
	slices.SortFunc(n, func(a, b int) int { return strings.Compare(strconv.Itoa(a), strconv.Itoa(b)) })
	for r, a := range n {
		t.key[r], t.rank[a] = strconv.Itoa(a), int16(r)
	}
	return t
})

// appendJSONStrings writes a list of strings.
func appendJSONStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendJSONString writes a string as encoding/json does. Strings of
// printable ASCII with nothing to escape, which is every id, side and
// place, are written as they are; any other is left to json.Marshal, whose
// escaping (HTML characters, control characters, invalid UTF-8, U+2028)
// is then certainly the same.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendJSONMarshal(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONMarshal appends v as json.Marshal writes it.
func appendJSONMarshal(b []byte, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		// Strings and the standing orders are plain data: marshalling
		// them cannot fail.
		panic("rules: marshalling a state: " + err.Error())
	}
	return append(b, data...)
}
