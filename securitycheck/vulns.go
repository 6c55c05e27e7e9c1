package securitycheck

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/atlanta-restoration/site/words"
)

// VulnList is a list of known vulnerabilities shipped with a build. No
// list ships today (there is no network here to fetch one, and none is
// invented), so the version checks report not checked; a release build
// can embed one generated from the Go vulnerability database.
type VulnList struct {
	// Source says where the list came from and when.
	Source  string      `json:"source"`
	Entries []VulnEntry `json:"entries"`
}

// VulnEntry is one vulnerability of one module: affected from Introduced
// (empty: from the start) up to, not including, Fixed (empty: no fix).
// The module "stdlib" is the Go standard library and toolchain.
type VulnEntry struct {
	ID         string   `json:"id"`
	Aliases    []string `json:"aliases"`
	Module     string   `json:"module"`
	Introduced string   `json:"introduced"`
	Fixed      string   `json:"fixed"`
	Summary    string   `json:"summary"`
}

// ParseVulnList reads a list in the JSON form above.
func ParseVulnList(b []byte) (*VulnList, error) {
	var l VulnList
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("vulnerability list: %w", err)
	}
	return &l, nil
}

// Affecting returns the entries that affect a module at a version.
func (l *VulnList) Affecting(module, version string) []VulnEntry {
	var out []VulnEntry
	for _, v := range l.Entries {
		if v.Module != module {
			continue
		}
		if v.Introduced != "" && compareVersions(version, v.Introduced) < 0 {
			continue
		}
		if v.Fixed != "" && compareVersions(version, v.Fixed) >= 0 {
			continue
		}
		out = append(out, v)
	}
	return out
}

// compareVersions compares two versions (v1.2.3, go1.22.1, 1.2.3-pre):
// numbers part by part; a pre-release sorts before its release.
func compareVersions(a, b string) int {
	norm := func(s string) ([]int, string) {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "go"), "v")
		s, _, _ = strings.Cut(s, "+")
		core, pre, _ := strings.Cut(s, "-")
		var nums []int
		for _, p := range strings.Split(core, ".") {
			n, _ := strconv.Atoi(p)
			nums = append(nums, n)
		}
		for len(nums) < 3 {
			nums = append(nums, 0)
		}
		return nums, pre
	}
	an, ap := norm(a)
	bn, bp := norm(b)
	for i := 0; i < len(an) && i < len(bn); i++ {
		if an[i] != bn[i] {
			if an[i] < bn[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case ap == bp:
		return 0
	case ap == "":
		return 1
	case bp == "":
		return -1
	case ap < bp:
		return -1
	}
	return 1
}

func findings(l *VulnList, module, version string) ([]string, string, string) {
	var ids, cves, fixes []string
	for _, v := range l.Affecting(module, version) {
		ids = append(ids, fmt.Sprintf("%s (%s %s: %s)", v.ID, module, version, v.Summary))
		for _, a := range v.Aliases {
			if strings.HasPrefix(a, "CVE-") {
				cves = append(cves, a)
			}
		}
		if v.Fixed != "" {
			fixes = append(fixes, module+" "+v.Fixed)
		}
	}
	return ids, strings.Join(cves, ", "), strings.Join(fixes, ", ")
}

func checkGoVersion(_ context.Context, e *Env) verdict {
	ver := e.GoVersion
	if e.Vulns == nil {
		return notChecked(fmt.Sprintf("Not checked: built with %s. No vulnerability list ships with this build (none can be fetched here), so the version was not compared with known vulnerabilities.", ver),
			"Run govulncheck in CI with network access, and rebuild with the latest Go patch release.")
	}
	ids, cves, fixed := findings(e.Vulns, "stdlib", ver)
	if len(ids) > 0 {
		v := failed(fmt.Sprintf("Built with %s, which has known vulnerabilities: %s.", ver, strings.Join(ids, "; ")), "Rebuild with a Go release that fixes them ("+fixed+").")
		v.cve, v.fixedIn = cves, fixed
		return v
	}
	return passed(fmt.Sprintf("Built with %s: no entry of the shipped vulnerability list (%s) affects it.", ver, e.Vulns.Source))
}

func checkModules(_ context.Context, e *Env) verdict {
	read := e.Build
	if read == nil {
		read = debug.ReadBuildInfo
	}
	info, ok := read()
	if !ok {
		return notChecked("Not checked: this binary carries no module information.", "Build with module mode (go build) so versions can be checked.")
	}
	var mods []string
	for _, d := range info.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		mods = append(mods, m.Path+" "+m.Version)
	}
	sort.Strings(mods)
	if e.Vulns == nil && len(mods) == 0 {
		return notChecked("Not checked: this binary lists no module versions, and no vulnerability list ships with this build.", "Run govulncheck in CI with network access.")
	}
	if e.Vulns == nil {
		return notChecked(fmt.Sprintf("Not checked: the binary names %d module versions (e.g. %s). No vulnerability list ships with this build, so they were not compared with known vulnerabilities.", len(mods), sample(mods, 3)),
			"Run govulncheck in CI with network access and update the modules it names.")
	}
	var all []string
	var cves, fixes []string
	for _, d := range info.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		ids, cve, fixed := findings(e.Vulns, m.Path, m.Version)
		all = append(all, ids...)
		if cve != "" {
			cves = append(cves, cve)
		}
		if fixed != "" {
			fixes = append(fixes, fixed)
		}
	}
	if len(all) > 0 {
		v := failed(fmt.Sprintf("%s of the binary have known vulnerabilities: %s.", words.Count(len(all), "module version", "module versions"), strings.Join(all, "; ")), "Update them (go get module@version) and rebuild: "+strings.Join(fixes, ", ")+".")
		v.cve, v.fixedIn = strings.Join(cves, ", "), strings.Join(fixes, ", ")
		return v
	}
	return passed(fmt.Sprintf("None of the binary's %d module versions is in the shipped vulnerability list (%s).", len(mods), e.Vulns.Source))
}

func sample(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + ", …"
}
