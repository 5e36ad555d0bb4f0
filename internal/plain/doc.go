// Package plain holds no code: its test keeps the tree's functions plain,
// each under 80 lines and of a cyclomatic complexity of at most 20, outside
// tests and generated code, as docs/testing.md asks. It counts as gocyclo
// does, so that the check in .ci/run and this test agree.
package plain
