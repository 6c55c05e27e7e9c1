// The IndexNow Submission tab: the API key (kept on the server and in
// this browser), its verification file, submitting pages, and the history.
import { useRef, useState } from "react";
import type { Site } from "../../components/props.gen";
import { generateKey, KEY_RE, liveSeo, readStoredKey, saveFile, splitURLs, writeStoredKey } from "../data/indexnow";
import { useToast } from "../toast";
import { Button, Card, LastUpdated } from "../ui";
import { useResource } from "../use-resource";
import { SubmissionHistory } from "./history";
import { useAlive } from "./parts";

export function IndexNowPanel({ site }: { site: Site }) {
  const toast = useToast();
  const [key, setKey] = useState(readStoredKey);
  const [serverKey, setServerKey] = useState<string | null>(null);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [keyError, setKeyError] = useState("");
  const [custom, setCustom] = useState("");
  const [busy, setBusy] = useState<"" | "all" | "custom">("");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [updated, setUpdated] = useState<Date | null>(null);
  const alive = useAlive();

  // The server's key is the one in force: it replaces the copy this
  // browser keeps (both spec names are read), unless something was typed
  // meanwhile. A browser-only key shows until it is saved.
  const local = useRef(key);
  const keyInfo = useResource(liveSeo.getKey, [], {
    onData: (r) => {
      setServerKey(r.key);
      if (r.key) setKey((cur) => { if (cur && cur !== local.current) return cur; writeStoredKey(r.key); return r.key; });
    },
    onError: (e) => console.error("IndexNow key could not be loaded", e),
  });
  const fixed = !!keyInfo.data?.fixed;

  const save = async (k: string) => {
    try {
      const r = await liveSeo.saveKey(k);
      if (alive.current) setServerKey(r.key);
      return true;
    } catch (e) {
      if (alive.current) setKeyError(`The key could not be saved on the server: ${(e as Error).message}`);
      return false;
    }
  };
  const generate = async () => {
    const k = generateKey();
    setKey(k);
    setKeyError("");
    writeStoredKey(k);
    toast({ title: "API Key Generated", description: "New IndexNow API key created. Don't forget to create the verification file!" });
    await save(k);
  };
  const onKeyChange = (v: string) => {
    setKey(v);
    writeStoredKey(v.trim());
    setKeyError("");
  };
  const onKeyBlur = () => {
    const k = key.trim();
    if (!k) return;
    if (!KEY_RE.test(k)) { setKeyError("A key is 8-128 characters: letters, digits or dashes."); return; }
    if (k !== serverKey) save(k);
  };
  const copy = async () => {
    if (!key) { toast({ title: "No API Key", description: "Generate an API key first", variant: "destructive" }); return; }
    try {
      await navigator.clipboard.writeText(key);
      toast({ title: "Copied!", description: "API key copied to clipboard" });
    } catch {
      toast({ title: "Copy Failed", description: "Could not copy to clipboard", variant: "destructive" });
    }
  };
  const downloadKeyFile = () => {
    if (!key) { toast({ title: "No API Key", description: "Generate an API key first", variant: "destructive" }); return; }
    saveFile(`${key}.txt`, key);
    toast({ title: "File Downloaded", description: `Upload ${key}.txt to your domain root to verify ownership` });
  };
  const submit = async (all: boolean) => {
    const k = key.trim();
    if (!k) { toast({ title: "Missing API Key", description: "Please generate an API key first", variant: "destructive" }); return; }
    let urls: string[] = [];
    if (!all) {
      urls = splitURLs(custom);
      if (!urls.length) { toast({ title: "No URLs", description: "Please enter URLs to submit", variant: "destructive" }); return; }
    }
    setBusy(all ? "all" : "custom");
    setResult(null);
    try {
      const r = await liveSeo.submit(all ? { all: true, apiKey: k } : { urls, apiKey: k });
      if (!alive.current) return;
      setServerKey(k);
      setResult({ ok: true, text: `Submitted ${r.submitted} URLs to IndexNow.` });
      setHistoryVersion((v) => v + 1);
      toast({ title: "Submission Successful", description: `Submitted ${r.submitted} URLs to IndexNow` });
    } catch (e) {
      console.error("IndexNow submission failed", e);
      if (!alive.current) return;
      setResult({ ok: false, text: (e as Error).message || "Could not submit URLs to IndexNow." });
      setHistoryVersion((v) => v + 1);
      toast({ title: "Submission Failed", description: "Could not submit URLs to IndexNow", variant: "destructive" });
    }
    setBusy("");
    setUpdated(new Date());
  };
  const k = key.trim();
  const keyURL = k ? `${site.baseUrl}/${k}.txt` : "";
  return (
    <>
      <Card title="IndexNow API Key" description="IndexNow tells Bing, Yandex, Seznam, Naver and other search engines that pages changed. The key proves the site is yours.">
        <div className="a-field">
          <label htmlFor="inx-key" className="a-label">API key</label>
          <div className="inx-keyrow">
            <input id="inx-key" className="a-input inx-key" value={key} onChange={(e) => onKeyChange(e.target.value)} onBlur={onKeyBlur}
              spellCheck={false} autoComplete="off" maxLength={128} placeholder="Generate a key or paste an existing one" readOnly={fixed}
              aria-invalid={!!keyError} aria-describedby={keyError ? "inx-key-err inx-key-hint" : "inx-key-hint"} />
            <Button onClick={generate} disabled={fixed}>Generate</Button>
            <Button variant="outline" onClick={copy}>Copy</Button>
          </div>
          {keyError && <p id="inx-key-err" className="a-error" role="alert">{keyError}</p>}
          <p id="inx-key-hint" className="a-muted inx-hint">
            {fixed ? <>Set by your web host on the server (see the deployment guide), which answers the verification file at <a href={`/${k}.txt`}>{keyURL}</a>.</>
              : !k ? "No key yet. Generate one: it is saved on the server, which submits changed pages with it, and kept in this browser."
              : serverKey === k ? <>Saved on the server, which answers the verification file at <a href={`/${k}.txt`}>{keyURL}</a>.</>
                : "Not saved on the server yet: it is saved when you leave the field, or with the next submission."}
          </p>
        </div>
        <h3 className="inx-h3">Verification file</h3>
        <p className="a-muted inx-hint">Search engines fetch <code>{k ? `${k}.txt` : "a file named after the key"}</code> from the domain root and expect the key inside. This server already serves it once the key is saved; download it only if the site is hosted elsewhere.</p>
        <Button variant="outline" onClick={downloadKeyFile}>Download Verification File</Button>
      </Card>
      <Card title="Submit All Site Pages" description="Sends every URL in sitemap.xml to IndexNow in one request, through this server.">
        <Button onClick={() => submit(true)} disabled={!!busy}>{busy === "all" ? "Submitting..." : "Submit All Site Pages"}</Button>
      </Card>
      <Card title="Submit Custom URLs" description="Only addresses on this site are accepted. Paths such as /contact are completed with the site address.">
        <div className="a-field">
          <label htmlFor="inx-urls" className="a-label">URLs to submit (one per line)</label>
          <textarea id="inx-urls" className="a-input inx-textarea" value={custom} onChange={(e) => setCustom(e.target.value)} rows={6} spellCheck={false}
            placeholder={`${site.baseUrl}/services/water-damage-restoration\n${site.baseUrl}/contact`} />
        </div>
        <Button onClick={() => submit(false)} disabled={!!busy || !k || !custom.trim()}>{busy === "custom" ? "Submitting..." : "Submit URLs"}</Button>
      </Card>
      {result && <p className={`inx-notice ${result.ok ? "inx-notice--good" : "inx-notice--bad"}`} role={result.ok ? "status" : "alert"}>{result.text}</p>}
      <LastUpdated at={updated} />
      <SubmissionHistory reload={historyVersion} />
    </>
  );
}
