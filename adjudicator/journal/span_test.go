package journal

import (
	"testing"
	"time"

	"titm/adjudicator/lang"
)

func TestSpan(t *testing.T) {
	for _, c := range []struct {
		d      time.Duration
		en, ja string
	}{
		{0, "0m", "0分"},
		{45 * time.Minute, "45m", "45分"},
		{59*time.Minute + 31*time.Second, "1h", "1時間"},
		{5*time.Hour + 20*time.Minute, "5h 20m", "5時間20分"},
		{24 * time.Hour, "1d", "1日"},
		{665*time.Hour + 9*time.Minute, "27d 17h", "27日17時間"},
		{72*time.Hour + 30*time.Minute, "3d", "3日"},
	} {
		if got := span(lang.For("en"), c.d); got != c.en {
			t.Errorf("span(%v) in English = %q, want %q", c.d, got, c.en)
		}
		if got := span(lang.For("ja"), c.d); got != c.ja {
			t.Errorf("span(%v) in Japanese = %q, want %q", c.d, got, c.ja)
		}
	}
}
