package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3 stores files in an S3-compatible bucket.
type S3 struct {
	client *s3.Client
	up     *manager.Uploader
	bucket string
}

// S3Options configure an S3 backend.
type S3Options struct {
	Endpoint, Region, Bucket, AccessKey, SecretKey string
}

// NewS3 returns a client for an S3-compatible endpoint (path-style
// addressing, so MinIO, R2 and fakes work too).
func NewS3(o S3Options) *S3 {
	c := s3.New(s3.Options{
		Region:       o.Region,
		BaseEndpoint: aws.String(o.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(o.AccessKey, o.SecretKey, ""),
	})
	// Parts of 8 MiB, two at a time: an upload holds at most ~16 MiB in
	// memory whatever the file size.
	up := manager.NewUploader(c, func(u *manager.Uploader) { u.PartSize = 8 << 20; u.Concurrency = 2 })
	return &S3{client: c, up: up, bucket: o.Bucket}
}

// EnsureBucket creates the bucket when it does not exist (tests, first run).
func (b *S3) EnsureBucket(ctx context.Context) error {
	_, err := b.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &b.bucket})
	if err == nil {
		return nil
	}
	_, err = b.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &b.bucket})
	if err != nil {
		// Instances booting together race to create it: when the loser's
		// create fails (409 BucketAlreadyExists or AlreadyOwnedByYou), the
		// bucket is there and reachable, which is all this asks. A bucket
		// somebody else owns still fails here, on the second HEAD.
		if _, herr := b.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &b.bucket}); herr == nil {
			return nil
		}
	}
	return err
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Put streams r to the bucket with a multipart upload.
func (b *S3) Put(ctx context.Context, key string, r io.Reader, contentType string) (int64, error) {
	if !ValidKey(key) {
		return 0, fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	cr := &countingReader{r: r}
	_, err := b.up.Upload(ctx, &s3.PutObjectInput{Bucket: &b.bucket, Key: &key, Body: cr, ContentType: &contentType})
	if err != nil {
		return 0, fmt.Errorf("storage: s3 put %s: %w", key, err)
	}
	return cr.n, nil
}

// s3Object reads lazily with ranged GETs, so Seek is free and a Range
// request fetches only what it serves.
type s3Object struct {
	b       *S3
	ctx     context.Context
	key     string
	size    int64
	mod     time.Time
	off     int64
	body    io.ReadCloser
	bodyOff int64
}

func (o *s3Object) Size() int64        { return o.size }
func (o *s3Object) ModTime() time.Time { return o.mod }

func (o *s3Object) Read(p []byte) (int, error) {
	if o.off >= o.size {
		return 0, io.EOF
	}
	if o.body == nil || o.bodyOff != o.off {
		if o.body != nil {
			o.body.Close()
		}
		rng := fmt.Sprintf("bytes=%d-", o.off)
		out, err := o.b.client.GetObject(o.ctx, &s3.GetObjectInput{Bucket: &o.b.bucket, Key: &o.key, Range: &rng})
		if err != nil {
			return 0, err
		}
		o.body, o.bodyOff = out.Body, o.off
	}
	n, err := o.body.Read(p)
	o.off += int64(n)
	o.bodyOff += int64(n)
	if err == io.EOF && o.off < o.size {
		err = nil
	}
	return n, err
}

func (o *s3Object) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += o.off
	case io.SeekEnd:
		offset += o.size
	}
	if offset < 0 {
		return 0, errors.New("storage: negative seek")
	}
	o.off = offset
	return offset, nil
}

func (o *s3Object) Close() error {
	if o.body != nil {
		return o.body.Close()
	}
	return nil
}

// Open looks the object up and returns a lazy reader.
func (b *S3) Open(ctx context.Context, key string) (Object, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	h, err := b.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.bucket, Key: &key})
	if err != nil {
		if isNotFound(err) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("storage: s3 head %s: %w", key, err)
	}
	o := &s3Object{b: b, ctx: ctx, key: key, size: aws.ToInt64(h.ContentLength)}
	if h.LastModified != nil {
		o.mod = *h.LastModified
	}
	return o, nil
}

// Delete removes an object; ErrNotFound when there was none.
func (b *S3) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	if _, err := b.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.bucket, Key: &key}); err != nil {
		if isNotFound(err) {
			return ErrNotFound
		}
		return err
	}
	_, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: &key})
	return err
}

// List lists the bucket's objects under prefix, a page at a time.
func (b *S3) List(ctx context.Context, prefix string, fn func(key string, size int64) error) error {
	pages := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: &b.bucket, Prefix: &prefix})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("storage: s3 list %s: %w", prefix, err)
		}
		for _, o := range page.Contents {
			key := aws.ToString(o.Key)
			if !ValidKey(key) {
				continue
			}
			if err := fn(key, aws.ToInt64(o.Size)); err != nil {
				return err
			}
		}
	}
	return nil
}

func isNotFound(err error) bool {
	var nf *types.NotFound
	var nk *types.NoSuchKey
	var api smithy.APIError
	if errors.As(err, &nf) || errors.As(err, &nk) {
		return true
	}
	return errors.As(err, &api) && (api.ErrorCode() == "NotFound" || api.ErrorCode() == "NoSuchKey")
}
