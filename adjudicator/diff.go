package adjudicator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A Difference is where two values part, as their JSON writes them: the
// path of the first field that differs (`dice[2].roll`, `settings.players[0].address`),
// in the order the JSON writes the fields, and the field's JSON on each
// side ("" where one side has no such element).
type Difference struct {
	Field            string
	Logged, Replayed string
}

// FirstDifference compares a logged value with the value a replay made
// of it, field by field as their JSON has them (struct fields in their
// order, arrays by index, maps by sorted key), and returns the first
// field whose JSON differs, or nil when the two write the same JSON. It
// works on any type, so a field added to a record is compared without
// anyone writing a comparison for it.
func FirstDifference(logged, replayed any) *Difference {
	return diff("", reflect.ValueOf(logged), reflect.ValueOf(replayed))
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

func jsonOf(v reflect.Value) string {
	if !v.IsValid() {
		return "null"
	}
	if !v.CanInterface() {
		return ""
	}
	data, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(data)
}

// leafDiff compares two values by their JSON alone.
func leafDiff(path string, a, b reflect.Value) *Difference {
	x, y := jsonOf(a), jsonOf(b)
	if x == y {
		return nil
	}
	return &Difference{Field: path, Logged: x, Replayed: y}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func diff(path string, a, b reflect.Value) *Difference {
	if !a.IsValid() || !b.IsValid() || a.Type() != b.Type() {
		return leafDiff(path, a, b)
	}
	t := a.Type()
	if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) && t.Kind() == reflect.Struct {
		return leafDiff(path, a, b)
	}
	var d *Difference
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return leafDiff(path, a, b)
		}
		return diff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		d = diffStruct(path, a, b)
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return leafDiff(path, a, b)
		}
		d = diffList(path, a, b)
	case reflect.Map:
		d = diffMap(path, a, b)
	}
	if d != nil {
		return d
	}
	// Whatever the parts do not tell (a field the JSON omits in one and
	// writes in the other, null against []) the JSON does.
	return leafDiff(path, a, b)
}

// diffStruct compares two structs field by field, by their JSON names.
func diffStruct(path string, a, b reflect.Value) *Difference {
	t := a.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if omitted(opts, a.Field(i)) && omitted(opts, b.Field(i)) {
			// Neither JSON writes the field.
			continue
		}
		switch {
		case f.Anonymous && name == "":
			// An embedded struct's fields are the outer JSON's.
			name = path
		case name == "":
			name = join(path, f.Name)
		default:
			name = join(path, name)
		}
		if d := diff(name, a.Field(i), b.Field(i)); d != nil {
			return d
		}
	}
	return nil
}

// diffList compares two slices or arrays element by element.
func diffList(path string, a, b reflect.Value) *Difference {
	for i := 0; i < a.Len() || i < b.Len(); i++ {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case i >= b.Len():
			return &Difference{Field: p, Logged: jsonOf(a.Index(i))}
		case i >= a.Len():
			return &Difference{Field: p, Replayed: jsonOf(b.Index(i))}
		}
		if d := diff(p, a.Index(i), b.Index(i)); d != nil {
			return d
		}
	}
	return nil
}

// diffMap compares two maps key by key, in the order of the keys.
func diffMap(path string, a, b reflect.Value) *Difference {
	var keys []string
	byKey := map[string][2]reflect.Value{}
	for j, m := range []reflect.Value{a, b} {
		it := m.MapRange()
		for it.Next() {
			k := fmt.Sprint(it.Key().Interface())
			v, seen := byKey[k]
			if !seen {
				keys = append(keys, k)
			}
			v[j] = it.Value()
			byKey[k] = v
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := byKey[k]
		p := join(path, k)
		switch {
		case !v[1].IsValid():
			return &Difference{Field: p, Logged: jsonOf(v[0])}
		case !v[0].IsValid():
			return &Difference{Field: p, Replayed: jsonOf(v[1])}
		}
		if d := diff(p, v[0], v[1]); d != nil {
			return d
		}
	}
	return nil
}

// Clone returns a deep copy of v made through its JSON, so that nothing of
// the copy shares memory with v: a verifier replays on copies, and never
// changes what it is given.
func Clone[T any](v *T) (*T, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("copying: %w", err)
	}
	var c T
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("copying: %w", err)
	}
	return &c, nil
}

// omitted reports whether the JSON leaves out a field of the value v with
// the tag's options opts: empty with omitempty, zero with omitzero.
func omitted(opts string, v reflect.Value) bool {
	for _, o := range strings.Split(opts, ",") {
		switch o {
		case "omitzero":
			if v.IsZero() {
				return true
			}
			if v.CanInterface() {
				if z, ok := v.Interface().(interface{ IsZero() bool }); ok && z.IsZero() {
					return true
				}
			}
		case "omitempty":
			switch v.Kind() {
			case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
				if v.Len() == 0 {
					return true
				}
			case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
				reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
				if v.IsZero() {
					return true
				}
			}
		}
	}
	return false
}
