package rules

import "strings"

// An OOB is an order of battle: every unit of both sides with its set-up
// position or arrival (5.2, 11.0), and the conditional reinforcement groups
// (11.3).
type OOB struct {
	File     string   `toml:"-"`
	Title    string   `toml:"title"`
	Rulebook bool     `toml:"rulebook"` // the order of battle claims to be the game's: the rulebook's facts are checked
	Groups   []*Group `toml:"group"`
	Units    []*Unit  `toml:"unit"`

	unit  map[string]*Unit // by id as written, and by lower-case id
	group map[string]*Group
}

// A Group is a conditional reinforcement group, the panzer reserve, released
// when at the end of an Allied impulse the Germans have more SP than the
// Allies in any one of its release areas (11.3, 11.33).
type Group struct {
	ID      string `toml:"id"`
	Name    string `toml:"name"`
	Release []int  `toml:"release"`

	line int
}

// A Unit is one combat unit as printed on its counter (4.1).
type Unit struct {
	ID         string   `toml:"id"`
	Formation  string   `toml:"formation"`
	Name       string   `toml:"name"`
	Side       Side     `toml:"side"`
	Service    Service  `toml:"service"`
	Type       UnitType `toml:"type"`
	Strength   int      `toml:"strength"`   // 4.16
	Setup      Place    `toml:"setup"`      // 5.21
	Arrives    string   `toml:"arrives"`    // 4.14, 11.11: "17-1"
	Zones      []string `toml:"zones"`      // 11.11, B7
	Group      string   `toml:"group"`      // 11.3
	Entrenched bool     `toml:"entrenched"` // 5.22
	Triangle   bool     `toml:"triangle"`   // 5.23 (Allied, green), 5.24 (German, red)

	// Arrival is Arrives read, zero for units that do not arrive on a fixed
	// impulse.
	Arrival Impulse `toml:"-"`

	line  int
	index int // position in the order of battle
}

// Unit returns the unit with the id, compared without regard to case, or nil.
func (o *OOB) Unit(id string) *Unit {
	if u := o.unit[id]; u != nil {
		return u
	}
	return o.unit[strings.ToLower(id)]
}

// Group returns the group with the id, or nil.
func (o *OOB) Group(id string) *Group { return o.group[id] }

// Flags lists the unit's markers for inspection output: "red-triangle" or
// "green-triangle", "entrenched", "reserve:<group>".
func (u *Unit) Flags() []string {
	flags := []string{}
	if u.Triangle {
		if u.Side == German {
			flags = append(flags, "red-triangle")
		} else {
			flags = append(flags, "green-triangle")
		}
	}
	if u.Entrenched {
		flags = append(flags, "entrenched")
	}
	if u.Group != "" {
		flags = append(flags, "reserve:"+u.Group)
	}
	return flags
}

func (o *OOB) index() {
	o.unit = make(map[string]*Unit, len(o.Units))
	o.group = make(map[string]*Group, len(o.Groups))
	for i, u := range o.Units {
		u.index = i
		k := strings.ToLower(u.ID)
		if _, dup := o.unit[k]; !dup {
			o.unit[k] = u
		}
	}
	for _, u := range o.Units {
		if _, dup := o.unit[u.ID]; !dup {
			o.unit[u.ID] = u
		}
	}
	for _, g := range o.Groups {
		if _, dup := o.group[g.ID]; !dup {
			o.group[g.ID] = g
		}
	}
}
