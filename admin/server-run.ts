// Running a job on the server from a screen (a scan, an audit, a
// refresh) and waiting for its result, with the spec's minimum delay, so
// the busy label shows as long as the spec says even when the server is
// quicker. Loading itself is admin/use-resource.ts.
import { useState } from "react";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** useTimedReload runs reload for a Refresh/Scan button: busy for at
 * least minMs (the spec's delay, even when the server is quicker), then the
 * time of the reading for "Last updated". */
export function useTimedReload(reload: () => Promise<unknown>, minMs: number) {
  const [busy, setBusy] = useState(false);
  const [updated, setUpdated] = useState<Date | null>(null);
  const run = async () => {
    setBusy(true);
    await Promise.all([reload(), sleep(minMs)]);
    setBusy(false);
    setUpdated(new Date());
  };
  return { busy, updated, run };
}

/** POLL_MS is how often a screen asks whether the server's run is done;
 * RUN_TIMEOUT_MS is how long it waits at most. */
export const POLL_MS = 500;
export const RUN_TIMEOUT_MS = 120_000;

/** runOnServer asks the server for a run (start answers with the id of the
 * run it replaces), then polls latest until a different id appears, and
 * waits at least minMs in all. It returns the new data. */
export async function runOnServer<T>(start: () => Promise<{ after: string }>, latest: () => Promise<T>, idOf: (d: T) => string | null | undefined, minMs: number): Promise<T> {
  const t0 = Date.now();
  const { after } = await start();
  for (;;) {
    await sleep(POLL_MS);
    const d = await latest();
    const id = idOf(d);
    if (id && id !== after) {
      const rest = minMs - (Date.now() - t0);
      if (rest > 0) await sleep(rest);
      return d;
    }
    if (Date.now() - t0 > RUN_TIMEOUT_MS) throw new Error("The server has not finished yet. Its result will show here when it has.");
  }
}
