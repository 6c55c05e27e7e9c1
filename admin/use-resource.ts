// The one way a screen loads what it shows from the server.
import { useCallback, useEffect, useRef, useState, type DependencyList } from "react";
import { ApiError } from "./api";

/** errorText is what a screen shows for a failed request: the message the
 * server sent (an ApiError's), else the error's own. */
export const errorText = (e: unknown) => (e instanceof ApiError || e instanceof Error ? e.message : "Could not be loaded.");

/** Resource is a screen's view of one query. */
export interface Resource<T> {
  /** data is the latest answer; it stays while a newer request is on its way. */
  data: T | null;
  /** error is the latest request's failure (its message is the server's), or null. */
  error: Error | null;
  /** loading is true while a request is on its way (also during a refresh). */
  loading: boolean;
  /** refresh asks again and keeps showing the current data meanwhile; it
   * resolves with the answer, or null when the request failed or a newer
   * one replaced it. The live-lead stream and Refresh buttons call it. */
  refresh: () => Promise<T | null>;
  /** retry is refresh, for the Retry button beside an error. */
  retry: () => Promise<T | null>;
  /** setData replaces the data on screen (an optimistic change, or a
   * result a job produced) without a request. */
  setData: (f: T | ((d: T | null) => T | null)) => void;
}

/** ResourceOptions are called for the latest request only. */
export interface ResourceOptions<T> {
  onData?: (data: T) => void;
  onError?: (error: Error) => void;
  /** skip holds the request (a form whose input is not valid yet). */
  skip?: boolean;
}

/** useResource runs load when the screen opens and whenever deps change.
 * Only the newest request's answer is used: an answer that arrives after
 * a newer request was made (page 1's, once page 2 was asked for) is
 * dropped, and so is every answer after the screen has gone. The last
 * data stays on screen while the next request is on its way. A 401 is the
 * session's end, which the app handles (the gate shows): it is not kept
 * as the screen's error. */
export function useResource<T>(load: () => Promise<T>, deps: DependencyList, opts: ResourceOptions<T> = {}): Resource<T> {
  const [data, setDataState] = useState<T | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [loading, setLoading] = useState(!opts.skip);
  const seq = useRef(0);
  const latest = useRef({ load, opts });
  latest.current = { load, opts };

  const run = useCallback(async (): Promise<T | null> => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const d = await latest.current.load();
      if (mine !== seq.current) return null;
      setDataState(() => d);
      setError(null);
      setLoading(false);
      latest.current.opts.onData?.(d);
      return d;
    } catch (e) {
      if (mine !== seq.current) return null;
      setLoading(false);
      const err = e instanceof Error ? e : new Error(String(e));
      if (!(err instanceof ApiError && err.status === 401)) setError(err);
      latest.current.opts.onError?.(err);
      return null;
    }
  }, []);

  const skip = !!opts.skip;
  useEffect(() => {
    if (skip) { seq.current++; setLoading(false); return; }
    run();
  }, [skip, ...deps]); // eslint-disable-line react-hooks/exhaustive-deps -- deps are the caller's
  useEffect(() => () => { seq.current++; }, []);

  const setData = useCallback((f: T | ((d: T | null) => T | null)) => {
    setDataState((d) => (typeof f === "function" ? (f as (d: T | null) => T | null)(d) : f));
  }, []);
  return { data, error, loading, refresh: run, retry: run, setData };
}
