package mail

// SetHook has the handler call f before it handles each mail, so that a
// test can make it fail.
func (h *Handler) SetHook(f func(*Incoming)) { h.hook = f }

// SetIdling has the inbox call f each time the server has accepted its
// IDLE. Set it before the inbox runs.
func (ib *Inbox) SetIdling(f func()) { ib.idling = f }
