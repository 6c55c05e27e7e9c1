// 'Notify me on this device' and the account's devices: a new
// lead reaches every subscribed phone or computer within seconds, masked
// for staff as their list is. Each account sees and removes its own
// devices; admins may list every account's.
import { useCallback, useEffect, useId, useState } from "react";
import { ApiError } from "./api";
import { allDevices, myDevices, removeDevice } from "./data/push";
import { fmtDateTime } from "./listing";
import { currentSubscription, endpointHash, pushState, PushError, subscribe, type PushState } from "./push";
import { useToast } from "./toast";
import { useResource } from "./use-resource";
import { Badge, Button, Card } from "./ui";

/** IOS_STEPS is how an iPhone or iPad gets push: Safari gives the Push API
 * only to a site added to the Home Screen. */
export const IOS_STEPS = "On iPhone or iPad, notifications need the admin on your Home Screen first: in Safari tap Share, then Add to Home Screen; open the admin from the new icon, sign in, and press 'Notify me on this device' there.";

const stateText: Record<Exclude<PushState, "ready">, string> = {
  unsupported: "This browser cannot receive push notifications. Use Chrome, Edge, Firefox or Safari on your phone or computer.",
  "ios-home-screen": IOS_STEPS,
  denied: "Notifications are blocked for this site in this browser. Allow them in the browser's site settings, then press the button again.",
};

/** PushDevices is the leads screen's card for push notifications. */
export function PushDevices({ isAdmin }: { isAdmin: boolean }) {
  const [state, setState] = useState<PushState | null>(null); // known after mount
  const [mine, setMine] = useState<string | null>(null); // this browser's endpoint hash
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const [removing, setRemoving] = useState<string | null>(null);
  const [allOpen, setAllOpen] = useState(false);
  const toast = useToast();
  const ids = useId();
  const devices = useResource(myDevices, []);
  const list = devices.data;
  const all = useResource(() => allDevices().then((r) => r.devices), [], {
    skip: !allOpen,
    onError: (err) => {
      if (!(err instanceof ApiError && err.status === 401)) toast({ title: "Devices not loaded", description: err.message, variant: "destructive" });
    },
  });

  /** readHere reads what this browser can do and whether it is subscribed. */
  const readHere = useCallback(async () => {
    setState(pushState());
    try {
      const sub = await currentSubscription();
      setMine(sub ? await endpointHash(sub.endpoint) : null);
    } catch {
      setMine(null);
    }
  }, []);
  useEffect(() => { readHere(); }, [readHere]);
  /** reload reads the devices again after a change made here. */
  const reload = async () => {
    await Promise.all([devices.refresh(), readHere()]);
    if (allOpen) all.refresh();
  };

  const on = async () => {
    setBusy(true);
    setProblem("");
    try {
      const d = await subscribe();
      setMine(d.endpointHash);
      toast({ title: "Notifications on", description: `New leads will be sent to ${d.label}.` });
      await reload();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setState(pushState());
      setProblem(err instanceof PushError || err instanceof ApiError || err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (id: string, hash: string) => {
    setRemoving(id);
    try {
      await removeDevice(id);
      if (hash === mine) {
        // This browser: drop its subscription too.
        await (await currentSubscription())?.unsubscribe().catch(() => false);
        setMine(null);
      }
      toast({ title: "Device removed", description: "It no longer gets notifications of new leads." });
      await reload();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      toast({ title: "Device not removed", description: err instanceof Error ? err.message : String(err), variant: "destructive" });
    } finally {
      setRemoving(null);
    }
  };

  const here = !!mine && !!list?.devices.some((d) => d.endpointHash === mine);
  const full = !!list && list.devices.length >= list.maxDevices && !here;
  return (
    <Card className="al-push" title={<>Phone notifications {here && <Badge tone="good">On for this device</Badge>}</>}
      description="Get every new lead on this phone or computer within seconds, even with the admin closed. Emergencies come first, marked EMERGENCY; tapping one opens the lead.">
      <div className="al-push__act">
        {state && state !== "ready" && <p className="a-muted al-push__state" role="note">{stateText[state]}</p>}
        {(state === "ready" || state === "denied") && !here && (
          <Button onClick={on} disabled={busy || full} aria-busy={busy} aria-describedby={full ? ids + "full" : undefined}>
            {busy ? "Turning on..." : "Notify me on this device"}
          </Button>
        )}
        {full && <p id={ids + "full"} className="a-muted al-hint">Your account has {list!.maxDevices} devices, the most it may have: remove one first.</p>}
        {problem && <p className="a-error" role="alert">{problem}</p>}
      </div>
      <h3 className="al-work__title" id={ids + "mine"}>Your devices</h3>
      {devices.error && <p className="a-error" role="alert">{devices.error.message}</p>}
      {list && list.devices.length === 0 && <p className="a-muted">No device gets notifications for your account yet.</p>}
      {list && list.devices.length > 0 && (
        <ul className="al-devices" aria-labelledby={ids + "mine"}>
          {list.devices.map((d) => (
            <li key={d.id} className="al-device">
              <span className="al-device__what">
                <strong>{d.label}</strong>{d.endpointHash === mine && <> <Badge tone="info">This device</Badge></>}
                <span className="a-muted al-device__when">Added {fmtDateTime(d.createdAt)} · {d.lastSentAt ? `last notified ${fmtDateTime(d.lastSentAt)}` : "not notified yet"}</span>
              </span>
              <Button variant="outline" className="a-btn a-btn--outline al-btn-sm" disabled={removing === d.id} aria-busy={removing === d.id}
                aria-label={`Remove ${d.label}${d.endpointHash === mine ? " (this device)" : ""}, added ${fmtDateTime(d.createdAt)}`} onClick={() => remove(d.id, d.endpointHash)}>
                {removing === d.id ? "Removing..." : "Remove"}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {isAdmin && (
        <div className="al-push__all">
          <Button variant="ghost" aria-expanded={allOpen} onClick={() => setAllOpen(!allOpen)}>
            {allOpen ? "Hide every account's devices" : "Show every account's devices"}
          </Button>
          {allOpen && (all.data === null ? <p className="a-muted" role="status">Loading...</p> : all.data.length === 0 ? <p className="a-muted">No account has a device subscribed.</p> : (
            <ul className="al-devices" aria-label="Every account's devices">
              {all.data.map((d) => (
                <li key={d.id} className="al-device">
                  <span className="al-device__what">
                    <strong>{d.name || d.email}</strong> · {d.label}
                    {d.name && <span className="a-muted al-device__when">{d.email}</span>}
                    <span className="a-muted al-device__when">Added {fmtDateTime(d.createdAt)} · {d.lastSentAt ? `last notified ${fmtDateTime(d.lastSentAt)}` : "not notified yet"}</span>
                  </span>
                </li>
              ))}
            </ul>
          ))}
        </div>
      )}
    </Card>
  );
}
