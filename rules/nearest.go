package rules

import (
	"sort"
	"strings"
)

// A near is a candidate name and its edit distance from what was written.
type near struct {
	name string
	dist int
}

// nearest returns the candidates within limit of t by edit distance,
// compared without regard to case and through key (nil: the candidate
// itself), nearest first. Both the data checks and the order parser suggest
// names with it.
func nearest(t string, cands []string, key func(string) string, limit int) []near {
	lt := strings.ToLower(t)
	var out []near
	for _, c := range cands {
		k := c
		if key != nil {
			k = key(c)
		}
		if d := EditDistance(lt, strings.ToLower(k)); d <= limit {
			out = append(out, near{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].dist < out[j].dist })
	return out
}

// EditDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of neighbours each
// count one, so 116/06 is as near to 116/60 as to 116/16.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
