package server

import (
	"context"
	"path/filepath"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/storage"
)

// newStorage builds the media storage the configuration names.
func newStorage(cfg *config.Config) (storage.Storage, error) {
	if cfg.Storage.Kind == "s3" {
		b := storage.NewS3(storage.S3Options{Endpoint: cfg.Storage.Endpoint, Region: cfg.Storage.Region, Bucket: cfg.Storage.Bucket,
			AccessKey: cfg.Storage.AccessKey, SecretKey: cfg.Storage.SecretKey})
		return b, b.EnsureBucket(context.Background())
	}
	return storage.NewLocal(filepath.Join(cfg.DataDir, "media"))
}
