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
// # Orders and play
//
// [ParseOrders] reads an order mail into typed orders and checks what needs
// no position. [Play] plays one impulse on a [State] with the side's orders
// and [Dice], refusing every illegal order with its line and rule before any
// die is rolled, and returns the new state and the events, for the reports.
//
// # Purity
//
// The package does no I/O of its own: files come in through a [ReadFunc],
// dice through the [Dice] interface. It keeps no state between calls and no
// clock; the same state, orders and dice always give the same result.
package rules
