package rules

// A Scenario is one of the ways to play: which part of the map, which units,
// when it starts and ends, whose supply comes from where and how it is won.
type Scenario struct {
	File                      string     `toml:"-"`
	Name                      string     `toml:"name"`
	Title                     string     `toml:"title"`
	MapFile                   string     `toml:"map"`
	OOBFile                   string     `toml:"oob"`
	Start                     string     `toml:"start"`
	End                       string     `toml:"end"`
	WholeMap                  bool       `toml:"whole_map"`
	Blown                     []string   `toml:"blown"`
	SpecialForces             bool       `toml:"special_forces"` // 14.0
	Confined                  bool       `toml:"confined"`
	RemoveUnsuppliedOutsiders bool       `toml:"remove_unsupplied_outsiders"`
	Rules                     []string   `toml:"rules"`
	Supply                    Supply     `toml:"supply"`
	Select                    []Selector `toml:"units"`
	Victory                   Victory    `toml:"victory"`
	// Position, if given, is where the scenario starts instead of its
	// set-up: a test position, or a game taken up where it stands.
	Position *Position `toml:"position"`

	// Boundary is the colour of the line the rulebook's map draws round a
	// scenario that is not the whole map, where its map ends: "green" or
	// "red". The picture draws it there.
	Boundary string `toml:"boundary"`

	// Resolved by LoadScenario.
	Map          *Map    `toml:"-"`
	OOB          *OOB    `toml:"-"`
	StartImpulse Impulse `toml:"-"`
	EndImpulse   Impulse `toml:"-"`
	Units        []*Unit `toml:"-"` // the units that take part, in order-of-battle order

	blown map[string]bool
	unit  map[*Unit]bool
}

// Supply lists each side's supply sources (13.11).
type Supply struct {
	German []Place `toml:"german"`
	Allied []Place `toml:"allied"`
}

// Sources returns the supply sources of a side.
func (s Supply) Sources(side Side) []Place {
	if side == German {
		return s.German
	}
	return s.Allied
}

// A Selector picks units of the order of battle for a scenario.
type Selector struct {
	Formation string `toml:"formation"`
	At        Place  `toml:"at"`
	Arrives   string `toml:"arrives"`
	ID        string `toml:"id"`
}

// Victory holds a scenario's victory conditions (12.0 and the scenarios).
type Victory struct {
	Kind         string    `toml:"kind"` // "vp" or "control"
	MapVP        bool      `toml:"map_vp"`
	ZoneVP       bool      `toml:"zone_vp"`
	Areas        []int     `toml:"areas"`
	ControlledVP int       `toml:"controlled_vp"`
	ContestedVP  int       `toml:"contested_vp"`
	HolesFrom    []string  `toml:"holes_from"`
	HolesTo      []string  `toml:"holes_to"`
	HoleVP       int       `toml:"hole_vp"`
	Levels       []Level   `toml:"level"`
	Outcomes     []Outcome `toml:"outcome"`
}

// The kinds of victory condition.
const (
	VictoryVP      = "vp"
	VictoryControl = "control"
)

// A Level is the result for a German VP total from Min to Max.
type Level struct {
	Min    *int   `toml:"min"`
	Max    *int   `toml:"max"`
	Result string `toml:"result"`
}

// Includes reports whether the total falls in the level.
func (l Level) Includes(vp int) bool {
	return (l.Min == nil || vp >= *l.Min) && (l.Max == nil || vp <= *l.Max)
}

// An Outcome is the result for a count of the victory areas by their state at
// the end: German-controlled, contested (units of both sides), the rest.
type Outcome struct {
	German    int    `toml:"german"`
	Contested int    `toml:"contested"`
	Allied    int    `toml:"allied"`
	Result    string `toml:"result"`
}

// InPlay reports whether the unit takes part in the scenario.
func (s *Scenario) InPlay(u *Unit) bool { return s.unit[u] }

// BlownAtStart reports whether the bridge between areas a and b is blown when
// the scenario starts: one of the map's 5.1 bridges or one the scenario adds.
func (s *Scenario) BlownAtStart(a, b int) bool {
	r := s.Map.Road(a, b)
	return r != nil && r.Bridge && (r.Blown || s.blown[r.ID()])
}

// Uses reports whether the scenario's map includes the place: every place for
// a whole-map scenario, else the places whose scenarios list names it.
func (s *Scenario) Uses(p Place) bool {
	if s.WholeMap {
		return s.Map.Has(p)
	}
	var names []string
	if p.IsZone() {
		if z := s.Map.Zone(p.Zone); z != nil {
			names = z.Scenarios
		}
	} else if a := s.Map.Area(p.Area); a != nil {
		names = a.Scenarios
	}
	for _, n := range names {
		if n == s.Name {
			return true
		}
	}
	return false
}
