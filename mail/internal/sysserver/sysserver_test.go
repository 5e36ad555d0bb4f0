package sysserver

import "testing"

// The ports FreePorts gives at once are all different: a port let go is
// at times handed out again at once, which gave a server two services on
// one port. Asked again and again, as the servers of the tests are
// started, so that a rare repeat shows.
func TestFreePortsDistinct(t *testing.T) {
	for range 5000 {
		ports, err := FreePorts(3)
		if err != nil {
			t.Fatal(err)
		}
		if len(ports) != 3 || ports[0] == ports[1] || ports[1] == ports[2] || ports[0] == ports[2] {
			t.Fatalf("FreePorts(3) gave %v", ports)
		}
	}
}
