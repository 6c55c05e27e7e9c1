package leadfiles

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
)

// The homeowner's posts from their page: plain forms that work without
// JavaScript. Each answers 303 back to the page with a notice code
// (?files=sent, or what was wrong), so a reload never posts twice, and
// the page words the code; nothing the homeowner sent is echoed through
// the address.

// back is the homeowner's page after a post, with its notice.
func (h *Handler) back(c echo.Context, code string) error {
	u := linkBase(db.LinkHomeowner, c.Param("token")) + h.PagePath + "?files=" + url.QueryEscape(code) + "#files"
	return c.Redirect(http.StatusSeeOther, u)
}

// fail answers a refused post: back to the page with the refusal's code;
// a failure of the server's own is logged and said as "busy".
func (h *Handler) fail(c echo.Context, err error) error {
	var rf *refusal
	if errors.As(err, &rf) {
		h.Log.Info("homeowner post refused", "code", rf.Code, "err", rf.Err)
		return h.back(c, rf.Code)
	}
	if errors.Is(err, db.ErrTooManyFiles) {
		return h.back(c, "full")
	}
	h.Log.Error("homeowner post failed", "err", err)
	return h.back(c, "busy")
}

// maxPostBytes bounds a homeowner's post before any of it is read.
func (h *Handler) maxPostBytes() int64 { return PerPost*h.MaxPhoto + 64<<10 }

// Photos is POST /my/{token}/photos (multipart: up to PerPost "photos"
// and an optional "message"): each photo sniffed, bounded and re-encoded,
// all of it one entry on the lead's timeline, announced live to the
// owner. A refused photo refuses the post, and nothing of it is kept.
func (h *Handler) Photos(c echo.Context) error {
	if err := limited(c, h.Posts, h.now()); err != nil {
		return err
	}
	l, err := h.link(c, db.LinkHomeowner)
	if err != nil {
		return err
	}
	req := c.Request()
	if req.ContentLength > h.maxPostBytes() {
		return h.back(c, "size")
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, h.maxPostBytes())
	mr, err := req.MultipartReader()
	if err != nil {
		return h.back(c, "empty")
	}
	ctx := req.Context()
	var sent db.HomeownerSent
	var stored []db.LeadFile
	fail := func(err error) error {
		h.remove(ctx, stored)
		return h.fail(c, err)
	}
	for {
		p, err := mr.NextPart()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return fail(readErr(err, h.maxPostBytes()))
		}
		switch p.FormName() {
		case "message":
			text, ok := readText(p, db.MaxHomeownerMessageLn)
			if !ok {
				return fail(refuse("toolong", http.StatusBadRequest, "The message is too long.", nil))
			}
			if sent.Message, ok = cleanMessage(text); !ok {
				return fail(refuse("toolong", http.StatusBadRequest, "The message is too long.", nil))
			}
		case "photos":
			br := bufio.NewReader(p)
			if _, err := br.Peek(1); err == io.EOF {
				continue // the form's file field left empty
			}
			if len(stored) == PerPost {
				return fail(refuse("count", http.StatusBadRequest, "Too many photos at once.", nil))
			}
			f, err := h.put(ctx, br, false)
			if err != nil {
				if f.Path != "" {
					stored = append(stored, f)
				}
				return fail(err)
			}
			f.Name = "Photo"
			stored = append(stored, f)
		}
	}
	sent.Photos = stored
	if len(stored) == 0 && sent.Message == "" {
		return h.back(c, "empty")
	}
	if _, err := h.Store.AddHomeownerPost(ctx, l.LeadID, sent, h.now()); err != nil {
		return fail(err)
	}
	h.Log.Info("homeowner sent photos", "lead", l.LeadID, "photos", len(stored), "message", sent.Message != "")
	return h.back(c, "sent")
}

// Message is POST /my/{token}/messages (a form: "message"): one entry on
// the lead's timeline, announced live to the owner.
func (h *Handler) Message(c echo.Context) error {
	if err := limited(c, h.Posts, h.now()); err != nil {
		return err
	}
	l, err := h.link(c, db.LinkHomeowner)
	if err != nil {
		return err
	}
	raw := c.FormValue("message")
	if len(raw) > db.MaxHomeownerMessageLn {
		return h.back(c, "toolong")
	}
	text, ok := cleanMessage(raw)
	if !ok {
		return h.back(c, "toolong")
	}
	if strings.TrimSpace(text) == "" {
		return h.back(c, "empty")
	}
	if _, err := h.Store.AddHomeownerPost(c.Request().Context(), l.LeadID, db.HomeownerSent{Message: text}, h.now()); err != nil {
		return h.fail(c, err)
	}
	h.Log.Info("homeowner sent a message", "lead", l.LeadID)
	return h.back(c, "sent")
}

// IsUploadRequest reports a request whose body is files: the
// homeowner's photos and the owner's document. Such bodies stream under
// the room's own bounds, not BODY_LIMIT.
func IsUploadRequest(method, urlPath string) bool {
	if method != http.MethodPost {
		return false
	}
	if rest, ok := strings.CutPrefix(urlPath, HomeownerPath); ok {
		tok, tail, _ := strings.Cut(rest, "/")
		return tok != "" && tail == "photos"
	}
	if rest, ok := strings.CutPrefix(urlPath, "/api/admin/leads/"); ok {
		id, tail, _ := strings.Cut(rest, "/")
		return id != "" && tail == "files"
	}
	return false
}
