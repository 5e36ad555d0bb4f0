package picture

import (
	"image"
	"math"

	"titm/rules"
)

// tintRadius is how far from its town an area's ground is tinted. The data
// gives areas no borders, only towns (3.22), so an area is drawn as the
// ground nearer its town than any other (a Voronoi cell), no farther than
// this.
const tintRadius = 5.5 // km

// The ground of every controlled area is tinted with its side's colour
// (12.22), so that the front line shows where the tints meet.

// tintCells returns which area's ground each pixel of the map is: the
// areas drawn, by id, and for each pixel of r, the map inset by a pixel,
// row by row, the index of its area among them, or -1 for a pixel farther
// than tintRadius from every town. Which areas a position controls changes
// only their tints: the cells are worked out once for the scenario (see
// ground).
func (p *Plan) tintCells() (ids []int, r image.Rectangle, own []int16) {
	type site struct{ at vec }
	var sites []site
	for _, a := range p.s.Map.Areas {
		at, used := p.anchor[rules.AreaPlace(a.ID)]
		if !used {
			continue
		}
		ids = append(ids, a.ID)
		sites = append(sites, site{at})
	}
	r = p.Map.Inset(1)
	own = make([]int16, r.Dx()*r.Dy())
	for i := range own {
		own[i] = -1
	}
	if len(sites) == 0 {
		return ids, r, own
	}
	if len(sites) > math.MaxInt16 {
		panic("picture: more areas than a tint cell can tell apart")
	}
	fill := func(b image.Rectangle, n int) {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := own[(y-r.Min.Y)*r.Dx():]
			for x := b.Min.X; x < b.Max.X; x++ {
				row[x-r.Min.X] = int16(n)
			}
		}
	}
	R := tintRadius * p.proj.k / 111.2 // pixels
	R2 := R * R
	// Only a town within R can tint a pixel, and the nearest town within R
	// is the nearest of all: the towns are sorted into buckets R wide, and
	// a pixel looks only at its bucket and the eight round it.
	bw := int(math.Ceil(R))
	bcols, brows := p.Width/bw+1, p.Height/bw+1
	buckets := make([][]int, bcols*brows)
	for i, s := range sites {
		bx, by := int(s.at.X)/bw, int(s.at.Y)/bw
		if bx >= 0 && by >= 0 && bx < bcols && by < brows {
			buckets[by*bcols+bx] = append(buckets[by*bcols+bx], i)
		}
	}
	nearestSite := func(x, y float64) (int, float64) {
		best, bd := -1, math.Inf(1)
		bx, by := int(x)/bw, int(y)/bw
		for j := max(by-1, 0); j <= min(by+1, brows-1); j++ {
			for i := max(bx-1, 0); i <= min(bx+1, bcols-1); i++ {
				for _, n := range buckets[j*bcols+i] {
					dx, dy := sites[n].at.X-x, sites[n].at.Y-y
					if d := dx*dx + dy*dy; d < bd {
						best, bd = n, d
					}
				}
			}
		}
		return best, bd
	}
	// The nearest town at the corners of a grid of blocks. A Voronoi cell
	// cut to a disc is convex: a block whose four corners fall in the same
	// cut cell lies wholly in it and is filled at once; only blocks on a
	// border are worked out pixel by pixel.
	const B = 8
	cols, rows := (r.Dx()+B-1)/B+1, (r.Dy()+B-1)/B+1
	owner := make([]int, cols*rows)
	dist := make([]float64, cols*rows)
	for j := range rows {
		for i := range cols {
			owner[j*cols+i], dist[j*cols+i] = nearestSite(float64(r.Min.X+i*B)+0.5, float64(r.Min.Y+j*B)+0.5)
		}
	}
	var cands []int
	for j := 0; j+1 < rows; j++ {
		for i := 0; i+1 < cols; i++ {
			blk := image.Rect(r.Min.X+i*B, r.Min.Y+j*B, r.Min.X+(i+1)*B, r.Min.Y+(j+1)*B).Intersect(r)
			k := [4]int{j*cols + i, j*cols + i + 1, (j+1)*cols + i, (j+1)*cols + i + 1}
			o := owner[k[0]]
			same, inside, outside := true, true, true
			for _, n := range k {
				same = same && owner[n] == o
				inside = inside && dist[n] <= R2
				// Every pixel of the block is within 0.71 B of a corner.
				outside = outside && dist[n] > (R+B)*(R+B)
			}
			switch {
			case outside:
				continue
			case same && inside:
				fill(blk, o)
				continue
			}
			// A border block: only the towns near enough to its middle can
			// own one of its pixels.
			cx, cy := float64(blk.Min.X)+B/2, float64(blk.Min.Y)+B/2
			_, dc := nearestSite(cx, cy)
			lim := math.Sqrt(dc) + 1.5*B
			cands = cands[:0]
			bx, by := int(cx)/bw, int(cy)/bw
			for y := max(by-1, 0); y <= min(by+1, brows-1); y++ {
				for x := max(bx-1, 0); x <= min(bx+1, bcols-1); x++ {
					for _, n := range buckets[y*bcols+x] {
						if dx, dy := sites[n].at.X-cx, sites[n].at.Y-cy; dx*dx+dy*dy <= lim*lim {
							cands = append(cands, n)
						}
					}
				}
			}
			for y := blk.Min.Y; y < blk.Max.Y; y++ {
				for x := blk.Min.X; x < blk.Max.X; x++ {
					n, d := -1, math.Inf(1)
					for _, m := range cands {
						dx, dy := sites[m].at.X-float64(x)-0.5, sites[m].at.Y-float64(y)-0.5
						if dd := dx*dx + dy*dy; dd < d {
							n, d = m, dd
						}
					}
					if n >= 0 && d <= R2 {
						own[(y-r.Min.Y)*r.Dx()+x-r.Min.X] = int16(n)
					}
				}
			}
		}
	}
	return ids, r, own
}
