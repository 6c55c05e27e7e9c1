// Package admin holds the admin app's screen manifest for the Go side:
// screens.json is the one list of admin screens, which the
// admin app's sidebar and router import and the server reads from here,
// embedded in the binary. The rest of this folder is the admin app
// (TypeScript).
package admin

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed screens.json
var screensJSON []byte

// Screen is one admin screen of the manifest.
type Screen struct {
	Slug       string `json:"slug"` // "" is the dashboard
	Title      string `json:"title"`
	Label      string `json:"label"`
	Icon       string `json:"icon"`
	Capability string `json:"capability"` // "" for any signed-in session
	Sidebar    bool   `json:"sidebar"`
}

// Screens returns the manifest's screens, in sidebar order.
func Screens() ([]Screen, error) {
	var m struct {
		Screens []Screen `json:"screens"`
	}
	if err := json.Unmarshal(screensJSON, &m); err != nil {
		return nil, fmt.Errorf("admin/screens.json: %w", err)
	}
	if len(m.Screens) == 0 || m.Screens[0].Slug != "" {
		return nil, fmt.Errorf("admin/screens.json: the first screen must be the dashboard (slug \"\")")
	}
	return m.Screens, nil
}
