package site

// NotFoundError is a content route's not-found state with the exact texts
// of spec 8. It is answered with status 404.
type NotFoundError struct {
	Title    string
	Message  string
	LinkHref string
	LinkText string
}

func (e *NotFoundError) Error() string { return "not found: " + e.Title }

// ErrNotFound is the generic not-found sentinel.
var ErrNotFound = &NotFoundError{}

// NotFoundData is the 404 page's data: a content route's not-found
// texts, all empty for the generic 404.
type NotFoundData struct {
	Title    string `json:"title"`
	Message  string `json:"message"`
	LinkHref string `json:"linkHref"`
	LinkText string `json:"linkText"`
}

// ErrorData is the 500 page's data.
type ErrorData struct {
	Detail string `json:"detail"`
}

// NotFoundPage is the 404 page of a not-found state: the generic one
// when nf has no title.
func NotFoundPage(nf *NotFoundError) Page {
	title := "Page Not Found"
	if nf.Title != "" {
		title = nf.Title
	}
	return Page{
		Data: NotFoundData{Title: nf.Title, Message: nf.Message, LinkHref: nf.LinkHref, LinkText: nf.LinkText},
		Head: HeadSpec{Title: title + " | 404", Description: "The page you are looking for does not exist.", Path: "/", NoIndex: true},
	}
}

// ErrorPage is the 500 page.
func ErrorPage() Page {
	return Page{
		Data: ErrorData{},
		Head: HeadSpec{Title: "Something went wrong", Description: "This page could not be loaded.", Path: "/", NoIndex: true},
	}
}
