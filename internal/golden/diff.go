package golden

import (
	"fmt"
	"strings"
)

// context is how many unchanged lines a hunk shows around its changes, as
// diff -u does.
const context = 3

// An edit is one line of the edit script from one text to the other: kept
// (' '), deleted from the first ('-') or inserted from the second ('+').
type edit struct {
	kind byte
	line string
}

// Diff returns a unified diff from the text from (named fromName in the
// header) to the text to (named toName), with three lines of context, or ""
// if the texts are equal. A last line without a newline is marked as diff -u
// marks it, so that a missing newline at the end is seen.
func Diff(fromName, toName, from, to string) string {
	if from == to {
		return ""
	}
	edits := script(lines(from), lines(to))
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", fromName, toName)
	// before[i] counts the lines of each text that come before edit i, to
	// number the hunks.
	type count struct{ from, to int }
	before := make([]count, len(edits)+1)
	for i, e := range edits {
		before[i+1] = before[i]
		if e.kind != '+' {
			before[i+1].from++
		}
		if e.kind != '-' {
			before[i+1].to++
		}
	}
	for i := 0; i < len(edits); {
		for i < len(edits) && edits[i].kind == ' ' {
			i++
		}
		if i == len(edits) {
			break
		}
		// A hunk runs from context lines before its first change to context
		// lines after its last, taking in the next change when fewer than
		// 2*context unchanged lines part them, so that hunks never overlap.
		start := max(i-context, 0)
		end := i
		for end < len(edits) {
			if edits[end].kind != ' ' {
				end++
				continue
			}
			run := 0
			for end+run < len(edits) && edits[end+run].kind == ' ' {
				run++
			}
			if end+run == len(edits) || run > 2*context {
				end += min(run, context)
				break
			}
			end += run
		}
		from, to := before[start], before[end]
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(from.from, to.from-from.from), hunkRange(from.to, to.to-from.to))
		for _, e := range edits[start:end] {
			b.WriteByte(e.kind)
			b.WriteString(e.line)
			if !strings.HasSuffix(e.line, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return b.String()
}

// hunkRange writes the range of a hunk's lines in one text, as diff -u
// does: the first line (1-based) and the count, the count left out when it
// is 1, and an empty range named by the line before it.
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// lines splits a text into its lines, each with its newline but a last one
// that has none.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// script returns a shortest edit script from a to b, by Myers' algorithm
// ("An O(ND) difference algorithm and its variations", 1986). It keeps the
// furthest reach of each diagonal for every edit count d, which costs
// O(D²) memory for D edits: little for golden files, whose differences are
// few, and it keeps the backtracking plain.
func script(a, b []string) []edit {
	n, m := len(a), len(b)
	offset := n + m
	v := make([]int, 2*offset+2) // v[offset+k]: furthest x on diagonal k = x-y
	var trace [][]int            // trace[d]: v for diagonals -d..d after d edits
	x, y := 0, 0
search:
	for d := 0; d <= n+m; d++ {
		for k := -d; k <= d; k += 2 {
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1] // down from diagonal k+1: an insertion
			} else {
				x = v[offset+k-1] + 1 // right from diagonal k-1: a deletion
			}
			y = x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[offset+k] = x
			if x >= n && y >= m {
				break search
			}
		}
		trace = append(trace, append([]int(nil), v[offset-d:offset+d+1]...))
	}

	// Walk back from (n, m) to (0, 0), edit by edit, collecting the script
	// in reverse.
	var rev []edit
	x, y = n, m
	for d := len(trace); d > 0; d-- {
		prev := trace[d-1] // prev[k+d-1] is diagonal k's reach after d-1 edits
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		// The edit took (px, py) to mid, and the lines from there to (x, y)
		// are the same in both.
		var mid int
		var e edit
		if pk == k+1 {
			mid, e = px, edit{'+', b[py]}
		} else {
			mid, e = px+1, edit{'-', a[px]}
		}
		for x > mid {
			x, y = x-1, y-1
			rev = append(rev, edit{' ', a[x]})
		}
		rev = append(rev, e)
		x, y = px, py
	}
	for x > 0 {
		x, y = x-1, y-1
		rev = append(rev, edit{' ', a[x]})
	}
	edits := make([]edit, len(rev))
	for i, e := range rev {
		edits[len(rev)-1-i] = e
	}
	return edits
}
