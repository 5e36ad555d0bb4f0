package rules

// A Combatant is a unit in a battle as the targeting rules see it (9.46,
// 9.5): its id, type and strength now.
type Combatant struct {
	ID       string
	Type     UnitType
	Strength int
}

// Quality is the unit's place in the quality order, higher first (9.51).
func (c Combatant) Quality() int {
	v, _ := c.Type.Values()
	return v.Quality
}
