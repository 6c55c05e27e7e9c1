package site

// The files section of the homeowner's and the adjuster's pages (issue
// 34, ADR 067): the documents the owner attached, the crew's shared
// photos, the homeowner's own photos, and on the homeowner's page the
// form that sends photos and a message. web/leadfiles builds it; the
// homeowner's page (/my/{token}) and the adjuster's (/claim/{token})
// render it with components/job-files.tsx. Until those pages carry it,
// the section has a page of its own at /my/{token}/files and
// /claim/{token}/files (the "job-files" kind).

func init() {
	extraKinds = append(extraKinds, "job-files")
	outsideKinds["/my/files"] = "job-files"
}

// FilesView is the files section's data.
type FilesView struct {
	// Documents are the owner's attached documents, newest last.
	Documents []FileView `json:"documents"`
	// Photos are the crew's photos the owner shared; Yours the
	// homeowner's own (on the adjuster's page: the homeowner's photos).
	Photos []FileView `json:"photos"`
	Yours  []FileView `json:"yours"`
	// Send is the homeowner's form (nil on the adjuster's page, which
	// sends nothing).
	Send *FilesForm `json:"send"`
	// Notice says how the last post went: a code the page words (the
	// owner's editable words), never text from the address.
	Notice string `json:"notice" tstype:"'' | 'sent' | 'type' | 'size' | 'count' | 'full' | 'empty' | 'damaged' | 'broken' | 'busy' | 'toolong'"`
}

// FileView is one file as the pages list it.
type FileView struct {
	// Href downloads the file through the page's own link.
	Href string `json:"href"`
	// Label is the document's kind ("Estimate") or "Photo"; Name its
	// name; Date when it was added (Atlanta's date).
	Label string `json:"label"`
	Name  string `json:"name"`
	Date  string `json:"date"`
	// Photo is true for a picture (shown inline), false for a PDF
	// (downloaded); Size is a PDF's size in words ("2 MB").
	Photo bool   `json:"photo"`
	Size  string `json:"size"`
}

// FilesForm is the homeowner's add-photos-and-message form.
type FilesForm struct {
	// PhotosAction and MessageAction are where the forms post.
	PhotosAction  string `json:"photosAction"`
	MessageAction string `json:"messageAction"`
	// PerPost is how many photos one post takes; Left how many more the
	// job takes in all; MaxSize a photo's bound in words; MaxMessage a
	// message's bound in characters.
	PerPost    int    `json:"perPost"`
	Left       int    `json:"left"`
	MaxSize    string `json:"maxSize"`
	MaxMessage int    `json:"maxMessage"`
}

// FilesPageData is the section's own page.
type FilesPageData struct {
	Files FilesView `json:"files"`
}

// FilesPage is the section's own page showing d: noindex, at a path that
// carries no token.
func (s *Site) FilesPage(d FilesPageData) Page {
	return Page{Data: d, Head: HeadSpec{
		Title:       "Your Job's Files",
		Description: "The documents and photos of your job, and a way to send us yours.",
		Path:        "/my/files",
		NoIndex:     true,
		Crumbs:      []Crumb{{"Your Job's Files", "/my/files"}},
	}}
}
