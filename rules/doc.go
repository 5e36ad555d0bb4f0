// Package rules is the game of Tigers in the Mist: the map, the units, the
// scenarios, the state and every rule that changes it.
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
// [CheckOrders] makes the same check without playing, also on the lines of a
// mail that read when others did not, so that a player gets every error in
// one answer.
//
// # Files
//
// The rules live in files named after the rulebook's sections:
//
//   - engine.go: the sequence of play (6.0, 8.1): one impulse from the
//     reinforcement phase to the victory phase, calling the files below.
//   - stacking.go: stacking (7.0).
//   - movement.go: movement and entrenchment (8.0).
//   - battle.go: battles (9.0), each fought step by step as 9.3 lists them;
//     battle_targets.go: where strikes and fire go (9.46, 9.5).
//   - demolition.go: blowing and repairing bridges (10.0).
//   - reinforcements.go: reinforcements and the panzer reserve (11.0).
//   - victory.go: control and victory (12.0) and the scenarios' victory
//     conditions.
//   - supply.go: supply and attrition (13.0).
//   - specialforces.go: the German special forces (14.0).
//
// Around them: types.go (sides, unit types, places, impulses), state.go (the
// position), events.go (the Event interface and the sequence of play's
// events; each section's events are with its rules), map.go, oob.go and
// scenario.go (the data), load.go and the check files (reading it),
// orders.go and its companions (the order language), and maxflow.go, a
// general algorithm the rules use.
//
// # Purity
//
// The package does no I/O of its own: files come in through a [ReadFunc],
// dice through the [Dice] interface. It keeps no state between calls and no
// clock; the same state, orders and dice always give the same result.
package rules
