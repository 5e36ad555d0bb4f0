package mail_test

import (
	"context"
	"log/slog"
)

// onLog is a log handler that calls f with each record logged as msg, at
// any level: a test acts at a moment of the daemon's work by the record the
// daemon logs there, not by a hook in its code.
type onLog struct {
	msg string
	f   func(slog.Record)
}

func (h *onLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *onLog) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *onLog) WithGroup(string) slog.Handler            { return h }

func (h *onLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.f(r)
	}
	return nil
}

// logOn is a logger that calls f with each record logged as msg.
func logOn(msg string, f func(slog.Record)) *slog.Logger {
	return slog.New(&onLog{msg: msg, f: f})
}

// attr returns the value of a record's attribute key, as a string.
func attr(r slog.Record, key string) string {
	v := ""
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == key {
			v = a.Value.String()
			return false
		}
		return true
	})
	return v
}
