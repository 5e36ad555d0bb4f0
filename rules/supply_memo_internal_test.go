package rules

// The tests check what every supply memo keeps against the state
// (supplyMemoCheck): a change of control in the middle of an impulse fails
// them.
func init() { supplyMemoCheck = true }
