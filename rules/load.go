package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/BurntSushi/toml"
)

// A ReadFunc reads a data file by name. Names are slash-separated; a scenario
// names its map and order of battle relative to its own name.
type ReadFunc func(name string) ([]byte, error)

// LoadMap reads the map file name and checks it (3.0). The error, if any, is
// Problems.
func LoadMap(read ReadFunc, name string) (*Map, error) {
	m, ps := loadMap(read, name)
	if len(ps) > 0 {
		return nil, ps.sorted()
	}
	return m, nil
}

// LoadOOB reads the order of battle name and checks it against the map m.
// The error, if any, is Problems.
func LoadOOB(read ReadFunc, name string, m *Map) (*OOB, error) {
	o, ps := loadOOB(read, name, m)
	if len(ps) > 0 {
		return nil, ps.sorted()
	}
	return o, nil
}

// LoadScenario reads the scenario file name with the map and order of battle
// it names, checks all three, and resolves the scenario's units. Every problem
// of the three files is returned together as Problems.
func LoadScenario(read ReadFunc, name string) (*Scenario, error) {
	s := &Scenario{File: name}
	loc, ps := decode(read, name, s)
	if loc == nil {
		return nil, ps.sorted()
	}
	if s.MapFile == "" || s.OOBFile == "" {
		ps = append(ps, Problem{name, 0, `a scenario must name its files: map = "map.toml" and oob = "oob.toml"`})
		return nil, ps.sorted()
	}
	m, mps := loadMap(read, relative(name, s.MapFile))
	ps = append(ps, mps...)
	if m == nil {
		return nil, ps.sorted()
	}
	o, ops := loadOOB(read, relative(name, s.OOBFile), m)
	ps = append(ps, ops...)
	if o == nil {
		return nil, ps.sorted()
	}
	s.Map, s.OOB = m, o
	ps = append(ps, checkScenario(s, loc)...)
	if len(ps) > 0 {
		return nil, ps.sorted()
	}
	return s, nil
}

// relative resolves ref against the directory of the file base.
func relative(base, ref string) string {
	if path.IsAbs(ref) {
		return ref
	}
	return path.Join(path.Dir(base), ref)
}

func loadMap(read ReadFunc, name string) (*Map, Problems) {
	m := &Map{File: name}
	loc, ps := decode(read, name, m)
	if loc == nil {
		return nil, ps
	}
	setLines(loc, m)
	m.index()
	ps = append(ps, checkMap(m, loc)...)
	return m, ps
}

func loadOOB(read ReadFunc, name string, m *Map) (*OOB, Problems) {
	o := &OOB{File: name}
	loc, ps := decode(read, name, o)
	if loc == nil {
		return nil, ps
	}
	for i, g := range o.Groups {
		g.line = loc.item("group", i)
	}
	for i, u := range o.Units {
		u.line = loc.item("unit", i)
	}
	o.index()
	ps = append(ps, checkOOB(o, m, loc)...)
	return o, ps
}

func setLines(loc *locator, m *Map) {
	for i, a := range m.Areas {
		a.line = loc.item("area", i)
	}
	for i, z := range m.Zones {
		z.line = loc.item("zone", i)
	}
	for i, r := range m.Roads {
		r.line = loc.item("road", i)
	}
	for i := range m.NoRoads {
		m.NoRoads[i].line = loc.item("no_road", i)
	}
	for i := range m.Rivers {
		m.Rivers[i].line = loc.item("river", i)
	}
}

// decode reads and decodes one file. It returns a nil locator if the file
// cannot be read or does not parse; unknown keys are problems but decoding
// goes on.
func decode(read ReadFunc, name string, v any) (*locator, Problems) {
	data, err := read(name)
	if err != nil {
		return nil, Problems{{name, 0, fmt.Sprintf("cannot read the file: %v", err)}}
	}
	md, err := toml.Decode(string(data), v)
	if err != nil {
		line, msg := TOMLError(err)
		return nil, Problems{{name, line, msg}}
	}
	loc := NewTOMLLines(data)
	var ps Problems
	undecoded := map[string]bool{}
	for _, k := range md.Undecoded() {
		undecoded[k.String()] = true
	}
	for _, k := range md.Undecoded() {
		table, key := strings.Join(k[:len(k)-1], "."), k[len(k)-1]
		if undecoded[table] {
			continue // reported with its table
		}
		lines := loc.headerLines(k.String())
		if len(lines) == 0 {
			lines = loc.keyLines(table, key)
		}
		if len(lines) == 0 {
			lines = []int{0}
		}
		for _, n := range lines {
			ps = append(ps, Problem{name, n, fmt.Sprintf("unknown key %q%s (the keys are listed in docs/data-format.md)", key, inTable(table))})
		}
	}
	return loc, ps
}

func inTable(t string) string {
	if t == "" {
		return ""
	}
	return " in [" + t + "]"
}
