// Web Push of new leads to this account's devices: the answers
// of web/push and the calls that make them.
import { api } from "../api";
import type * as wire from "../api.gen";

/** PushKey is GET /api/admin/push/key: what the browser subscribes with. */
export type PushKey = wire.PushKey;

/** Device is one subscribed browser of the signed-in account. The
 * endpoint never comes back from the server: endpointHash is its SHA-256,
 * base64url, which this browser compares with its own. */
export type Device = wire.Device;
/** DeviceList is GET /api/admin/push/devices. */
export type DeviceList = wire.DeviceList;
/** AccountDevice is a device with its account (admins' list). */
export type AccountDevice = wire.AccountDevice;
/** AllDevices is GET /api/admin/push/devices/all. */
export type AllDevices = wire.AllDevices;
/** DeviceAnswer answers a subscription. */
export type DeviceAnswer = wire.DeviceAnswer;

export const pushKey = () => api<PushKey>("/api/admin/push/key");
export const myDevices = () => api<DeviceList>("/api/admin/push/devices");
export const allDevices = () => api<AllDevices>("/api/admin/push/devices/all");
export const removeDevice = (id: string) => api<null>(`/api/admin/push/devices/${encodeURIComponent(id)}`, { method: "DELETE" });
export const saveSubscription = (sub: PushSubscriptionJSON) => api<DeviceAnswer>("/api/admin/push/subscriptions", { method: "POST", body: JSON.stringify(sub) });
