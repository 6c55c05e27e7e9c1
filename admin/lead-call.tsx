// Calling back is one tap: an admin's Call or Text asks the server for
// the lead's number (POST /api/admin/leads/{id}/reveal, recorded in the
// audit log), then opens the phone's dialler or messages with it. No
// 'Show full data' needed; staff never get the buttons, and the server
// refuses them the reveal.
import { useState } from "react";
import { Icon } from "../components/icons";
import { ApiError, titledError } from "./api";
import { revealContact, type Contact } from "./data/leads";
import { useToast } from "./toast";

/** dial opens a tel: or sms: link as a tap on a link would (the phone's
 * dialler or messages app; a laptop's calling app). */
export function dial(href: string) {
  const a = document.createElement("a");
  a.href = href;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** CallText is a lead's Call and Text buttons for an admin. When the row
 * already holds the full number (full data, the details dialog) they are
 * plain links; otherwise the first tap reveals the number, then dials. */
export function CallText({ id, name, phoneHref, compact, textOnly }: {
  id: string; name: string; phoneHref?: string; compact?: boolean;
  /** textOnly: the number beside it is already a tel: link (full data), so only Text is added */
  textOnly?: boolean;
}) {
  const toast = useToast();
  const [contact, setContact] = useState<Contact | null>(null);
  const [busy, setBusy] = useState<"" | "call" | "text">("");
  const tel = phoneHref || contact?.phoneHref || "";
  const sms = tel ? "sms:" + tel.slice(4) : "";
  const go = async (kind: "call" | "text") => {
    if (tel) { dial(kind === "call" ? tel : sms); return; }
    setBusy(kind);
    try {
      const c = await revealContact(id);
      setContact(c);
      const href = kind === "call" ? c.phoneHref : c.smsHref;
      if (href) dial(href);
      else toast({ title: "No number to dial", description: `The number given, ${c.phoneDisplay || "none"}, is not one a phone can dial.`, variant: "destructive" });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : { title: "Call Failed", description: "The number could not be loaded. Try again.", variant: "destructive" });
    } finally {
      setBusy("");
    }
  };
  const cls = "a-btn al-call" + (compact ? " al-call--compact" : "");
  return (
    <span className="al-calltext">
      {tel ? (
        <>
          {!textOnly && <a className={cls + " a-btn--primary"} href={tel} aria-label={`Call ${name}`}><Icon name="phone" size={16} /><span>{compact ? "Call" : `Call ${contact?.phoneDisplay || ""}`.trim()}</span></a>}
          <a className={cls + " a-btn--outline"} href={sms} aria-label={`Text ${name}`}><Icon name="mail" size={16} /><span>Text</span></a>
        </>
      ) : (
        <>
          <button type="button" className={cls + " a-btn--primary"} onClick={() => go("call")} disabled={!!busy} aria-busy={busy === "call"} aria-label={`Call ${name}`}>
            <Icon name="phone" size={16} /><span>{busy === "call" ? "Calling..." : "Call"}</span>
          </button>
          <button type="button" className={cls + " a-btn--outline"} onClick={() => go("text")} disabled={!!busy} aria-busy={busy === "text"} aria-label={`Text ${name}`}>
            <Icon name="mail" size={16} /><span>{busy === "text" ? "Opening..." : "Text"}</span>
          </button>
        </>
      )}
    </span>
  );
}
