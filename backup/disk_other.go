//go:build !unix

package backup

import "errors"

// deviceOf is not known here (the site ships for Linux): only a folder
// under DATA_DIR is judged the same disk.
func deviceOf(string) (uint64, error) {
	return 0, errors.New("device ids are not available on this system")
}
