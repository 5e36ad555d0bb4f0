package rules

import (
	"fmt"
	"sort"
	"strings"
)

// A Problem is one thing wrong with a data file: where it is and what would be
// right.
type Problem struct {
	File string // the file as the user named it
	Line int    // 1-based; 0 when the problem concerns the whole file
	Msg  string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// Problems is every problem found in a set of data files. It is returned as
// the error of the loaders when the files cannot be used.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// sorted returns the problems ordered by file and line, without duplicates.
func (ps Problems) sorted() Problems {
	out := append(Problems(nil), ps...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	uniq := out[:0]
	for i, p := range out {
		if i > 0 && p == out[i-1] {
			continue
		}
		uniq = append(uniq, p)
	}
	return uniq
}
