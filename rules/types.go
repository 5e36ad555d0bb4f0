package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Side is one of the two players.
type Side string

// The sides.
const (
	German Side = "german"
	Allied Side = "allied"
)

func (s Side) valid() bool { return s == German || s == Allied }

// Title names the side as reports and messages write it: German, Allied.
func (s Side) Title() string {
	if s == German {
		return "German"
	}
	return "Allied"
}

// Enemy returns the other side.
func (s Side) Enemy() Side {
	if s == German {
		return Allied
	}
	return German
}

// Letter is the side's one-letter prefix in impulse names: G or A.
func (s Side) Letter() string {
	if s == German {
		return "G"
	}
	return "A"
}

// UnitType is a unit's type (4.11).
type UnitType string

// The unit types (4.11). Airborne units are infantry.
const (
	Armor    UnitType = "armor"
	Engineer UnitType = "engineer"
	Mech     UnitType = "mech"
	Mot      UnitType = "mot"
	Infantry UnitType = "infantry"
)

// UnitTypes lists the types from the highest quality to the lowest (9.51).
var UnitTypes = []UnitType{Engineer, Armor, Mech, Mot, Infantry}

// TypeValues holds the values fixed by a unit's type (4.17).
type TypeValues struct {
	Attack, Defence, MP int
	Quality             int // 9.51: higher fires first and is the preferred target of its peers
}

// Values returns the attack, defence and movement values of the type (4.17)
// and its quality (9.51). ok is false for an unknown type.
func (t UnitType) Values() (v TypeValues, ok bool) {
	switch t {
	case Armor: // 4.17: 4-5-8
		return TypeValues{4, 5, 8, 4}, true
	case Engineer: // 4.17: 3-4-8, the highest quality (9.51)
		return TypeValues{3, 4, 8, 5}, true
	case Mech:
		return TypeValues{3, 4, 8, 3}, true
	case Mot:
		return TypeValues{3, 4, 8, 2}, true
	case Infantry: // 4.17: 3-4-5
		return TypeValues{3, 4, 5, 1}, true
	}
	return TypeValues{}, false
}

// InfantryType reports whether the type counts as infantry-type: every type
// but armour (4.0, used by 8.34, 8.5, 10.22, 13.14).
func (t UnitType) InfantryType() bool { return t != Armor }

// Service is a unit's nationality or service (4.12): cosmetic except where a
// scenario names units, and for the colours of the map picture.
type Service string

// The services of 4.12.
const (
	SS        Service = "ss"
	Heer      Service = "heer"
	Luftwaffe Service = "luftwaffe"
	US        Service = "us"
	British   Service = "british"
	Garrison  Service = "garrison" // Belgian, Norwegian and other Allied garrison units
)

// Side returns the side the service fights for, or "" if unknown.
func (s Service) Side() Side {
	switch s {
	case SS, Heer, Luftwaffe:
		return German
	case US, British, Garrison:
		return Allied
	}
	return ""
}

// RoadClass is the class of a road (3.22), which sets its cost (8.33).
type RoadClass string

// The road classes.
const (
	Primary   RoadClass = "primary"
	Secondary RoadClass = "secondary"
)

// Cost is the MP to enter an area along a road of the class (8.33).
func (c RoadClass) Cost() int {
	if c == Primary {
		return 1
	}
	return 2
}

// A Place is where a unit can be: a map area, by number, or a perimeter zone,
// by letter (3.21, 3.22). The zero Place is nowhere.
type Place struct {
	Area int
	Zone string

	bad string // what the file held when it was neither
}

// AreaPlace and ZonePlace make Places.
func AreaPlace(n int) Place                  { return Place{Area: n} }
func ZonePlace(id string) Place              { return Place{Zone: id} }
func (p Place) IsZone() bool                 { return p.Zone != "" }
func (p Place) IsZero() bool                 { return p.Area == 0 && p.Zone == "" && p.bad == "" }
func (p Place) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

func (p Place) String() string {
	switch {
	case p.Zone != "":
		return p.Zone
	case p.Area != 0:
		return strconv.Itoa(p.Area)
	}
	return p.bad
}

// UnmarshalTOML accepts an area number or a zone letter. It never fails, so
// that decoding goes on and every problem of a file is reported together; a
// value of any other kind is reported by the checks.
func (p *Place) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case int64:
		if v > 0 && v < 1000 {
			*p = Place{Area: int(v)}
		} else {
			*p = Place{bad: strconv.FormatInt(v, 10)}
		}
	case string:
		if n, err := strconv.Atoi(v); err == nil && n > 0 && n < 1000 {
			*p = Place{Area: n}
		} else if isZoneID(v) {
			*p = Place{Zone: v}
		} else {
			*p = Place{bad: fmt.Sprintf("%q", v)}
		}
	default:
		*p = Place{bad: fmt.Sprint(v)}
	}
	return nil
}

// ParsePlace reads an area number or a zone letter as written in orders and
// on the command line.
func ParsePlace(s string) (Place, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil && n > 0 && n < 1000 {
		return AreaPlace(n), nil
	}
	if u := strings.ToUpper(s); isZoneID(u) {
		return ZonePlace(u), nil
	}
	return Place{}, M("%q is neither an area number nor a zone letter A-P", s).Err()
}

// isZoneID reports whether s is a zone letter: one capital letter A to P (3.21).
func isZoneID(s string) bool { return len(s) == 1 && s[0] >= 'A' && s[0] <= 'P' }

// An Impulse names one player's impulse: side, day (16 to 22 December) and
// number (1 to 3; on 22 December only 1) (6.0, 8.1).
type Impulse struct {
	Side Side
	Day  int
	N    int
}

// String writes the impulse as G16-1 or A18-3.
func (i Impulse) String() string {
	return fmt.Sprintf("%s%d-%d", i.Side.Letter(), i.Day, i.N)
}

// Before reports whether i comes before j in the sequence of play: by day, by
// number, and the German impulse first (8.1).
func (i Impulse) Before(j Impulse) bool {
	if i.Day != j.Day {
		return i.Day < j.Day
	}
	if i.N != j.N {
		return i.N < j.N
	}
	return i.Side == German && j.Side == Allied
}

// First and last days of the game (6.0).
const (
	FirstDay = 16
	LastDay  = 22
)

// ImpulsesOn returns the number of impulses each side has on a day: three,
// but only one on 22 December (6.0).
func ImpulsesOn(day int) int {
	if day == LastDay {
		return 1
	}
	return 3
}

// ParseImpulse reads an impulse written as G16-1 or A18-3.
func ParseImpulse(s string) (Impulse, error) {
	var side Side
	switch {
	case strings.HasPrefix(s, "G"):
		side = German
	case strings.HasPrefix(s, "A"):
		side = Allied
	default:
		return Impulse{}, M("impulse %q must start with G (German) or A (Allied), as in G16-1", s).Err()
	}
	day, n, err := ParseDayImpulse(s[1:])
	if err != nil {
		return Impulse{}, err
	}
	return Impulse{side, day, n}, nil
}

// ParseDayImpulse reads "day-impulse" as printed on the turn record track and
// on reinforcement counters (4.14), such as 17-1.
func ParseDayImpulse(s string) (day, n int, err error) {
	d, i, ok := strings.Cut(s, "-")
	day, err1 := strconv.Atoi(d)
	n, err2 := strconv.Atoi(i)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, M("impulse %q is not of the form day-impulse, as 17-1", s).Err()
	}
	if day < FirstDay || day > LastDay {
		return 0, 0, M("impulse %q: the day must be %d to %d (December)", s, FirstDay, LastDay).Err()
	}
	if n < 1 || n > ImpulsesOn(day) {
		return 0, 0, M("impulse %q: %d December has impulses 1 to %d", s, day, ImpulsesOn(day)).Err()
	}
	return day, n, nil
}
