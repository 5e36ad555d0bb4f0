package picture

import (
	"bytes"
	"image"
	"sync"
	"testing"

	"titm/adjudicator/lang"
	"titm/rules"
	"titm/rules/scenarios"
)

// The bounds TestZoneBlocks holds the plan to.
const (
	// zoneReach is how far from a zone's disc, centre to nearest counter,
	// the zone's stack may lie: a counter's height beyond the disc's edge.
	// The stack stands under or over the disc itself, not at the far end
	// of the zone's name, so that the eye goes from the disc straight to
	// its first counter, with nothing of another place between.
	zoneReach = zoneR + counterH
	// maxLeader is the longest leader line allowed: 110 pixels, the radius
	// within which placingOrder counts a town's neighbours. A longer line
	// passes by other towns, and the eye follows it to the wrong one.
	maxLeader = 110
)

// TestZoneBlocks checks, at the start of the scenarios with the most units
// in their zones (3.21, 11.11), that every zone's stack stands against its
// marker, as an area's against its label, with no leader line, close to the
// disc; that no leader line crosses another place's box; and that none is
// longer than maxLeader.
func TestZoneBlocks(t *testing.T) {
	for _, n := range []string{"campaign", "three-days"} {
		s := load(t, n)
		st := rules.NewState(s)
		p := Layout(s, st)
		zones := 0
		for _, sb := range p.Stacks {
			if !sb.Place.IsZone() {
				continue
			}
			zones++
			z := zoneBox(t, p, sb.Place)
			if d := rectDist(z.Rect, sb.Rect); d > clearance+2 {
				t.Errorf("%s: the stack of zone %s, %v, is %d pixels from its marker %v; want it against it", n, sb.Place, sb.Rect, d, z.Rect)
			}
			at := ptVec(z.Anchor)
			if d := nearest(sb.Rect, at).sub(at).len(); d > zoneReach {
				t.Errorf("%s: the stack of zone %s, %v, is %.0f pixels from the disc at %v; want at most %d", n, sb.Place, sb.Rect, d, z.Anchor, zoneReach)
			}
			for _, l := range p.leaders {
				if l[0].pt() == z.Anchor {
					t.Errorf("%s: zone %s's stack hangs on a leader line %v-%v", n, sb.Place, l[0].pt(), l[1].pt())
				}
			}
		}
		if zones == 0 {
			t.Errorf("%s: no zone holds units at the start", n)
		}
		if c := leaderCrossings(p, t.Errorf); c > 0 {
			t.Errorf("%s: %d leader lines cross another place's box", n, c)
		}
		for _, l := range p.leaders {
			if d := l[1].sub(l[0]).len(); d > maxLeader {
				t.Errorf("%s: the leader line %v-%v is %.0f pixels long; want at most %d", n, l[0].pt(), l[1].pt(), d, maxLeader)
			}
		}
		if t.Failed() {
			writePicture(t, n+"-zones.png", render(t, s, st, nil))
		}
	}
}

// zoneBox returns the marker of a zone.
func zoneBox(t *testing.T, p *Plan, pl rules.Place) Box {
	t.Helper()
	for _, z := range p.Zones {
		if z.Place == pl {
			return z
		}
	}
	t.Fatalf("zone %s has no marker", pl)
	return Box{Rect: image.Rectangle{}}
}

// TestSpareIndexEmptied: a plan laid in an index another plan was done
// with is the plan laid in a new one: the boxes, the leader lines and the
// boxes that last blocked of the plan before are all gone from it.
func TestSpareIndexEmptied(t *testing.T) {
	s, st, ev := crowded(t)
	opt := &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)}
	start := &Options{Title: TitleBefore(lang.EN(), "campaign-3", rules.Impulse{Day: 16, N: 1}, 0)}
	render(t, s, st, opt) // the base made, or taken first in the list
	bases.Lock()
	b := bases.list[0] // the latest first: the crowded picture's
	bases.Unlock()
	drop := func() {
		b.spare.Lock()
		b.spare.list = nil
		b.spare.Unlock()
	}
	// Each picture as laid out in a new index: the base keeps none.
	drop()
	want := render(t, s, st, opt)
	drop()
	wantStart := render(t, s, rules.NewState(s), start)
	for _, c := range []struct {
		name  string
		first func() []byte
		st    *rules.State
		opt   *Options
		want  []byte
	}{
		{"crowded after the start", func() []byte { return render(t, s, rules.NewState(s), start) }, st, opt, want},
		{"the start after the crowded", func() []byte { return render(t, s, st, opt) }, rules.NewState(s), start, wantStart},
	} {
		drop()
		c.first()
		b.spare.Lock()
		n := len(b.spare.list)
		b.spare.Unlock()
		if n == 0 {
			t.Fatalf("%s: no index kept", c.name)
		}
		// Kept, an index holds nothing of the plan that used it: no
		// box, no leader, not the boxes a search last met.
		b.spare.Lock()
		for _, ix := range b.spare.list {
			boxes, leaders := 0, len(ix.leaders)
			for _, c := range ix.cells {
				boxes += len(c)
			}
			for _, c := range ix.leaderCells {
				leaders += len(c)
			}
			if boxes > 0 || leaders > 0 || ix.owner != (rules.Place{}) || ix.blocker != nil || ix.crosser != nil {
				t.Errorf("%s: an index kept holds %d boxes, %d leaders, owner %v, blocker %v, crosser %v", c.name, boxes, leaders, ix.owner, ix.blocker, ix.crosser)
			}
		}
		b.spare.Unlock()
		if got := render(t, s, c.st, c.opt); !bytes.Equal(got, c.want) {
			t.Errorf("%s: the picture differs from the one laid out in a new index", c.name)
		}
	}
}

// TestKeptAtOnce: what renders keep for the next of a scenario and
// language (bases, the plans' frames and fixed boxes) is the same, worked
// out by renders running at once, as worked out for each render alone,
// and each render takes its own scenario's and language's; a position
// with a unit where its scenario goes not lays out its own, keeping none.
// Every scenario in both languages is drawn alone with nothing kept, then
// twice more by renders all at once, and the bytes are the same.
func TestKeptAtOnce(t *testing.T) {
	type job struct {
		s   *rules.Scenario
		st  *rules.State
		opt *Options
	}
	var jobs []job
	for _, n := range scenarios.Names {
		s := load(t, n)
		for _, pr := range []*lang.Printer{lang.EN(), lang.For(lang.Japanese)} {
			jobs = append(jobs, job{s, rules.NewState(s), &Options{Title: TitleBefore(pr, n+"-1", rules.Impulse{Day: 16, N: 1}, 0), Lang: pr}})
		}
	}
	intro := jobs[0].s
	stray := rules.NewState(intro)
	for _, u := range stray.Units {
		if u.OnMap() {
			u.Place = rules.AreaPlace(88) // Bastogne, outside the intro's sector
			break
		}
	}
	jobs = append(jobs, job{intro, stray, nil})
	forget := func() {
		bases.Lock()
		bases.list = nil
		bases.Unlock()
	}
	// Each drawn with nothing kept from the others.
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		forget()
		want[i] = render(t, j.s, j.st, j.opt)
	}
	if len(bases.list) > 0 {
		t.Error("the base of a position with a unit outside its scenario is kept")
	}

	forget()
	got := make([][]byte, 2*len(jobs))
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			j := jobs[i%len(jobs)]
			var err error
			if got[i], err = Render(j.s, j.st, j.opt); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, g := range got {
		if !bytes.Equal(g, want[i%len(jobs)]) {
			t.Errorf("render %d of %d at once differs from the same drawn alone", i, len(got))
		}
	}
	if n := len(bases.list); n != len(jobs)-1 {
		t.Errorf("%d bases kept; want %d, one for each scenario and language", n, len(jobs)-1)
	}
}
