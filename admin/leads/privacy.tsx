// Privacy requests: one person's data as a file (admins with leads.erase).
import { useId, useState } from "react";
import { ApiError, titledError } from "../api";
import { exportPerson } from "../data/leads";
import { useToast } from "../toast";
import { Button, Card } from "../ui";
import { saveBlob } from "./export";

/** PrivacyRequests is an admin's answer to a person who asks what the
 * business holds about them: every lead with their email or phone, with
 * notes and timeline, as a JSON file (the server audits the export
 * without the person's contact data). Erasing is per lead, from its
 * details. */
export function PrivacyRequests() {
  const toast = useToast();
  const ids = useId();
  const [email, setEmail] = useState("");
  const [phone, setPhone] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState("");
  const run = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!email.trim() && !phone.trim()) { setResult("Give the person's email address or phone number, or both."); return; }
    setBusy(true);
    setResult("");
    try {
      const data = await exportPerson(email, phone);
      saveBlob(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }), `personal-data-${data.exportedAt.slice(0, 10)}.json`);
      const n = data.leads.length;
      const msg = n === 0 ? "No lead has this email or phone. The file says so." : `Exported ${n} lead${n === 1 ? "" : "s"} with their notes and timeline.`;
      setResult(msg);
      toast({ title: "Export Complete", description: msg });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setResult((err as Error).message || "The export failed.");
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : { title: "Export Failed", description: (err as Error).message || "The export failed.", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Privacy requests" description="When someone asks what you hold about them: every lead with their email or phone, with notes and timeline, as a file to send them. To delete a lead, open its details and press Delete lead. Both are recorded in the audit log, without the person's contact details.">
      <form className="al-privacy" onSubmit={run} aria-label="Export one person's data">
        <div className="a-field">
          <label htmlFor={ids + "pe"} className="a-label">Email</label>
          <input id={ids + "pe"} type="email" className="a-input" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} autoComplete="off" />
        </div>
        <div className="a-field">
          <label htmlFor={ids + "pp"} className="a-label">Phone</label>
          <input id={ids + "pp"} type="tel" className="a-input" value={phone} onChange={(e) => setPhone(e.target.value)} maxLength={40} autoComplete="off" />
        </div>
        <div className="al-privacy__actions">
          <Button type="submit" disabled={busy} aria-busy={busy}>{busy ? "Exporting..." : "Export their data"}</Button>
        </div>
      </form>
      <p role="status" className="al-summary">{result}</p>
    </Card>
  );
}
