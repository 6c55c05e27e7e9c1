package media

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/web/httperr"
)

// The media library and the portfolio (ADR 048). Every upload
// is in the library; only project work is shown in the portfolio. An
// upload is project work unless it says portfolio=false: the Photo
// Upload screen's uploads are (with their project name, as before), the
// content editor's photo field's are not (it sends portfolio=false).

// LibraryFolder is the storage folder of uploads that name no project
// (projects/library/...). Keys are unique by their stored names, so a
// project that happens to be called "Library" shares the folder and
// nothing else: what groups a photo is its row's project.
const LibraryFolder = "library"

// uploadIsProjectWork reads an upload's portfolio parameter: absent or
// true is project work (a project name is then required), false is a
// photo for the library only.
func uploadIsProjectWork(v string) (bool, error) {
	if v == "" {
		return true, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, &httperr.Error{Status: http.StatusBadRequest, Message: "portfolio must be true or false.", Err: err}
	}
	return on, nil
}

// projectFolder is the folder of a project name (spec 5). A name is
// required for project work; a library photo may have none ("").
func projectFolder(name string, required bool) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		if required {
			return "", &httperr.Error{Status: http.StatusBadRequest, Message: "Please enter a project name before uploading."}
		}
		return "", nil
	}
	if utf8.RuneCountInString(name) > maxProjectName {
		return "", &httperr.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("The project name can be at most %d characters.", maxProjectName)}
	}
	folder := media.FolderSlug(name)
	if folder == "" {
		return "", &httperr.Error{Status: http.StatusBadRequest, Message: "The project name needs at least one letter or digit."}
	}
	return folder, nil
}

// portfolioForm is PUT /api/admin/media/:id/portfolio's body: whether the
// photo is project work, and (to mark a photo that has none) the name of
// its project.
type portfolioForm struct {
	Portfolio *bool  `json:"portfolio"`
	Project   string `json:"project"`
}

// SetPortfolio marks or unmarks a photo or video as project work. The
// portfolio (home page and /portfolio) is re-rendered at once.
func (h *Handler) SetPortfolio(c echo.Context) error {
	var f portfolioForm
	if err := c.Bind(&f); err != nil || f.Portfolio == nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: `Send {"portfolio": true or false} as JSON.`, Err: err}
	}
	folder, err := projectFolder(f.Project, false)
	if err != nil {
		return err
	}
	m, err := h.Store.SetMediaPortfolio(c.Request().Context(), c.Param("id"), *f.Portfolio, folder)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return &httperr.Error{Status: http.StatusNotFound, Message: "This photo no longer exists.", Err: err}
	case errors.Is(err, db.ErrNoProject):
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Give the project a name to show this photo in the portfolio.", Err: err}
	case err != nil:
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The portfolio could not be changed right now. Try again.", Err: err}
	}
	h.Log.Info("media portfolio set", "path", m.Path, "portfolio", m.Portfolio, "project", m.Project)
	h.Changed("portfolio changed")
	return c.JSON(http.StatusOK, media.ItemOf(m))
}

// uploadTarget is the job an upload goes into, and its phase.
type uploadTarget struct {
	id, phase string
	published bool
}

// uploadJob reads an upload's job and phase (ADR 061): nil for an upload
// into no job; a 400 for a phase other than before, during, after or
// none, or a phase without a job; a 404 for a job that is gone.
// A job already on the site takes photos only from a session that may
// publish (mayPublish): what the public sees follows the content roles.
func (h *Handler) uploadJob(ctx context.Context, id, phase string, mayPublish bool) (*uploadTarget, error) {
	switch phase {
	case "", db.PhaseBefore, db.PhaseDuring, db.PhaseAfter:
	default:
		return nil, &httperr.Error{Status: http.StatusBadRequest, Message: "The phase must be before, during or after."}
	}
	if id == "" {
		if phase != "" {
			return nil, &httperr.Error{Status: http.StatusBadRequest, Message: "A phase needs a job to go in."}
		}
		return nil, nil
	}
	j, err := h.Store.GetJob(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return nil, &httperr.Error{Status: http.StatusNotFound, Message: "This job no longer exists.", Err: err}
	}
	if err != nil {
		return nil, &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The upload could not be saved.", Err: err}
	}
	if j.Status == db.JobPublished && !mayPublish {
		return nil, &httperr.Error{Status: http.StatusForbidden, Message: "This job is on the site: only an editor or the owner's admin account can add photos to it."}
	}
	return &uploadTarget{id: j.ID, phase: phase, published: j.Status == db.JobPublished}, nil
}
