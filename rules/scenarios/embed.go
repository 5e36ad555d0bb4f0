// Package scenarios holds the shipped data: the map, the order of battle and
// the four scenarios of the game, built into the binary, and finds a scenario
// by its name or by the path of a file of one's own.
package scenarios

import (
	"embed"
	"fmt"
	"os"
	"path"
	"strings"

	"titm/rules"
)

//go:embed *.toml
var files embed.FS

// Dir is where the shipped files live in the source tree; problems in them
// are reported under this prefix so that a reader can find the file.
const Dir = "rules/scenarios"

// Names lists the shipped scenarios, shortest first.
var Names = []string{"intro", "fifth-panzer", "three-days", "campaign"}

// Read reads a shipped file by its name under Dir.
func Read(name string) ([]byte, error) {
	return files.ReadFile(strings.TrimPrefix(name, Dir+"/"))
}

// Shipped reports whether name is a shipped scenario.
func Shipped(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Load returns the scenario a user names: a shipped scenario's name, or the
// path of a scenario file, whose map and order of battle are read relative to
// it. The error is rules.Problems when the files are inconsistent.
func Load(nameOrPath string) (*rules.Scenario, error) {
	if Shipped(nameOrPath) {
		return rules.LoadScenario(Read, Dir+"/"+nameOrPath+".toml")
	}
	if _, err := os.Stat(nameOrPath); err != nil {
		return nil, fmt.Errorf("scenario %q is neither a shipped scenario (%s) nor a readable file: %w",
			nameOrPath, strings.Join(Names, ", "), err)
	}
	return rules.LoadScenario(os.ReadFile, nameOrPath)
}

// LoadFiles loads a scenario as Load does, and returns with it every file it
// was read from, by the name it was read under, and the name of the scenario
// file among them: a game keeps them, so that it is always replayed with the
// data it was played with.
func LoadFiles(nameOrPath string) (s *rules.Scenario, files map[string]string, main string, err error) {
	read, main := rules.ReadFunc(os.ReadFile), nameOrPath
	if Shipped(nameOrPath) {
		read, main = Read, Dir+"/"+nameOrPath+".toml"
	} else if _, err := os.Stat(nameOrPath); err != nil {
		return nil, nil, "", fmt.Errorf("scenario %q is neither a shipped scenario (%s) nor a readable file: %w",
			nameOrPath, strings.Join(Names, ", "), err)
	}
	files = map[string]string{}
	recording := func(name string) ([]byte, error) {
		data, err := read(name)
		if err == nil {
			files[path.Clean(name)] = string(data)
		}
		return data, err
	}
	s, err = rules.LoadScenario(recording, main)
	if err != nil {
		return nil, nil, "", err
	}
	return s, files, path.Clean(main), nil
}
