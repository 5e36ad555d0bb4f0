package rules

// A general algorithm, kept apart from the rules that use it: maximum flow
// by shortest augmenting paths. HoleLines (victory.go) counts the holes in
// the Allied line with it.

// flowGraph is a directed graph with integer capacities, its nodes numbered
// from 0 in the order node made them.
type flowGraph struct {
	adj [][]*flowEdge
}

// A flowEdge carries flow up to its capacity; rev is its reverse, of
// capacity 0, which carries the negative of its flow.
type flowEdge struct {
	to, cap, flow int
	rev           *flowEdge
}

// node adds a node and returns its number.
func (g *flowGraph) node() int {
	g.adj = append(g.adj, nil)
	return len(g.adj) - 1
}

// edge adds an edge from a to b of capacity c.
func (g *flowGraph) edge(a, b, c int) {
	e := &flowEdge{to: b, cap: c}
	r := &flowEdge{to: a, rev: e}
	e.rev = r
	g.adj[a] = append(g.adj[a], e)
	g.adj[b] = append(g.adj[b], r)
}

// maxFlow finds a maximum flow from s to t by shortest augmenting paths
// (Edmonds-Karp) and returns its value. The flow stays on the edges.
func (g *flowGraph) maxFlow(s, t int) int {
	total := 0
	for {
		prev := make([]*flowEdge, len(g.adj))
		seen := make([]bool, len(g.adj))
		seen[s] = true
		queue := []int{s}
		for len(queue) > 0 && !seen[t] {
			x := queue[0]
			queue = queue[1:]
			for _, e := range g.adj[x] {
				if !seen[e.to] && e.cap-e.flow > 0 {
					seen[e.to] = true
					prev[e.to] = e
					queue = append(queue, e.to)
				}
			}
		}
		if !seen[t] {
			return total
		}
		push := 1 << 30
		for x := t; x != s; x = prev[x].rev.to {
			push = min(push, prev[x].cap-prev[x].flow)
		}
		for x := t; x != s; x = prev[x].rev.to {
			prev[x].flow += push
			prev[x].rev.flow -= push
		}
		total += push
	}
}

// usedEdge returns an edge out of x that carries flow, in the order the
// edges were added, or nil.
func (g *flowGraph) usedEdge(x int) *flowEdge {
	for _, e := range g.adj[x] {
		if e.cap > 0 && e.flow > 0 {
			return e
		}
	}
	return nil
}
