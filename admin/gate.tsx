import { useEffect, useRef, useState } from "react";
import { api, ApiError, setToken } from "./api";
import { useToast } from "./toast";
import { Icon } from "../components/icons";

/** Gate is the PIN screen (spec 2.4). The server checks the PIN and
 * returns a short-lived token kept in memory; Enter submits. */
export function Gate({ onUnlock }: { onUnlock: () => void }) {
  const [pin, setPin] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const toast = useToast();
  useEffect(() => { input.current?.focus(); }, []);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError("");
    try {
      const res = await api<{ token: string }>("/api/admin/unlock", { method: "POST", body: JSON.stringify({ pin }) });
      setToken(res.token);
      sessionStorage.setItem("admin_authenticated", "true");
      toast({ title: "Access granted", description: "Welcome to the admin panel." });
      onUnlock();
    } catch (err) {
      const msg = err instanceof ApiError && err.status === 429 ? err.message : err instanceof ApiError && err.status === 401 ? "Incorrect PIN entered." : (err as Error).message;
      setError(msg);
      setPin("");
      toast({ title: "Access denied", description: msg, variant: "destructive" });
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="a-gate">
      <form className="a-gate__card" onSubmit={submit} aria-labelledby="gate-title">
        <div className="a-gate__icon"><Icon name="shield" size={40} /></div>
        <h1 id="gate-title" className="a-gate__title">Admin Access Required</h1>
        <p className="a-gate__text">Enter your PIN to access the admin panel</p>
        <label htmlFor="admin-pin" className="a-label">PIN</label>
        <input ref={input} id="admin-pin" name="pin" type="password" inputMode="numeric" autoComplete="current-password"
          className="a-input" value={pin} onChange={(e) => setPin(e.target.value)} aria-invalid={!!error}
          aria-describedby={error ? "gate-error" : undefined} maxLength={64} required />
        {error && <p id="gate-error" className="a-error" role="alert">{error}</p>}
        <button type="submit" className="a-btn a-btn--primary a-btn--block" disabled={busy || pin === ""}>{busy ? "Checking..." : "Unlock"}</button>
        <noscript><p className="a-error">The admin area needs JavaScript.</p></noscript>
        <p className="a-gate__back"><a href="/">Back to the website</a></p>
      </form>
    </main>
  );
}
