package adjudicator

import (
	"reflect"
	"strings"
	"unicode"

	"titm/rules"
)

// EventRecord is an event as programs read it: its kind, the text the
// report prints, and its fields by name (unit, path, mp, roll, need,
// modifiers, hits, bridge, side ...), so that a reader need not parse the
// text.
type EventRecord struct {
	Type   string         `json:"type"`
	Text   string         `json:"text"`
	Fields map[string]any `json:"fields"`
}

// EventOf returns the event's record. Its fields are the event's own, named
// in snake_case; places are written as in orders (an area number or a zone
// letter), impulses as G16-1, sides as "german" or "allied".
func EventOf(e rules.Event) EventRecord {
	v := reflect.ValueOf(e)
	r := EventRecord{Type: v.Type().Name(), Text: e.String(), Fields: map[string]any{}}
	if v.Kind() != reflect.Struct {
		return r
	}
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if _, ok := e.(rules.Moved); ok && f.Name == "Steps" {
			// The steps are for the report; the record keeps the form
			// readers of titm adjudicate --json know, and its path and MP
			// give the move.
			continue
		}
		r.Fields[snake(f.Name)] = plain(v.Field(i))
	}
	if m, ok := e.(rules.Moved); ok && len(m.Path) > 0 {
		r.Fields["from"] = placeValue(m.Path[0])
		r.Fields["to"] = placeValue(m.Path[len(m.Path)-1])
	}
	return r
}

// plain turns a field into a value encoding/json writes as a reader expects:
// places and impulses as their text, structs field by field in snake_case.
func plain(v reflect.Value) any {
	switch x := v.Interface().(type) {
	case rules.Place:
		return placeValue(x)
	case rules.Impulse:
		return x.String()
	case rules.Side:
		return string(x)
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return []any{}
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plain(v.Index(i))
		}
		return out
	case reflect.Struct:
		m := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				m[snake(f.Name)] = plain(v.Field(i))
			}
		}
		return m
	case reflect.String:
		return v.String()
	}
	return v.Interface()
}

// placeValue writes an area as its number and a zone as its letter.
func placeValue(p rules.Place) any {
	if p.IsZone() {
		return p.Zone
	}
	return p.Area
}

// snake writes a Go field name in snake_case: GermanSP becomes german_sp,
// MP mp.
func snake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
