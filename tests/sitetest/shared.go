package sitetest

import (
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/atlanta-restoration/site/db"
)

// Shared is what the instances of a deployment (docs/deploying.md)
// share: a PostgreSQL database of their own, copied from the migrated
// template and dropped when the test ends (db.NewTestPostgresDatabase:
// the test is skipped without PostgreSQL, failed with CI=true), and an
// S3-compatible bucket server (gofakes3, in process).
type Shared struct {
	DSN    string
	Bucket *httptest.Server
}

// NewShared makes the database, named after the test's package (name),
// and starts the bucket server.
func NewShared(t testing.TB, name string) *Shared {
	t.Helper()
	s := &Shared{DSN: db.NewTestPostgresDatabase(t, name)}
	s.Bucket = NewBucket(t)
	return s
}

// NewBucket starts an S3-compatible server in process, closed when the
// test ends.
func NewBucket(t testing.TB) *httptest.Server {
	t.Helper()
	b := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	t.Cleanup(b.Close)
	return b
}

// StorageEnv is an instance's media storage: bucket on the server b
// (any keys: the fake checks none).
func StorageEnv(b *httptest.Server, bucket string) []string {
	return []string{"STORAGE=s3", "S3_ENDPOINT=" + b.URL, "S3_BUCKET=" + bucket, "S3_ACCESS_KEY=test-access", "S3_SECRET_KEY=test-secret"}
}

// Env is an instance's environment on the shared database and bucket
// (its media in bucket), run from the repository's folder with one
// renderer (two instances share two cores), followed by extra.
func (s *Shared) Env(bucket string, extra ...string) []string {
	env := append([]string{"DATABASE_URL=" + s.DSN, "SOURCE_DIR=" + Root, "SSR_POOL_SIZE=1"}, StorageEnv(s.Bucket, bucket)...)
	return append(env, extra...)
}
