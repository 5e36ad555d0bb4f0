package rules_test

import (
	"errors"
	"fmt"

	"titm/rules"
	"titm/rules/scenarios"
)

// A mail's orders, read against the introductory scenario: the lines that
// are right are read, with the line each was written on; the greeting is
// left aside; a line that is wrong is named with the reason, and nothing
// of the mail may be applied.
func ExampleParseOrders() {
	s, err := scenarios.Load("intro")
	if err != nil {
		fmt.Println(err)
		return
	}
	o, err := rules.ParseOrders("Hello,\n\nIMPULSE 16-1\nENTRENCH 212/423\n", s, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, order := range o.List {
		fmt.Printf("line %d: %s\n", o.Lines[i], order)
	}
	fmt.Println(o.IgnoredText())

	_, err = rules.ParseOrders("IMPULSE 16-1\nMOVE 4/12 11 99\n", s, nil)
	var errs rules.OrderErrors
	if errors.As(err, &errs) {
		for _, e := range errs {
			fmt.Printf("line %d: %q: %s\n", e.Line, e.Text, e.Msg)
		}
	}
	// Output:
	// line 3: IMPULSE 16-1
	// line 4: ENTRENCH 212/423
	// not read as orders: line 1
	// line 2: "MOVE 4/12 11 99": Rochefort (99) is outside the map of The 7th Army Attacks
}
