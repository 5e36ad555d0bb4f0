package adjudicator

import (
	"strings"
	"testing"
)

// B10: the stream is fixed by its key: the same key gives the same dice,
// every face 1..10 comes up about equally often.
func TestStream(t *testing.T) {
	a, b := NewStream([]byte("key")), NewStream([]byte("key"))
	count := make([]int, 11)
	for i := 0; i < 20000; i++ {
		x, _ := a.Roll("test")
		y, _ := b.Roll("test")
		if x != y {
			t.Fatalf("roll %d differs: %d %d", i, x, y)
		}
		count[x]++
	}
	for f := 1; f <= 10; f++ {
		if count[f] < 1800 || count[f] > 2200 {
			t.Errorf("face %d came up %d times in 20000", f, count[f])
		}
	}
	c := NewStream([]byte("other"))
	same := 0
	for i := 0; i < 100; i++ {
		x, _ := c.Roll("test")
		if x == a.Rolls[i].Value {
			same++
		}
	}
	if same > 30 {
		t.Errorf("another key gives %d of 100 equal dice", same)
	}
	if a.Rolls[0].Purpose != "test" || len(a.Rolls) != 20000 {
		t.Errorf("rolls not recorded")
	}
}

func TestScripted(t *testing.T) {
	s := &Scripted{Dice: []int{3, 10}}
	if r, _ := s.Roll("a"); r != 3 {
		t.Errorf("first die %d", r)
	}
	s.Roll("b")
	_, err := s.Roll("16-2 demolition 51-70")
	if err == nil || !strings.Contains(err.Error(), "die 3 was needed for 16-2 demolition 51-70") {
		t.Errorf("error %v", err)
	}
	if _, err := (&Scripted{Dice: []int{0}}).Roll("x"); err == nil {
		t.Errorf("a die of 0 accepted")
	}
}
