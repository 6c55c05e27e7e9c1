// Package push is the HTTP side of Web Push to the owner's and staff's
// phones (ADR 034): the VAPID public key a browser subscribes
// with, subscribing a device for the signed-in account, the account's own
// devices and removing one, and every account's devices for admins. It
// also serves the admin app's web manifest and its service worker
// (scoped to /admin/, apart from the public /sw.js), which shows a new
// lead's notification and opens the lead on tap (pwa.go). The rules are
// package notify's and the rows db's; the routes and their guards are in
// server/install.go.
package push

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Store is what the room reads and writes (db.Store).
type Store interface {
	AddPushSubscription(ctx context.Context, p db.PushSubscription) (db.PushSubscription, error)
	PushSubscriptionsFor(ctx context.Context, userID string) ([]db.PushSubscription, error)
	ListPushSubscriptions(ctx context.Context) ([]db.PushSubscription, error)
	DeletePushSubscription(ctx context.Context, id, userID string) error
	ListUsers(ctx context.Context) ([]db.User, error)
	AddAudit(ctx context.Context, e db.AuditEntry) error
}

// Sender is the push channel's public half (notify.Push): the key a
// browser subscribes with and the check of what it hands back.
type Sender interface {
	PublicKey() string
	CheckSubscription(s db.PushSubscription) (db.PushSubscription, error)
}

// Handler answers the push endpoints.
type Handler struct {
	Store Store
	// Push is nil when push is off (its keys could not be loaded at boot).
	Push Sender
	// Name is the business's name, for the web manifest.
	Name func(ctx context.Context) string
	Log  *slog.Logger
}

// Key is GET /api/admin/push/key: what a browser subscribes with.
type Key struct {
	// Enabled is false when the server cannot send pushes; PublicKey is
	// then "".
	Enabled bool `json:"enabled"`
	// PublicKey is the VAPID public key, base64url: pushManager.subscribe's
	// applicationServerKey.
	PublicKey string `json:"publicKey"`
	// MaxDevices is how many devices one account may subscribe.
	MaxDevices int `json:"maxDevices"`
}

// Device is one subscribed browser, as its owner sees it. The endpoint
// and keys (secret capabilities) never leave the server; EndpointHash
// lets the browser tell which row is itself.
type Device struct {
	ID         string     `json:"id"`
	Label      string     `json:"label"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastSentAt *time.Time `json:"lastSentAt"`
	// EndpointHash is base64url(SHA-256(endpoint)) without padding: the
	// browser hashes its own subscription's endpoint to find itself.
	EndpointHash string `json:"endpointHash"`
}

// DeviceList is GET /api/admin/push/devices: the signed-in account's
// devices, oldest first.
type DeviceList struct {
	Devices    []Device `json:"devices"`
	MaxDevices int      `json:"maxDevices"`
}

// AccountDevice is a device with the account it belongs to.
type AccountDevice struct {
	Device
	UserID string `json:"userId"`
	Email  string `json:"email"`
	Name   string `json:"name"`
}

// AllDevices is GET /api/admin/push/devices/all (admins): every
// account's devices.
type AllDevices struct {
	Devices []AccountDevice `json:"devices"`
}

// DeviceAnswer answers a subscription: the device as stored.
type DeviceAnswer struct {
	Device Device `json:"device"`
}

// Messages of the room.
const (
	msgPushOff     = "Push notifications are not available on this server right now. New leads still arrive by email."
	msgBadBody     = "Send the browser's push subscription as JSON: endpoint and keys (p256dh, auth)."
	msgTooMany     = "This account has the most devices it may have. Remove one before adding this one."
	msgNoDevice    = "No such device on your account."
	msgDevicesBusy = "Your devices could not be loaded. Try again in a minute."
	msgSaveBusy    = "The device could not be saved. Try again."
)

// EndpointHash is base64url(SHA-256(endpoint)), unpadded.
func EndpointHash(endpoint string) string {
	sum := sha256.Sum256([]byte(endpoint))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func device(p db.PushSubscription) Device {
	return Device{ID: p.ID, Label: p.Label, CreatedAt: p.CreatedAt, LastSentAt: p.LastSentAt, EndpointHash: EndpointHash(p.Endpoint)}
}

// Key answers the VAPID public key.
func (h *Handler) Key(c echo.Context) error {
	if h.Push == nil {
		return c.JSON(http.StatusOK, Key{MaxDevices: db.MaxPushDevices})
	}
	return c.JSON(http.StatusOK, Key{Enabled: true, PublicKey: h.Push.PublicKey(), MaxDevices: db.MaxPushDevices})
}

// subscription is what the browser's PushSubscription.toJSON() gives.
type subscription struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// Subscribe stores the browser's push subscription for the signed-in
// account. The endpoint must be a browser's push service and the keys
// whole (notify.Push.CheckSubscription); the device is named from the
// request's User-Agent, not from anything the page says. A browser that
// subscribes again (or for another account) keeps its row.
func (h *Handler) Subscribe(c echo.Context) error {
	if h.Push == nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgPushOff, Quiet: true}
	}
	var in subscription
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, msgBadBody)
	}
	u := auth.From(c).Account()
	if u.ID == "" {
		return httperr.New(http.StatusForbidden, "Only an account can subscribe a device.")
	}
	sub, err := h.Push.CheckSubscription(db.PushSubscription{UserID: u.ID, Endpoint: in.Endpoint, P256dh: in.Keys.P256dh, Auth: in.Keys.Auth,
		Label: DeviceLabel(c.Request().UserAgent()), CreatedAt: time.Now().UTC()})
	if errors.Is(err, notify.ErrBadEndpoint) || errors.Is(err, notify.ErrBadPushKeys) {
		return httperr.New(http.StatusBadRequest, err.Error())
	} else if err != nil {
		return httperr.New(http.StatusBadRequest, msgBadBody)
	}
	stored, err := h.Store.AddPushSubscription(c.Request().Context(), sub)
	if errors.Is(err, db.ErrTooManyDevices) {
		return httperr.New(http.StatusConflict, msgTooMany)
	} else if err != nil {
		return httperr.Unavailable(msgSaveBusy, err)
	}
	h.audit(c, u, db.AuditPushDeviceAdded, stored.Label)
	return c.JSON(http.StatusCreated, DeviceAnswer{Device: device(stored)})
}

// Devices lists the signed-in account's devices.
func (h *Handler) Devices(c echo.Context) error {
	u := auth.From(c).Account()
	ps, err := h.Store.PushSubscriptionsFor(c.Request().Context(), u.ID)
	if err != nil {
		return httperr.Unavailable(msgDevicesBusy, err)
	}
	out := DeviceList{Devices: make([]Device, 0, len(ps)), MaxDevices: db.MaxPushDevices}
	for _, p := range ps {
		out.Devices = append(out.Devices, device(p))
	}
	return c.JSON(http.StatusOK, out)
}

// AllDevices lists every account's devices (admins).
func (h *Handler) AllDevices(c echo.Context) error {
	ctx := c.Request().Context()
	ps, err := h.Store.ListPushSubscriptions(ctx)
	if err != nil {
		return httperr.Unavailable(msgDevicesBusy, err)
	}
	users, err := h.Store.ListUsers(ctx)
	if err != nil {
		return httperr.Unavailable(msgDevicesBusy, err)
	}
	byID := map[string]db.User{}
	for _, u := range users {
		byID[u.ID] = u
	}
	out := AllDevices{Devices: make([]AccountDevice, 0, len(ps))}
	for _, p := range ps {
		u := byID[p.UserID]
		out.Devices = append(out.Devices, AccountDevice{Device: device(p), UserID: p.UserID, Email: u.Email, Name: u.Name})
	}
	return c.JSON(http.StatusOK, out)
}

// Remove removes one of the signed-in account's own devices; another
// account's device is "no such device" (404), admins included.
func (h *Handler) Remove(c echo.Context) error {
	u := auth.From(c).Account()
	ctx := c.Request().Context()
	id := c.Param("id")
	if len(id) > 64 {
		return httperr.New(http.StatusNotFound, msgNoDevice)
	}
	// The label, for the audit log.
	label := ""
	if ps, err := h.Store.PushSubscriptionsFor(ctx, u.ID); err == nil {
		for _, p := range ps {
			if p.ID == id {
				label = p.Label
			}
		}
	}
	if err := h.Store.DeletePushSubscription(ctx, id, u.ID); errors.Is(err, db.ErrNotFound) {
		return httperr.New(http.StatusNotFound, msgNoDevice)
	} else if err != nil {
		return httperr.Unavailable("The device could not be removed. Try again.", err)
	}
	h.audit(c, u, db.AuditPushDeviceRemoved, label)
	return c.NoContent(http.StatusNoContent)
}

// audit writes an audit row; a failure is logged, not shown: the action
// has happened.
func (h *Handler) audit(c echo.Context, u db.User, action, detail string) {
	e := db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: u.Email, Action: action, Detail: detail, IP: c.RealIP()}
	if err := h.Store.AddAudit(context.WithoutCancel(c.Request().Context()), e); err != nil {
		h.Log.Error("audit log not written", "action", action, "err", err)
	}
}

// DeviceLabel names a device from its User-Agent ("Chrome on Android"),
// for its owner's list. Unknown parts read "Browser" and "device".
func DeviceLabel(ua string) string {
	browser := "Browser"
	switch {
	case strings.Contains(ua, "Edg/") || strings.Contains(ua, "EdgA/") || strings.Contains(ua, "EdgiOS/"):
		browser = "Edge"
	case strings.Contains(ua, "SamsungBrowser/"):
		browser = "Samsung Internet"
	case strings.Contains(ua, "OPR/") || strings.Contains(ua, "Opera"):
		browser = "Opera"
	case strings.Contains(ua, "Firefox/") || strings.Contains(ua, "FxiOS/"):
		browser = "Firefox"
	case strings.Contains(ua, "Chrome/") || strings.Contains(ua, "CriOS/") || strings.Contains(ua, "Chromium/"):
		browser = "Chrome"
	case strings.Contains(ua, "Safari/"):
		browser = "Safari"
	}
	system := "device"
	switch {
	case strings.Contains(ua, "iPhone"):
		system = "iPhone"
	case strings.Contains(ua, "iPad"):
		system = "iPad"
	case strings.Contains(ua, "Android"):
		system = "Android"
	case strings.Contains(ua, "CrOS"):
		system = "ChromeOS"
	case strings.Contains(ua, "Windows"):
		system = "Windows"
	case strings.Contains(ua, "Macintosh") || strings.Contains(ua, "Mac OS X"):
		system = "Mac"
	case strings.Contains(ua, "Linux"):
		system = "Linux"
	}
	return browser + " on " + system
}
