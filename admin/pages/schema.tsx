import "../../styles/admin-manage.css";
import "../../styles/admin-schema.css";
import { useEffect, useMemo, useState } from "react";
import { GENERATOR_TYPES, VALIDATE_DELAY_MS, liveSchema, type Generated, type SchemaData, type SchemaMessage, type SchemaTemplate, type SchemaTypeResult } from "../data/schema";
import { adminPath } from "../layout";
import { errorText, useResource } from "../use-resource";
import { runOnServer } from "../server-run";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, LoadError, PageHeader, StatCard, Tabs } from "../ui";

const priorityTone = (p: SchemaTypeResult["priority"]) => (p === "critical" ? "bad" : p === "high" ? "warn" : p === "medium" ? "info" : "neutral");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 70 ? "warn" : "bad");
const when = (iso: string) => new Date(iso).toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const TRIGGERS = { deploy: "after the site started", content: "after a content change", manual: "on request (Validate All)" } as const;

/** EMPTY says how the check fills when it has not run yet. */
const EMPTY = "No check has run yet. The server checks the structured data of every page once the pages are rendered after the site starts, again after every content change, and when you press Validate All.";

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/ld+json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function TemplateCard({ t }: { t: SchemaTemplate }) {
  const toast = useToast();
  const text = useMemo(() => (t.json ? JSON.stringify(t.json, null, 2) : ""), [t]);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      toast({ title: "Copied!", description: `${t.type} template copied to clipboard` });
    } catch {
      toast({ title: "Copy Failed", description: "Could not copy to clipboard", variant: "destructive" });
    }
  };
  const save = () => {
    download(t.fileName, text + "\n");
    toast({ title: "File Downloaded", description: `${t.fileName} saved` });
  };
  return (
    <Card title={<>{t.type} <Badge tone="neutral">read-only</Badge></>} description={<>{t.description} Read from <code>{t.path}</code>.</>}
      actions={t.json && <div className="a-row">
        <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" onClick={copy} aria-label={`Copy ${t.type} template`}>Copy</Button>
        <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" onClick={save} aria-label={`Download ${t.type} template`}>Download</Button>
      </div>}>
      {t.json
        ? <pre className="a-code" tabIndex={0} aria-label={`${t.type} JSON-LD template`}><code>{text}</code></pre>
        : <p className="a-error" role="alert">{t.error || "The block could not be read."}</p>}
    </Card>
  );
}

/** Generator shows the JSON-LD a chosen page really serves for a chosen
 * type (the server reads the page as visitors get it), with Copy and
 * Download. The pages offered are the site's pages that carry the type. */
function Generator() {
  const toast = useToast();
  const { data, error, retry } = useResource(liveSchema.generator, []);
  const [type, setType] = useState<string>(GENERATOR_TYPES[0]);
  const [path, setPath] = useState("");
  const [out, setOut] = useState<Generated | null>(null);
  const [busy, setBusy] = useState(false);
  const [genError, setGenError] = useState("");
  const t = data?.types.find((x) => x.type === type);
  const groups = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const p of t?.pages || []) m.set(p.group, [...(m.get(p.group) || []), p.path]);
    return Array.from(m.entries());
  }, [t]);
  useEffect(() => { setPath(t?.pages[0]?.path || ""); setOut(null); setGenError(""); }, [t]);
  const text = useMemo(() => (!out || out.json.length === 0 ? "" : JSON.stringify(out.json.length === 1 ? out.json[0] : out.json, null, 2)), [out]);
  const generate = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setGenError("");
    try {
      setOut(await liveSchema.generate(type, path));
    } catch (err) {
      setOut(null);
      setGenError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      toast({ title: "Copied!", description: `${out!.type} of ${out!.path} copied to clipboard` });
    } catch {
      toast({ title: "Copy Failed", description: "Could not copy to clipboard", variant: "destructive" });
    }
  };
  const save = () => {
    download(out!.fileName, text + "\n");
    toast({ title: "File Downloaded", description: `${out!.type} of ${out!.path} saved` });
  };
  return (
    <Card title="Schema Generator" description="Pick a schema type and one of the site's pages that carries it: the structured data (JSON-LD) shown is what that page serves now, made from your content and System Settings.">
      <LoadError error={error} onRetry={retry} prefix="The pages could not be loaded: " />
      <form onSubmit={generate}>
        <div className="a-form-grid">
          <div className="a-field">
            <label className="a-label" htmlFor="schema-gen-type">Schema type</label>
            <select id="schema-gen-type" className="a-input" value={type} onChange={(e) => setType(e.target.value)}>
              {GENERATOR_TYPES.map((x) => <option key={x} value={x}>{x}</option>)}
            </select>
          </div>
          <div className="a-field">
            <label className="a-label" htmlFor="schema-gen-target">Target page</label>
            <select id="schema-gen-target" className="a-input" value={path} onChange={(e) => { setPath(e.target.value); setOut(null); }} disabled={!t || t.pages.length === 0}>
              {!data && !error && <option value="">Loading pages...</option>}
              {t && t.pages.length === 0 && <option value="">No page carries {type}</option>}
              {groups.map(([g, paths]) => (
                <optgroup key={g} label={g}>{paths.map((p) => <option key={p} value={p}>{p}</option>)}</optgroup>
              ))}
            </select>
          </div>
        </div>
        {t?.note && <p className="a-muted">{t.note}</p>}
        <Button type="submit" disabled={busy || !path}>{busy ? "Generating..." : "Generate"}</Button>
      </form>
      {genError && <p className="a-error" role="alert">{genError}</p>}
      {out && (
        <div className="as-generated" aria-live="polite">
          <div className="a-row">
            <h3 className="a-card__title">{out.type} on <code>{out.path}</code></h3>
            {text && <>
              <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" onClick={copy} aria-label={`Copy ${out.type} of ${out.path}`}>Copy</Button>
              <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" onClick={save} aria-label={`Download ${out.type} of ${out.path}`}>Download</Button>
            </>}
          </div>
          {text ? <pre className="a-code" tabIndex={0} aria-label={`${out.type} JSON-LD of ${out.path}`}><code>{text}</code></pre> : <p className="a-muted">{out.note}</p>}
        </div>
      )}
    </Card>
  );
}

/** Messages lists a type's errors or warnings, each with how many pages
 * show it and one of them. */
function Messages({ type, kind, list }: { type: string; kind: "Error" | "Warning"; list: SchemaMessage[] }) {
  if (list.length === 0) return null;
  return (
    <ul className={`am-msgs ${kind === "Error" ? "am-msgs--err" : "am-msgs--warn"}`} aria-label={`${type} ${kind === "Error" ? "errors" : "warnings"}`}>
      {list.map((m) => (
        <li key={m.text}>{kind}: {m.text} <span className="as-where">({m.pages === 1 ? <>on <code>{m.example}</code></> : <>{m.pages} pages, e.g. <code>{m.example}</code></>})</span></li>
      ))}
    </ul>
  );
}

function Overview({ data, error, onRetry }: { data: SchemaData | null; error: Error | null; onRetry: () => void }) {
  if (!data) return <Card title="Schema Types">{error ? <LoadError error={error} onRetry={onRetry} prefix="The schema check could not be loaded: " /> : <p className="a-muted" role="status">Loading...</p>}</Card>;
  if (!data.run) return <Card title="Schema Types"><p className="a-empty">{EMPTY}</p></Card>;
  return (
    <Card title="Schema Types" description={`Every type the pages serve, and every type the site expects on its kinds of pages, from the latest check of ${plural(data.run.pages, "page", "pages")}.`}>
      <ul className="am-list">
        {data.types.filter((t) => t.type !== "JSON-LD").map((t) => (
          <li key={t.type}>
            <div className="am-list__main">
              <p className="am-list__title">{t.type} <Badge tone={t.status === "active" ? "good" : "bad"}>{t.status}</Badge>{!t.validated && <span className="a-muted as-small">counted, not validated</span>}</p>
              <p className="am-list__desc">{t.description}</p>
              {t.missingOn > 0 && <p className="a-error">Missing on {t.missingOn} of {plural(t.expected, "page", "pages")} where it is expected.</p>}
            </div>
            <div className="am-list__actions">
              <span className="a-muted">{plural(t.pages, "page", "pages")}</span>
              <Badge tone={priorityTone(t.priority)}>{t.priority} priority</Badge>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Validation({ data, busy }: { data: SchemaData | null; busy: boolean }) {
  const run = data?.run;
  const results = (data?.types || []).filter((t) => t.validated && (t.pages > 0 || t.expected > 0 || t.errors.length > 0));
  return (
    <Card title="Validation Results" description={busy ? "Validating..." : run
      ? `Results per schema type, from ${plural(run.pages - run.unreadable, "page", "pages")} checked ${TRIGGERS[run.trigger]} on ${when(run.finishedAt)}: ${plural(run.items, "item", "items")}, ${plural(run.errors, "error", "errors")} and ${plural(run.warnings, "warning", "warnings")} counted page by page; below, each appears once with the pages it is on. Errors make an item invalid; warnings are recommended properties.`
      : "Results per schema type."}>
      {run && run.unreadable > 0 && <p className="a-error" role="alert">{run.unreadable} of {run.pages} pages could not be checked: {data!.pages.filter((p) => p.error).map((p) => `${p.path} (${p.error})`).join("; ")}.</p>}
      {!run || results.length === 0 ? <p className="a-empty">{run ? "No structured data was found to validate." : EMPTY}</p> : (
        <ul className="am-list">
          {results.map((v) => (
            <li key={v.type}>
              <div className="am-list__main">
                <p className="am-list__title">{v.type} <Badge tone={v.valid ? "good" : "bad"}>{v.valid ? "valid" : "invalid"}</Badge></p>
                <Messages type={v.type} kind="Error" list={v.errors} />
                <Messages type={v.type} kind="Warning" list={v.warnings} />
                {v.errors.length === 0 && v.warnings.length === 0 && <p className="am-list__desc">No errors or warnings on {plural(v.pages, "page", "pages")}.</p>}
                {v.source && <p className="am-list__desc"><a className="a-link" href={v.source} target="_blank" rel="noopener noreferrer">Rules followed<span className="visually-hidden"> for {v.type} (opens in a new tab)</span></a></p>}
              </div>
              <div className="am-list__actions a-muted">{plural(v.errors.length, "error", "errors")}, {plural(v.warnings.length, "warning", "warnings")}</div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Schema Management: the server's check of the structured data every
 * page serves (spec 2.4's cards and tabs), the two blocks the site serves
 * as read-only templates, and a generator that shows the JSON-LD a page
 * serves. Validate All
 * asks the server for a check and waits for it (2 s at least). */
export default function Schema({ navigate }: AdminPageProps) {
  const { data, error, retry, setData } = useResource(liveSchema.load, []);
  const [busy, setBusy] = useState(false);
  const [runError, setRunError] = useState("");
  const [updated, setUpdated] = useState<Date | null>(null);
  const validate = async () => {
    setBusy(true);
    setRunError("");
    try {
      setData(await runOnServer(liveSchema.validate, liveSchema.load, (d) => d.run?.id, VALIDATE_DELAY_MS));
      setUpdated(new Date());
    } catch (e) {
      console.warn("Schema validation failed", e);
      setRunError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const toIndex = (e: React.MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate("indexnow");
  };
  const run = data?.run;
  const c = data?.cards;
  return (
    <>
      <PageHeader title="Schema Management" description="Structured data (JSON-LD) that helps search engines understand the business and its pages."
        actions={<>
          <Button onClick={validate} disabled={busy} aria-busy={busy}>{busy ? "Validating..." : "Validate All"}</Button>
          <a className="a-btn a-btn--outline" href={adminPath("indexnow")} onClick={toIndex}>Publish Index</a>
        </>} />
      <p role="status" className="visually-hidden">{busy ? "Validating schemas..." : updated ? "Validation finished." : ""}</p>
      <div className="as-updated" aria-live="polite">
        {run && <p className="a-updated">Last checked: {when(run.finishedAt)}, {TRIGGERS[run.trigger]}.</p>}
        <LastUpdated at={updated} />
      </div>
      {runError && <p className="a-error" role="alert">Validation did not finish: {runError}</p>}
      <div className="a-grid a-grid--4 am-summary">
        <StatCard label="Active Schemas" value={c?.measured ? c.active : "—"} hint={c?.measured ? "Types on the site" : "Not checked yet"} tone={c?.measured ? "good" : undefined} />
        <StatCard label="Missing Schemas" value={c?.measured ? c.missing : "—"}
          hint={!c?.measured ? "Not checked yet" : c.missingPages ? `${plural(c.missingPages, "page lacks", "pages lack")} an expected type` : "Every page has its expected types"}
          tone={c?.measured ? (c.missing ? "bad" : "good") : undefined} />
        <StatCard label="Pages Covered" value={c?.measured ? c.covered : "—"} hint={c?.measured ? `of ${plural(c.pages, "indexable page", "indexable pages")} carry structured data` : "Not checked yet"}
          tone={c?.measured ? (c.covered === c.pages ? "good" : "warn") : undefined} />
        <StatCard label="Validation Score" value={c ? `${c.score}%` : "—"} hint={c?.measured ? "Items without errors" : "Default: nothing checked yet"}
          tone={c?.measured ? scoreTone(c.score) : undefined} />
      </div>
      {data && (
        <details className="as-how">
          <summary>How these figures are computed</summary>
          <dl>
            <div><dt>Active Schemas</dt><dd>{data.how.active}</dd></div>
            <div><dt>Missing Schemas</dt><dd>{data.how.missing}</dd></div>
            <div><dt>Pages Covered</dt><dd>{data.how.covered}</dd></div>
            <div><dt>Validation Score</dt><dd>{data.how.score}</dd></div>
            <div><dt>When</dt><dd>{data.how.when}</dd></div>
          </dl>
        </details>
      )}
      <Tabs label="Schema Management" tabs={[
        { id: "overview", label: "Overview", content: <Overview data={data} error={error} onRetry={retry} /> },
        {
          id: "templates", label: "Schema Templates", content: data
            ? <>{data.templates.map((t) => <TemplateCard key={t.type} t={t} />)}</>
            : <Card title="Schema Templates"><p className="a-muted" role="status">{error ? `The templates could not be loaded: ${error.message}` : "Loading..."}</p></Card>,
        },
        { id: "validation", label: "Validation", content: <Validation data={data} busy={busy} /> },
        { id: "generator", label: "Schema Generator", content: <Generator /> },
      ]} />
    </>
  );
}
