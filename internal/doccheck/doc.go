// Package doccheck keeps the documentation's names true: its test fails
// when README.md or a guide under docs/ names a file, a Go identifier or
// a test that the repository does not have.
package doccheck
