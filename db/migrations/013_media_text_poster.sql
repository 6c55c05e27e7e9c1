-- 013: captions, alt text and video posters (issue 19). caption and alt
-- are what the owner writes for a photo or video in the upload tool;
-- empty alt means the default (its project and kind, never its file
-- name). poster is the storage key of a video's poster image (a WebP made
-- from a frame the browser captured, or from an image the owner picked),
-- '' for none. /media/* looks a poster up by its key, hence the index.
ALTER TABLE media ADD COLUMN caption TEXT NOT NULL DEFAULT '';
ALTER TABLE media ADD COLUMN alt TEXT NOT NULL DEFAULT '';
ALTER TABLE media ADD COLUMN poster TEXT NOT NULL DEFAULT '';
CREATE INDEX media_poster ON media (poster);
