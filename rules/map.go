package rules

import (
	"container/heap"
	"fmt"
)

// A Map is the game's geography: areas, perimeter zones, roads and bridges
// (3.0).
type Map struct {
	File     string `toml:"-"`
	Title    string `toml:"title"`
	Rulebook bool   `toml:"rulebook"` // the map claims to be the game's: the rulebook's facts are checked

	Areas   []*Area  `toml:"area"`
	Zones   []*Zone  `toml:"zone"`
	Roads   []*Road  `toml:"road"`
	NoRoads []NoRoad `toml:"no_road"`
	Rivers  []River  `toml:"river"`

	// Indexes, by area number and zone letter: arrays, because every order
	// line looks places up.
	area      [1000]*Area
	zone      [16]*Zone // A..P
	road      map[[2]int]*Road
	areaLinks [1000][]Link
	zoneLinks [16][]Link
}

// zoneIndex returns the index of a zone letter A..P, or -1.
func zoneIndex(id string) int {
	if !isZoneID(id) {
		return -1
	}
	return int(id[0] - 'A')
}

// An Area is a numbered, named area of the map (3.22).
type Area struct {
	ID        int      `toml:"id"`
	Name      string   `toml:"name"`
	Lat       float64  `toml:"lat"`
	Lon       float64  `toml:"lon"`
	VP        int      `toml:"vp"`        // 3.26
	Frontline bool     `toml:"frontline"` // 3.25
	Release   bool     `toml:"release"`   // 3.27
	Scenarios []string `toml:"scenarios"` // partial-map scenarios using it

	line int
}

// Label is the area as reports write it: "Bastogne (84)".
func (a *Area) Label() string { return fmt.Sprintf("%s (%d)", a.Name, a.ID) }

// A Zone is a perimeter zone at the map edge (3.21, 3.28, 11.13).
type Zone struct {
	ID           string   `toml:"id"`
	Name         string   `toml:"name"`
	Side         Side     `toml:"side"`
	VPMultiplier int      `toml:"vp_multiplier"` // 3.28
	ClosedTo     Side     `toml:"closed_to"`     // 11.22, 11.23
	Lat          float64  `toml:"lat"`
	Lon          float64  `toml:"lon"`
	Areas        []int    `toml:"areas"`      // joined by primary roads (11.13)
	Neighbours   []string `toml:"neighbours"` // 11.14
	Scenarios    []string `toml:"scenarios"`

	line int
}

// A Road joins two areas (3.22). If it crosses a river it has a bridge (3.23).
type Road struct {
	A      int       `toml:"a"`
	B      int       `toml:"b"`
	Class  RoadClass `toml:"class"`
	Bridge bool      `toml:"bridge"`
	River  string    `toml:"river"`
	Blown  bool      `toml:"blown"` // blown at the start of every scenario (5.1)

	line int
}

// ID names the road's bridge as orders do: "51-70", the lower number first.
func (r *Road) ID() string { return BridgeID(r.A, r.B) }

// BridgeID names the bridge between areas a and b: the lower number first.
func BridgeID(a, b int) string {
	if a > b {
		a, b = b, a
	}
	return fmt.Sprintf("%d-%d", a, b)
}

// A NoRoad records consecutive areas that touch (3.22) without a road between
// them, and why.
type NoRoad struct {
	A      int    `toml:"a"`
	B      int    `toml:"b"`
	Reason string `toml:"reason"`

	line int
}

// A River is drawn on the map picture as a line through its points.
type River struct {
	Name   string       `toml:"name"`
	Points [][2]float64 `toml:"points"` // [lat, lon], upstream first

	line int
}

// A Link is one way out of a place: a road to an area or the primary road
// into a zone (11.13).
type Link struct {
	To   Place
	Road *Road // nil for the road into or out of a zone
}

// Class is the class of the link's road: zones are joined by primary roads
// (11.13).
func (l Link) Class() RoadClass {
	if l.Road == nil {
		return Primary
	}
	return l.Road.Class
}

// Area returns the area numbered n, or nil.
func (m *Map) Area(n int) *Area {
	if n < 1 || n >= len(m.area) {
		return nil
	}
	return m.area[n]
}

// Zone returns the zone with the letter id, or nil.
func (m *Map) Zone(id string) *Zone {
	if i := zoneIndex(id); i >= 0 {
		return m.zone[i]
	}
	return nil
}

// Road returns the road between areas a and b, or nil if none joins them.
func (m *Map) Road(a, b int) *Road {
	if a > b {
		a, b = b, a
	}
	return m.road[[2]int{a, b}]
}

// Links returns the ways out of a place, in a fixed order.
func (m *Map) Links(p Place) []Link {
	if p.Zone != "" {
		if i := zoneIndex(p.Zone); i >= 0 {
			return m.zoneLinks[i]
		}
		return nil
	}
	if p.Area < 1 || p.Area >= len(m.areaLinks) {
		return nil
	}
	return m.areaLinks[p.Area]
}

func (m *Map) addLink(from Place, l Link) {
	if from.Zone != "" {
		i := zoneIndex(from.Zone)
		m.zoneLinks[i] = append(m.zoneLinks[i], l)
		return
	}
	m.areaLinks[from.Area] = append(m.areaLinks[from.Area], l)
}

// Has reports whether the place exists on the map.
func (m *Map) Has(p Place) bool {
	if p.IsZone() {
		return m.Zone(p.Zone) != nil
	}
	return m.Area(p.Area) != nil
}

// PlaceName writes a place as reports do: "Bastogne (84)" or "zone G".
func (m *Map) PlaceName(p Place) string {
	if p.IsZone() {
		return "zone " + p.Zone
	}
	if a := m.Area(p.Area); a != nil {
		return a.Label()
	}
	return p.String()
}

// index builds the lookup tables. It tolerates broken data: duplicates keep
// the first, links to unknown places are left out; the checks report them.
func (m *Map) index() {
	m.road = make(map[[2]int]*Road, len(m.Roads))
	for _, a := range m.Areas {
		if a.ID > 0 && a.ID < len(m.area) && m.area[a.ID] == nil {
			m.area[a.ID] = a
		}
	}
	for _, z := range m.Zones {
		if i := zoneIndex(z.ID); i >= 0 && m.zone[i] == nil {
			m.zone[i] = z
		}
	}
	for _, r := range m.Roads {
		k := [2]int{min(r.A, r.B), max(r.A, r.B)}
		if _, dup := m.road[k]; dup || r.A == r.B || m.Area(r.A) == nil || m.Area(r.B) == nil {
			continue
		}
		m.road[k] = r
		m.addLink(AreaPlace(r.A), Link{AreaPlace(r.B), r})
		m.addLink(AreaPlace(r.B), Link{AreaPlace(r.A), r})
	}
	for _, z := range m.Zones {
		if m.Zone(z.ID) != z {
			continue
		}
		for _, n := range z.Areas {
			if m.Area(n) == nil {
				continue
			}
			m.addLink(ZonePlace(z.ID), Link{AreaPlace(n), nil})
			m.addLink(AreaPlace(n), Link{ZonePlace(z.ID), nil})
		}
	}
}

// CheapestPath returns the least MP to go from one place to another and the
// path taken, counting only the road costs of 8.33 (primary 1, secondary 2).
// pass reports whether a link may be used; nil allows every link. ok is false
// if no path exists. It is the bare road geometry: occupied areas, supply and
// the other conditions of 8.2-8.3 belong to the movement rules.
func (m *Map) CheapestPath(from, to Place, pass func(from Place, l Link) bool) (cost int, path []Place, ok bool) {
	dist := map[Place]int{from: 0}
	prev := map[Place]Place{}
	q := &placeQueue{{from, 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(placeItem)
		if it.cost > dist[it.p] {
			continue
		}
		if it.p == to {
			for p := to; p != from; p = prev[p] {
				path = append([]Place{p}, path...)
			}
			return it.cost, append([]Place{from}, path...), true
		}
		for _, l := range m.Links(it.p) {
			if pass != nil && !pass(it.p, l) {
				continue
			}
			c := it.cost + l.Class().Cost()
			if d, seen := dist[l.To]; !seen || c < d {
				dist[l.To] = c
				prev[l.To] = it.p
				heap.Push(q, placeItem{l.To, c})
			}
		}
	}
	return 0, nil, false
}

type placeItem struct {
	p    Place
	cost int
}

type placeQueue []placeItem

func (q placeQueue) Len() int { return len(q) }
func (q placeQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	// A fixed tie-break keeps the path returned the same from run to run.
	if q[i].p.Area != q[j].p.Area {
		return q[i].p.Area < q[j].p.Area
	}
	return q[i].p.Zone < q[j].p.Zone
}
func (q placeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *placeQueue) Push(x any)   { *q = append(*q, x.(placeItem)) }
func (q *placeQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
