module titm

go 1.26.0

require github.com/BurntSushi/toml v1.6.0

require (
	go.etcd.io/bbolt v1.5.0
	golang.org/x/net v0.62.0
)

require golang.org/x/sys v0.49.0 // indirect
