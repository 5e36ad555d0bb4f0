package lang_test

import (
	"fmt"

	"titm/adjudicator/lang"
)

// A line of a report, wrapped to 30 columns as a list item: the first line
// begun with its bullet, the others indented under it.
func ExampleWrap() {
	for _, l := range lang.Wrap("The 116th Panzer Division moves from Bastogne to Houffalize along the main road.", "- ", "  ", 30) {
		fmt.Println(l)
	}
	// Output:
	// - The 116th Panzer Division
	//   moves from Bastogne to
	//   Houffalize along the main
	//   road.
}

// The width of a text on a terminal: a wide character, as Japanese is
// written, takes two columns, which Wrap counts.
func ExampleWidth() {
	fmt.Println(lang.Width("Bastogne"), lang.Width("バストーニュ"), lang.Width("第116装甲師団"))
	// Output:
	// 8 12 13
}
