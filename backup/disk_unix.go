//go:build unix

package backup

import (
	"fmt"
	"os"
	"syscall"
)

// deviceOf is the id of the device (filesystem) that holds path.
func deviceOf(path string) (uint64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("%s: no device id", path)
	}
	return uint64(st.Dev), nil //nolint:unconvert // int32 on some systems
}
