package adjudicator

import (
	"testing"
	"time"
)

// FirstDifference names the first field whose JSON differs, by its JSON
// path, in the order the JSON writes the fields.
func TestFirstDifference(t *testing.T) {
	r := Record{Seq: 3, Kind: KindImpulse, Time: t0, Dice: []Roll{{"a", 3, 1}, {"b", 4, 2}}, Events: []string{"x"}, State: "s"}
	tests := []struct {
		name   string
		change func(r *Record)
		want   Difference
	}{
		{"equal", func(*Record) {}, Difference{}},
		{"a die", func(r *Record) { r.Dice[1].Value = 5 }, Difference{"dice[1].roll", "4", "5"}},
		{"a die more", func(r *Record) { r.Dice = append(r.Dice, Roll{"c", 1, 3}) }, Difference{"dice[2]", "", `{"purpose":"c","roll":1,"draw":3}`}},
		{"the first of two", func(r *Record) { r.Time = r.Time.Add(time.Second); r.State = "t" }, Difference{"time", `"2026-12-16T05:30:00Z"`, `"2026-12-16T05:30:01Z"`}},
		{"no events", func(r *Record) { r.Events = nil }, Difference{"events[0]", `"x"`, ""}},
		{"an empty list for none", func(r *Record) { r.Events = []string{} }, Difference{"events[0]", `"x"`, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := r
			c.Dice = append([]Roll(nil), r.Dice...)
			c.Events = append([]string(nil), r.Events...)
			tt.change(&c)
			d := FirstDifference(r, c)
			if tt.want == (Difference{}) {
				if d != nil {
					t.Errorf("%+v", d)
				}
				return
			}
			if d == nil || *d != tt.want {
				t.Errorf("got %+v, want %+v", d, tt.want)
			}
		})
	}
	// A field the JSON omits, nil in one and empty in the other, is the
	// same.
	c := r
	c.Events, r.Events = []string{}, nil
	if d := FirstDifference(r, c); d != nil {
		t.Errorf("an omitted field: %+v", d)
	}
	// Embedded fields are the outer JSON's; maps go by key.
	x := &Export{Header: Header{ID: "g", Files: map[string]string{"a": "1", "b": "2"}}}
	y := &Export{Header: Header{ID: "g", Files: map[string]string{"a": "1", "b": "3"}}}
	if d := FirstDifference(x, y); d == nil || d.Field != "files.b" {
		t.Errorf("export: %+v", d)
	}
}
