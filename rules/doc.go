// Package rules is the game of Tigers in the Mist: the map, the units, the
// scenarios and, in later files, the state and every rule that changes it.
//
// # Data
//
// The map, the order of battle and the scenarios are data, read from TOML
// files (see docs/data-format.md). [LoadScenario] reads a scenario with the map
// and order of battle it names and checks every reference and every fact the
// rulebook fixes; problems come back together as [Problems], each with its file
// and line, never only the first.
//
// # Purity
//
// The package does no I/O of its own: files come in through a [ReadFunc], and
// dice and time (in later files) through small interfaces. It keeps no global
// state.
package rules
