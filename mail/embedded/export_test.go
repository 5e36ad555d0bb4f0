package embedded

import "net"

// SetListenHook makes Start wrap its SMTP listener in wrap (nil: no
// more), for a test that watches the server's connections. Only a test
// that runs alone may set it.
func SetListenHook(wrap func(net.Listener) net.Listener) { testHookListen = wrap }
