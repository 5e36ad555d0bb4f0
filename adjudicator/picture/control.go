package picture

import (
	"image"
	"math"

	"titm/rules"
)

// An area is drawn as a region: the data gives areas no borders, only
// towns (3.22), so an area is the ground nearer its town than any other (a
// Voronoi cell), no farther from it than a little over half its longest
// road to a neighbour drawn: neighbours' regions meet along their roads,
// and the map ends a little beyond its outer towns. The ground of every
// controlled area is tinted with its side's colour (12.22), so that the
// front line shows where the tints meet.
const (
	reachOfRoad = 0.75 // of an area's longest road, how far its region reaches
	minReach    = 4.0  // km: the least reach, for an area with short roads or none
	maxReach    = 14.0 // km
)

// Values of a pixel in the cells tintCells returns, besides an area's index.
const (
	offCell      = -1 // in no area: off the map
	edgeCell     = -2 // on the line between two areas, or at the map's edge
	outCell      = -3 // in an area of the map the scenario leaves out
	boundaryCell = -4 // on the scenario's boundary: between an area it uses and one it leaves out
)

// cellMap is what the cells are worked out from: the areas drawn and their
// towns, and how far each reaches.
type cellMap struct {
	ids []int // the areas drawn, by id
	// out counts the areas the scenario leaves out, whose towns follow
	// those of ids among the towns: their ground is outCell. The areas
	// drawn end where they meet, at the scenario's boundary.
	out   int
	towns *towns
	R     float64   // the greatest reach, in pixels
	R2    []float64 // the square of each town's reach
}

func (p *Plan) cellMap() *cellMap {
	cm := &cellMap{}
	var sites []vec // the towns of the areas drawn
	index := map[int]int{}
	for _, a := range p.s.Map.Areas {
		at, used := p.anchor[rules.AreaPlace(a.ID)]
		if !used {
			continue
		}
		index[a.ID] = len(cm.ids)
		cm.ids = append(cm.ids, a.ID)
		sites = append(sites, at)
	}
	// A scenario on part of the map (3.2) ends halfway to the towns of the
	// areas it leaves out: where the rulebook's map draws its boundary.
	if !p.s.WholeMap {
		for _, a := range p.s.Map.Areas {
			if _, used := p.anchor[rules.AreaPlace(a.ID)]; !used {
				index[a.ID] = len(sites)
				sites = append(sites, p.proj.at(a.Lat, a.Lon))
				cm.out++
			}
		}
	}
	if len(sites) > math.MaxInt16 {
		panic("picture: more areas than a tint cell can tell apart")
	}
	km := p.proj.k / 111.2 // pixels a km
	reach := make([]float64, len(sites))
	for i := len(cm.ids); i < len(sites); i++ {
		reach[i] = maxReach * km
	}
	for _, rd := range p.s.Map.Roads {
		i, okA := index[rd.A]
		j, okB := index[rd.B]
		n := len(cm.ids)
		switch {
		case !okA || !okB || i >= n && j >= n:
		case i < n && j < n:
			d := sites[i].sub(sites[j]).len() * reachOfRoad
			reach[i], reach[j] = math.Max(reach[i], d), math.Max(reach[j], d)
		default:
			// An area next to one left out reaches the boundary between.
			if i >= n {
				i, j = j, i
			}
			reach[i] = math.Max(reach[i], sites[i].sub(sites[j]).len()/2+2)
		}
	}
	cm.R2 = make([]float64, len(reach))
	for i := range reach {
		reach[i] = math.Max(minReach*km, math.Min(maxReach*km, reach[i]))
		cm.R = math.Max(cm.R, reach[i])
		cm.R2[i] = reach[i] * reach[i]
	}
	cm.towns = newTowns(sites, math.Max(cm.R, 1), p.Width, p.Height)
	return cm
}

// cells returns the cells of the pixels of r, row by row, in own if it has
// room, the lines between areas marked; the pixels of the first and last
// rows are marked against the rows above and below r.
func (cm *cellMap) cells(r image.Rectangle, own []int16) []int16 {
	const more = 2 // rows worked out above and below r: as wide as the boundary reaches
	n := r.Dx() * r.Dy()
	ext := image.Rect(r.Min.X, r.Min.Y-more, r.Max.X, r.Max.Y+more)
	m := ext.Dx() * ext.Dy()
	if cap(own) < m {
		own = make([]int16, m)
	}
	own = own[:m]
	for i := range own {
		own[i] = offCell
	}
	if len(cm.ids) > 0 {
		tc := &tinter{towns: cm.towns, r: ext, own: own, R: cm.R, R2: cm.R2}
		tc.fillBlocks()
	}
	for i, o := range own {
		if int(o) >= len(cm.ids) {
			own[i] = outCell
		}
	}
	markEdges(ext, own)
	copy(own, own[more*r.Dx():][:n])
	return own[:n]
}

// markEdges marks as edgeCell every pixel of an area whose right or lower
// neighbour is of another area or of none, and every pixel of none whose
// right or lower neighbour is of an area: a line a pixel or two wide
// between areas and round the map. Where an area meets one the scenario
// leaves out, it marks both pixels and the next on each side as
// boundaryCell: a line four pixels wide.
func markEdges(r image.Rectangle, own []int16) {
	w, h := r.Dx(), r.Dy()
	// The boundary first, on the cells as they are.
	var bound []int
	for y := range h {
		for x := range w {
			o := own[y*w+x]
			if x+1 < w && crosses(o, own[y*w+x+1]) {
				for dx := -1; dx <= 2; dx++ {
					if x+dx >= 0 && x+dx < w {
						bound = append(bound, y*w+x+dx)
					}
				}
			}
			if y+1 < h && crosses(o, own[(y+1)*w+x]) {
				for dy := -1; dy <= 2; dy++ {
					if y+dy >= 0 && y+dy < h {
						bound = append(bound, (y+dy)*w+x)
					}
				}
			}
		}
	}
	for _, i := range bound {
		own[i] = boundaryCell
	}
	// What the scenario leaves out is drawn as the ground off the map.
	for i, o := range own {
		if o == outCell {
			own[i] = offCell
		}
	}
	markAreaEdges(r, own)
}

// crosses reports whether two neighbouring pixels lie either side of the
// scenario's boundary.
func crosses(a, b int16) bool {
	return a >= 0 && b == outCell || a == outCell && b >= 0
}

func markAreaEdges(r image.Rectangle, own []int16) {
	w, h := r.Dx(), r.Dy()
	for y := range h {
		row := own[y*w : (y+1)*w]
		var below []int16
		if y+1 < h {
			below = own[(y+1)*w : (y+2)*w]
		}
		for x, o := range row {
			if o == edgeCell || o == boundaryCell {
				continue
			}
			right := o
			if x+1 < w {
				right = row[x+1]
			}
			down := o
			if below != nil {
				down = below[x]
			}
			if (right != o && right != edgeCell && right != boundaryCell) || (down != o && down != edgeCell && down != boundaryCell) {
				row[x] = edgeCell
			}
		}
	}
}

// towns finds the town nearest to a point. Only a town within R can tint a
// pixel, and the nearest town within R is the nearest of all: the towns are
// sorted into buckets R wide, and a point looks only at its bucket and the
// eight round it.
type towns struct {
	at           []vec
	bw           int // a bucket's width and height
	bcols, brows int
	buckets      [][]int // the towns of each bucket, by index into at, row by row
}

// newTowns sorts the towns at into buckets of width R over a picture of
// w x h pixels.
func newTowns(at []vec, R float64, w, h int) *towns {
	t := &towns{at: at, bw: int(math.Ceil(R))}
	t.bcols, t.brows = w/t.bw+1, h/t.bw+1
	t.buckets = make([][]int, t.bcols*t.brows)
	for i, s := range at {
		// A town off the picture, as one the scenario leaves out, may
		// still own pixels within R of it: it goes in the bucket on the
		// edge nearest it.
		if s.X < -R || s.Y < -R || s.X >= float64(w)+R || s.Y >= float64(h)+R {
			continue
		}
		bx := min(max(int(s.X)/t.bw, 0), t.bcols-1)
		by := min(max(int(s.Y)/t.bw, 0), t.brows-1)
		t.buckets[by*t.bcols+bx] = append(t.buckets[by*t.bcols+bx], i)
	}
	return t
}

// nearest returns the town nearest to x, y among those of its bucket and
// the eight round it, and the square of its distance; -1 and +Inf if there
// is none.
func (t *towns) nearest(x, y float64) (int, float64) {
	best, bd := -1, math.Inf(1)
	bx, by := int(x)/t.bw, int(y)/t.bw
	for j := max(by-1, 0); j <= min(by+1, t.brows-1); j++ {
		for i := max(bx-1, 0); i <= min(bx+1, t.bcols-1); i++ {
			for _, n := range t.buckets[j*t.bcols+i] {
				dx, dy := t.at[n].X-x, t.at[n].Y-y
				if d := dx*dx + dy*dy; d < bd {
					best, bd = n, d
				}
			}
		}
	}
	return best, bd
}

// within appends to out the towns within lim of x, y among those of its
// bucket and the eight round it, bucket by bucket, and returns it.
func (t *towns) within(x, y, lim float64, out []int) []int {
	bx, by := int(x)/t.bw, int(y)/t.bw
	for j := max(by-1, 0); j <= min(by+1, t.brows-1); j++ {
		for i := max(bx-1, 0); i <= min(bx+1, t.bcols-1); i++ {
			for _, n := range t.buckets[j*t.bcols+i] {
				if dx, dy := t.at[n].X-x, t.at[n].Y-y; dx*dx+dy*dy <= lim*lim {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// tintBlock is the side in pixels of the blocks tinter works in.
const tintBlock = 8

// tinter works out which town's ground each pixel of r is, into own (see
// tintCells). It finds the nearest town at the corners of a grid of
// blocks. A Voronoi cell cut to a disc is convex: a block whose four
// corners fall in the same cut cell lies wholly in it and is filled at
// once; only blocks on a border are worked out pixel by pixel.
type tinter struct {
	towns *towns
	r     image.Rectangle
	own   []int16
	R     float64   // the greatest reach, in pixels
	R2    []float64 // the square of each town's reach

	cols, rows int       // the grid of block corners
	owner      []int     // the nearest town at each corner, row by row
	dist       []float64 // the square of its distance
	cands      []int     // scratch: the towns that may own a border block's pixels
}

// fillBlocks works out the nearest towns at the corners of the blocks, then
// fills each block.
func (tc *tinter) fillBlocks() {
	const B = tintBlock
	r := tc.r
	tc.cols, tc.rows = (r.Dx()+B-1)/B+1, (r.Dy()+B-1)/B+1
	tc.owner = make([]int, tc.cols*tc.rows)
	tc.dist = make([]float64, tc.cols*tc.rows)
	for j := range tc.rows {
		for i := range tc.cols {
			tc.owner[j*tc.cols+i], tc.dist[j*tc.cols+i] = tc.towns.nearest(float64(r.Min.X+i*B)+0.5, float64(r.Min.Y+j*B)+0.5)
		}
	}
	for j := 0; j+1 < tc.rows; j++ {
		for i := 0; i+1 < tc.cols; i++ {
			tc.block(i, j)
		}
	}
}

// block fills the block of the grid at column i, row j: at once if it lies
// wholly in one town's cut cell, not at all if wholly beyond the reach of
// every town, else pixel by pixel.
func (tc *tinter) block(i, j int) {
	const B = tintBlock
	r, cols, R := tc.r, tc.cols, tc.R
	blk := image.Rect(r.Min.X+i*B, r.Min.Y+j*B, r.Min.X+(i+1)*B, r.Min.Y+(j+1)*B).Intersect(r)
	k := [4]int{j*cols + i, j*cols + i + 1, (j+1)*cols + i, (j+1)*cols + i + 1}
	o := tc.owner[k[0]]
	same, inside, outside := true, true, true
	for _, n := range k {
		same = same && tc.owner[n] == o
		inside = inside && tc.owner[n] >= 0 && tc.dist[n] <= tc.R2[tc.owner[n]]
		// Every pixel of the block is within 0.71 B of a corner.
		outside = outside && tc.dist[n] > (R+B)*(R+B)
	}
	switch {
	case outside:
		return
	case same && inside:
		tc.fill(blk, o)
		return
	}
	tc.border(blk)
}

// fill gives every pixel of b to town n.
func (tc *tinter) fill(b image.Rectangle, n int) {
	r, own := tc.r, tc.own
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := own[(y-r.Min.Y)*r.Dx():]
		for x := b.Min.X; x < b.Max.X; x++ {
			row[x-r.Min.X] = int16(n)
		}
	}
}

// border works out a block on a border pixel by pixel. Only the towns near
// enough to its middle can own one of its pixels.
func (tc *tinter) border(blk image.Rectangle) {
	const B = tintBlock
	cx, cy := float64(blk.Min.X)+B/2, float64(blk.Min.Y)+B/2
	_, dc := tc.towns.nearest(cx, cy)
	lim := math.Sqrt(dc) + 1.5*B
	tc.cands = tc.towns.within(cx, cy, lim, tc.cands[:0])
	r, own, cands, at, R2 := tc.r, tc.own, tc.cands, tc.towns.at, tc.R2
	for y := blk.Min.Y; y < blk.Max.Y; y++ {
		for x := blk.Min.X; x < blk.Max.X; x++ {
			n, d := -1, math.Inf(1)
			for _, m := range cands {
				dx, dy := at[m].X-float64(x)-0.5, at[m].Y-float64(y)-0.5
				if dd := dx*dx + dy*dy; dd < d {
					n, d = m, dd
				}
			}
			if n >= 0 && d <= R2[n] {
				own[(y-r.Min.Y)*r.Dx()+x-r.Min.X] = int16(n)
			}
		}
	}
}
