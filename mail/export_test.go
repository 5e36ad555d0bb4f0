package mail

// SetHook has the handler call f before it handles each mail, so that a
// test can make it fail.
func (h *Handler) SetHook(f func(*Incoming)) { h.hook = f }
