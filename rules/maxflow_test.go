package rules

import "testing"

// TestMaxFlow: maximum flows of small graphs (node 0 the source, the last
// node the sink), and the flow left on the edges adds up at the source.
func TestMaxFlow(t *testing.T) {
	cases := []struct {
		name  string
		nodes int
		edges [][3]int // from, to, capacity
		want  int
	}{
		{"no edge", 2, nil, 0},
		{"sink out of reach", 3, [][3]int{{0, 1, 1}}, 0},
		{"one edge", 2, [][3]int{{0, 1, 3}}, 3},
		{"bottleneck", 3, [][3]int{{0, 1, 5}, {1, 2, 2}}, 2},
		{"two disjoint paths", 4, [][3]int{{0, 1, 1}, {1, 3, 1}, {0, 2, 1}, {2, 3, 1}}, 2},
		// s=0 a=1 c=2 d=3 e=4 f=5 t=6: the first, shortest path s-a-d-t
		// takes d-t, which c needs; only sending a-d back (s-c-d-a-e-f-t)
		// finds the second line.
		{"flow sent back", 7, [][3]int{
			{0, 1, 1}, {0, 2, 1}, {1, 3, 1}, {1, 4, 1}, {2, 3, 1}, {3, 6, 1}, {4, 5, 1}, {5, 6, 1},
		}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := &flowGraph{}
			for range c.nodes {
				g.node()
			}
			for _, e := range c.edges {
				g.edge(e[0], e[1], e[2])
			}
			got := g.maxFlow(0, c.nodes-1)
			if got != c.want {
				t.Errorf("max flow %d, want %d", got, c.want)
			}
			out := 0
			for _, e := range g.adj[0] {
				if e.cap > 0 {
					out += e.flow
				}
			}
			if out != got {
				t.Errorf("flow out of the source %d, want %d", out, got)
			}
			if got > 0 && g.usedEdge(0) == nil {
				t.Errorf("no used edge out of the source")
			}
		})
	}
}
