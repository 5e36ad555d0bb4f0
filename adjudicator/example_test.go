package adjudicator_test

import (
	"fmt"
	"os"

	"titm/adjudicator"
)

// A game's export, as titm export writes it and a player downloads it,
// checked from its first record: the hash chain, the seed against its
// commitment, every impulse replayed with the dice drawn again.
func ExampleVerify() {
	f, err := os.Open("../testdata/export/game-v1.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	x, err := adjudicator.ReadExport(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := adjudicator.Verify(x)
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	fmt.Println(v.Impulses, "impulses,", v.Dice, "dice checked:", v.DiceChecked, "- game", v.Game.ID, v.Game.Status)
	// Output:
	// 1 impulses, 0 dice checked: true - game intro-1 finished
}
