package content

// ServiceIcons are the icons a service may show, the ones the admin's
// icon picker offers: each is drawn by components/icons.tsx (a test reads
// that file), whose unknown names fall back to a shield. Any other name
// is refused as a hard problem, so a typo can never reach a card.
var ServiceIcons = []string{
	"droplets", "flame", "cloud-lightning", "wind", "hammer", "home", "file-text", "shield", "sparkles",
	"alert-triangle", "award", "check-circle", "star", "clock", "users", "camera", "calendar", "phone",
	"map-pin", "search", "book", "mail",
}

// KnownIcon reports whether a service may show the icon name.
func KnownIcon(name string) bool {
	for _, n := range ServiceIcons {
		if n == name {
			return true
		}
	}
	return false
}
