package accounts

import "slices"

// Roles and capabilities: what each kind of session may do. The server
// judges with this table (web/auth's Require); the admin app only shows
// what the session's capabilities allow. A domain rule, so it lives here
// beside the accounts it applies to, not in the HTTP layer.

// Capability is something a session may do.
type Capability string

// The capabilities (docs/admin-auth-api.md has the table).
const (
	Tools         Capability = "tools"          // dashboards, audits, scans, IndexNow, jobs
	MediaWrite    Capability = "media.write"    // photo and video uploads
	SettingsWrite Capability = "settings.write" // System Settings
	SessionsAll   Capability = "sessions.all"   // list and end every session
	LeadsRead     Capability = "leads.read"     // the masked lead list
	LeadsStatus   Capability = "leads.status"   // change a lead's status
	LeadsFull     Capability = "leads.full"     // details, full data, export
	LeadsNote     Capability = "leads.note"     // add a note to a lead
	LeadsAssign   Capability = "leads.assign"   // give a lead to an account
	PushSubscribe Capability = "push.subscribe" // Web Push of new leads to one's own devices
	PushAll       Capability = "push.all"       // list every account's devices
	UsersManage   Capability = "users.manage"   // accounts and the audit log
	ContentEdit   Capability = "content.edit"   // edit, publish and redirect the site's content
	LeadsErase    Capability = "leads.erase"    // privacy requests: export one person's data, delete a lead
	BackupsManage Capability = "backups.manage" // the Backups screen: back up now, download a backup
	JobsWrite     Capability = "jobs.write"     // the Jobs screen: create jobs, add their photos (publishing is content.edit's)
	LeadsShare    Capability = "leads.share"    // a lead's private links: see their opens, issue an insurer's, revoke (ADR 065)
	LeadsFiles    Capability = "leads.files"    // a lead's files: attach documents, share job photos, see the homeowner's (staff: leads assigned to them)
)

// Roles: RolePIN is the PIN gate's; accounts are admin, staff or editor.
const (
	RolePIN    = "pin"
	RoleAdmin  = "admin"
	RoleStaff  = "staff"
	RoleEditor = "editor"
)

// roleCaps is the one place that says what each role may do. Editing
// content is an account's: a publish names who made it, which the shared
// PIN cannot (ADR 035). An editor edits content and photos and sees no
// lead. The PIN reads the tools (System Settings among them) and uploads
// media; changing the settings is an admin account's (ADR 039).
var roleCaps = map[string][]Capability{
	RolePIN:    {Tools, MediaWrite, SessionsAll, JobsWrite},
	RoleStaff:  {LeadsRead, LeadsStatus, LeadsNote, PushSubscribe, MediaWrite, JobsWrite, LeadsShare, LeadsFiles},
	RoleEditor: {ContentEdit, MediaWrite, JobsWrite},
	RoleAdmin:  {Tools, MediaWrite, SettingsWrite, SessionsAll, LeadsRead, LeadsStatus, LeadsFull, LeadsNote, LeadsAssign, PushSubscribe, PushAll, UsersManage, ContentEdit, LeadsErase, BackupsManage, JobsWrite, LeadsShare, LeadsFiles},
}

// Capabilities lists what role may do.
func Capabilities(role string) []Capability { return slices.Clone(roleCaps[role]) }

// RoleOf is spec 6's resolution of an account's roles: admin wins, then
// staff, then editor, else none.
func RoleOf(roles []string) string {
	switch {
	case slices.Contains(roles, RoleAdmin):
		return RoleAdmin
	case slices.Contains(roles, RoleStaff):
		return RoleStaff
	case slices.Contains(roles, RoleEditor):
		return RoleEditor
	}
	return ""
}

// Can reports whether role has c.
func Can(role string, c Capability) bool { return slices.Contains(roleCaps[role], c) }
