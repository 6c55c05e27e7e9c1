-- 105: the media library and the portfolio (issue 30, ADR 048). Every
-- uploaded photo and video is in the library; portfolio marks the ones
-- the owner shows as project work (the home page's gallery, /portfolio).
-- A new row is not project work unless the upload or the owner says so;
-- everything uploaded before this migration was uploaded to the
-- portfolio, and stays in it.
ALTER TABLE media ADD COLUMN portfolio BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE media SET portfolio = TRUE;
CREATE INDEX media_portfolio ON media (portfolio, created_at);
