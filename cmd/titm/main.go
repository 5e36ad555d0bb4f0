// Command titm referees games of Tigers in the Mist played by e-mail, and
// inspects and checks the game's data. Run "titm help" for the subcommands.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
