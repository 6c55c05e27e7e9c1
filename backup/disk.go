package backup

import (
	"path/filepath"
	"strings"
)

// SameDisk reports whether the target is a folder on the disk that holds
// dataDir (DATA_DIR): then one failed disk loses the site and its
// backups. An S3 target is never on the same disk.
func (t *Target) SameDisk(dataDir string) bool {
	if t.local == "" {
		return false
	}
	return sameDisk(dataDir, t.local, deviceOf)
}

// sameDisk is SameDisk's decision, with the device lookup given: the
// folder is under dataDir (symbolic links resolved), or both are on one
// device (one filesystem). A folder that cannot be read is not judged
// the same disk.
func sameDisk(dataDir, dir string, device func(string) (uint64, error)) bool {
	d, b := resolve(dataDir), resolve(dir)
	if b == d || strings.HasPrefix(b, d+string(filepath.Separator)) {
		return true
	}
	dd, err := device(d)
	if err != nil {
		return false
	}
	bd, err := device(b)
	if err != nil {
		return false
	}
	return dd == bd
}

// resolve is a folder's absolute path with symbolic links followed (as
// written when it cannot be).
func resolve(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return filepath.Clean(p)
}
