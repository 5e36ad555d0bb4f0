package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"titm/rules"
	"titm/rules/scenarios"
)

// loadScenario loads what --scenario names, with a message fit for the
// command line when it cannot be used.
func loadScenario(name string) (*rules.Scenario, error) {
	if name == "" {
		return nil, usageError{"--scenario is required: a shipped scenario (" + strings.Join(scenarios.Names, ", ") + ") or a scenario file"}
	}
	s, err := scenarios.Load(name)
	var ps rules.Problems
	if errors.As(err, &ps) {
		return nil, fmt.Errorf("scenario %s cannot be used; its data has %d problem(s):\n%w", name, len(ps), ps)
	}
	return s, err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

var scenariosCmd = &command{
	name:    "scenarios",
	summary: "list the shipped scenarios",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		asJSON := fs.Bool("json", false, "print JSON: scenarios[] {name, title, start, end}")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			type row struct {
				Name  string `json:"name"`
				Title string `json:"title"`
				Start string `json:"start"`
				End   string `json:"end"`
			}
			var rows []row
			for _, n := range scenarios.Names {
				s, err := loadScenario(n)
				if err != nil {
					return err
				}
				rows = append(rows, row{s.Name, s.Title, s.StartImpulse.String(), s.EndImpulse.String()})
			}
			if *asJSON {
				return writeJSON(out, map[string]any{"scenarios": rows})
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tTITLE\tSTART\tEND")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Title, r.Start, r.End)
			}
			return tw.Flush()
		}
	},
}

// mapArea, mapZone and mapRoad are the JSON shapes of titm map --json.
type mapArea struct {
	ID        int     `json:"id"`
	Name      string  `json:"name"`
	Lat       float64 `json:"lat"`
	Lon       float64 `json:"lon"`
	VP        int     `json:"vp"`
	Frontline bool    `json:"frontline"`
	Release   bool    `json:"release"`
}

type mapZone struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Side         string `json:"side"`
	VPMultiplier int    `json:"vp_multiplier"`
	ClosedTo     string `json:"closed_to,omitempty"`
	Areas        []int  `json:"areas"`
}

type mapRoad struct {
	A      int    `json:"a"`
	B      any    `json:"b"` // an area number, or a zone letter
	Class  string `json:"class"`
	Bridge bool   `json:"bridge"`
	River  string `json:"river,omitempty"`
	Blown  bool   `json:"blown"`
}

// scenarioMap is the part of the map a scenario uses.
func scenarioMap(s *rules.Scenario) (areas []mapArea, zones []mapZone, roads []mapRoad) {
	m := s.Map
	for _, a := range m.Areas {
		if s.Uses(rules.AreaPlace(a.ID)) {
			areas = append(areas, mapArea{a.ID, a.Name, a.Lat, a.Lon, a.VP, a.Frontline, a.Release})
		}
	}
	for _, r := range m.Roads {
		if s.Uses(rules.AreaPlace(r.A)) && s.Uses(rules.AreaPlace(r.B)) {
			roads = append(roads, mapRoad{r.A, r.B, string(r.Class), r.Bridge, r.River, s.BlownAtStart(r.A, r.B)})
		}
	}
	for _, z := range m.Zones {
		if !s.Uses(rules.ZonePlace(z.ID)) {
			continue
		}
		mz := mapZone{z.ID, z.Name, string(z.Side), z.VPMultiplier, string(z.ClosedTo), []int{}}
		for _, n := range z.Areas {
			if s.Uses(rules.AreaPlace(n)) {
				mz.Areas = append(mz.Areas, n)
				// 11.13: each zone is joined to its areas by a primary road.
				roads = append(roads, mapRoad{n, z.ID, string(rules.Primary), false, "", false})
			}
		}
		zones = append(zones, mz)
	}
	return areas, zones, roads
}

var mapCmd = &command{
	name:    "map",
	summary: "show a scenario's map: areas, zones and roads",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		name := fs.String("scenario", "", "scenario name or file (required)")
		asJSON := fs.Bool("json", false, "print JSON: areas[], zones[], roads[]")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			s, err := loadScenario(*name)
			if err != nil {
				return err
			}
			areas, zones, roads := scenarioMap(s)
			if *asJSON {
				return writeJSON(out, map[string]any{"scenario": s.Name, "areas": areas, "zones": zones, "roads": roads})
			}
			fmt.Fprintf(out, "%s: %d areas, %d zones, %d roads\n\nAreas:\n", s.Title, len(areas), len(zones), len(roads))
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			for _, a := range areas {
				var marks []string
				if a.VP > 0 {
					marks = append(marks, fmt.Sprintf("%d VP", a.VP))
				}
				if a.Frontline {
					marks = append(marks, "front line")
				}
				if a.Release {
					marks = append(marks, "panzer reserve release")
				}
				var links []string
				for _, l := range s.Map.Links(rules.AreaPlace(a.ID)) {
					if !s.Uses(l.To) {
						continue
					}
					t := l.To.String()
					if l.Class() == rules.Secondary {
						t += "s"
					}
					if l.Road != nil && l.Road.Bridge {
						t += "="
						if s.BlownAtStart(l.Road.A, l.Road.B) {
							t += "x"
						}
					}
					links = append(links, t)
				}
				fmt.Fprintf(tw, "%4d\t%s\t%s\t-> %s\n", a.ID, a.Name, strings.Join(marks, ", "), strings.Join(links, " "))
			}
			tw.Flush()
			fmt.Fprint(out, "  (roads: s secondary, = bridge, =x blown at start)\n\nZones:\n")
			for _, z := range zones {
				extra := ""
				if z.VPMultiplier > 0 {
					extra += fmt.Sprintf(", VP x%d", z.VPMultiplier)
				}
				if z.ClosedTo != "" {
					extra += ", closed to " + z.ClosedTo
				}
				fmt.Fprintf(out, "  %s %s (%s%s) -> %v\n", z.ID, z.Name, z.Side, extra, z.Areas)
			}
			return nil
		}
	},
}

// unitRow is the JSON shape of titm units --json.
type unitRow struct {
	ID        string   `json:"id"`
	Formation string   `json:"formation"`
	Name      string   `json:"name"`
	Side      string   `json:"side"`
	Service   string   `json:"service"`
	Type      string   `json:"type"`
	Strength  int      `json:"strength"`
	Area      any      `json:"area"`    // area number, zone letter, or null before arrival
	Arrives   *string  `json:"arrives"` // "17-1", or null
	Zones     []string `json:"zones"`
	Flags     []string `json:"flags"`
}

var unitsCmd = &command{
	name:    "units",
	summary: "list a scenario's units with set-up, arrival and flags",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := c.out
		name := fs.String("scenario", "", "scenario name or file (required)")
		asJSON := fs.Bool("json", false, "print JSON: units[]")
		side := fs.String("side", "", "only this side: german or allied")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			if *side != "" && *side != "german" && *side != "allied" {
				return usageError{"--side must be german or allied"}
			}
			s, err := loadScenario(*name)
			if err != nil {
				return err
			}
			rows := []unitRow{}
			var units []*rules.Unit
			for _, u := range s.Units {
				if *side != "" && string(u.Side) != *side {
					continue
				}
				units = append(units, u)
				r := unitRow{ID: u.ID, Formation: u.Formation, Name: u.Name, Side: string(u.Side), Service: string(u.Service),
					Type: string(u.Type), Strength: u.Strength, Zones: u.Zones, Flags: u.Flags()}
				if r.Zones == nil {
					r.Zones = []string{}
				}
				switch {
				case u.Setup.IsZone():
					r.Area = u.Setup.Zone
				case u.Setup.Area != 0:
					r.Area = u.Setup.Area
				}
				if u.Arrives != "" {
					a := u.Arrives
					r.Arrives = &a
				}
				rows = append(rows, r)
			}
			if *asJSON {
				return writeJSON(out, map[string]any{"scenario": s.Name, "units": rows})
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSIDE\tTYPE\tSP\tWHERE\tFORMATION\tFLAGS")
			for i, r := range rows {
				u := units[i]
				where := ""
				switch {
				case !u.Setup.IsZero():
					where = s.Map.PlaceName(u.Setup)
				case u.Arrives != "":
					where = fmt.Sprintf("arrives %s in %s", u.Arrives, strings.Join(u.Zones, "/"))
				case u.Group != "":
					where = fmt.Sprintf("reserve %s, enters %s", u.Group, strings.Join(u.Zones, "/"))
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", r.ID, r.Side, r.Type, r.Strength, where, r.Formation, strings.Join(r.Flags, " "))
			}
			return tw.Flush()
		}
	},
}
