// Web Push of new leads to this account's devices (issue 23): the answers
// of web/push and the calls that make them.
import { api } from "../api";

/** PushKey is GET /api/admin/push/key: what the browser subscribes with. */
export interface PushKey { enabled: boolean; publicKey: string; maxDevices: number }

/** Device is one subscribed browser of the signed-in account. The
 * endpoint never comes back from the server: endpointHash is its SHA-256,
 * base64url, which this browser compares with its own. */
export interface Device { id: string; label: string; createdAt: string; lastSentAt: string | null; endpointHash: string }
/** DeviceList is GET /api/admin/push/devices. */
export interface DeviceList { devices: Device[]; maxDevices: number }
/** AccountDevice is a device with its account (admins' list). */
export interface AccountDevice extends Device { userId: string; email: string; name: string }
/** AllDevices is GET /api/admin/push/devices/all. */
export interface AllDevices { devices: AccountDevice[] }
/** DeviceAnswer answers a subscription. */
export interface DeviceAnswer { device: Device }

export const pushKey = () => api<PushKey>("/api/admin/push/key");
export const myDevices = () => api<DeviceList>("/api/admin/push/devices");
export const allDevices = () => api<AllDevices>("/api/admin/push/devices/all");
export const removeDevice = (id: string) => api<null>(`/api/admin/push/devices/${encodeURIComponent(id)}`, { method: "DELETE" });
export const saveSubscription = (sub: PushSubscriptionJSON) => api<DeviceAnswer>("/api/admin/push/subscriptions", { method: "POST", body: JSON.stringify(sub) });
