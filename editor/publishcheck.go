package editor

import (
	"context"
	"errors"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/ssr"
)

// Messages of a publish refused because the page could not be rendered:
// every visit to it would wait for an error page, holding a runtime the
// rest of the site needs.
const (
	msgRenderSlow   = "This page takes too long to build, so it cannot be published. A very long text or a great many headings can do this: shorten the text or split it into several pages."
	msgRenderFailed = "This page could not be built with this text, so it cannot be published. Undo the last changes, or open the preview to see what is wrong."
)

// renders renders the page a working copy is shown on, in the site it
// would make, as a publish would serve it. A render that fails or times
// out is an *Invalid in the owner's words.
func (s *Service) renders(ctx context.Context, it contentdb.Item) error {
	if s.Render == nil {
		return nil
	}
	c, _, err := s.Candidate(ctx, it)
	if err != nil {
		return err
	}
	_, err = s.Render(ctx, c, PreviewPath(it.Kind, it.Slug))
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	s.Log.Warn("publish refused: the page did not render", "kind", it.Kind, "slug", it.Slug, "err", err)
	msg := renderMessage(err)
	return &Invalid{Message: msg, Problems: []content.Problem{{Kind: it.Kind, Slug: it.Slug, Message: msg, Hard: true}}}
}

// renderMessage says in the owner's words why a page did not render.
func renderMessage(err error) string {
	if errors.Is(err, ssr.ErrRenderTimeout) {
		return msgRenderSlow
	}
	return msgRenderFailed
}
