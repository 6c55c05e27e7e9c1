package notifytest

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"testing"
)

// Subscription is a subscription as a browser's PushSubscription.toJSON()
// gives it, at Chrome's push service, with fresh keys: what the admin app
// posts to subscribe a device. Nothing is ever sent to it (subscribing
// only checks and stores).
func Subscription(t testing.TB) map[string]any {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	id := make([]byte, 12)
	rand.Read(id)
	enc := base64.RawURLEncoding
	return map[string]any{"endpoint": "https://fcm.googleapis.com/fcm/send/" + enc.EncodeToString(id), "expirationTime": nil,
		"keys": map[string]string{"p256dh": enc.EncodeToString(k.PublicKey().Bytes()), "auth": enc.EncodeToString(auth)}}
}
