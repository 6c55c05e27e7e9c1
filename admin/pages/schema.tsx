import "../../styles/admin-manage.css";
import { useId, useMemo, useState } from "react";
import { Icon } from "../../components/icons";
import { GENERATOR_NOT_WIRED, VALIDATE_DELAY_MS, GENERATOR_TYPES, sampleSchema, validationScore, type SchemaRecord, type SchemaSource, type SchemaTemplate } from "../data/schema";
import { adminPath } from "../layout";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, PageHeader, StatCard, Tabs, useSimulated } from "../ui";

const priorityTone = (p: SchemaRecord["priority"]) => (p === "critical" ? "bad" : p === "high" ? "warn" : p === "medium" ? "info" : "neutral");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 70 ? "warn" : "bad");

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
  const text = useMemo(() => JSON.stringify(t.json, null, 2), [t]);
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
    <Card title={<>{t.type} <Badge tone="neutral">read-only</Badge></>} description={t.description}
      actions={<div className="a-row">
        <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" onClick={copy} aria-label={`Copy ${t.type} template`}>Copy</Button>
        <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" onClick={save} aria-label={`Download ${t.type} template`}>Download</Button>
      </div>}>
      <pre className="a-code" tabIndex={0} aria-label={`${t.type} JSON-LD template`}><code>{text}</code></pre>
    </Card>
  );
}

function Generator() {
  const [type, setType] = useState<string>(GENERATOR_TYPES[0]);
  const [target, setTarget] = useState("");
  const note = useId();
  return (
    <Card title="Schema Generator" description="Pick a schema type and the page it belongs to.">
      <div className="am-note" id={note}>
        <Icon name="alert-triangle" size={18} />
        <p>{GENERATOR_NOT_WIRED}</p>
      </div>
      <div className="a-form-grid">
        <div className="a-field">
          <label className="a-label" htmlFor="schema-gen-type">Schema type</label>
          <select id="schema-gen-type" className="a-input" value={type} onChange={(e) => setType(e.target.value)}>
            {GENERATOR_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </div>
        <div className="a-field">
          <label className="a-label" htmlFor="schema-gen-target">Target page</label>
          <input id="schema-gen-target" className="a-input" type="text" placeholder="/services/water-damage-restoration"
            value={target} onChange={(e) => setTarget(e.target.value)} />
        </div>
      </div>
      <h3 className="a-card__title">Quick Actions</h3>
      <div className="am-quick">
        <Button variant="outline" disabled aria-describedby={note}>LocalBusiness for all location pages</Button>
        <Button variant="outline" disabled aria-describedby={note}>Service for all service pages</Button>
        <Button variant="outline" disabled aria-describedby={note}>FAQ for pages with FAQ blocks</Button>
        <Button variant="outline" disabled aria-describedby={note}>Article for all blog posts</Button>
      </div>
      <Button disabled aria-describedby={note}>Generate</Button>
    </Card>
  );
}

/** Schema Management: sample schema records, two read-only templates,
 * sample validation and a generator that is not wired (spec 2.4). */
export default function Schema({ navigate, site, source = sampleSchema }: AdminPageProps & { source?: SchemaSource }) {
  const records = source.records();
  const templates = useMemo(() => source.templates(site), [source, site]);
  const validation = useSimulated(() => source.validate(), VALIDATE_DELAY_MS);
  const active = records.filter((r) => r.status === "active").length;
  const missing = records.filter((r) => r.status === "missing").length;
  const score = validationScore(validation.data);
  const toIndex = (e: React.MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate("indexnow");
  };
  return (
    <>
      <PageHeader title="Schema Management" description="Structured data (JSON-LD) that helps search engines understand the business and its pages."
        actions={<>
          <Button onClick={validation.run} disabled={validation.busy} aria-busy={validation.busy}>{validation.busy ? "Validating..." : "Validate All"}</Button>
          <a className="a-btn a-btn--outline" href={adminPath("indexnow")} onClick={toIndex}>Publish Index</a>
        </>} />
      <p className="a-muted am-sample">Sample data: schema counts and validation results are fixed examples, not read from the live pages.</p>
      <p role="status" className="visually-hidden">{validation.busy ? "Validating schemas..." : validation.updated ? "Validation finished." : ""}</p>
      <LastUpdated at={validation.updated} />
      <div className="a-grid a-grid--4 am-summary">
        <StatCard label="Active Schemas" value={active} hint="Types on the site" tone="good" />
        <StatCard label="Missing Schemas" value={missing} hint="Types worth adding" tone={missing ? "warn" : "good"} />
        <StatCard label="Pages Covered" value={source.pagesCovered()} hint="Pages with structured data" />
        <StatCard label="Validation Score" value={`${score}%`} hint="Share of valid schema types" tone={scoreTone(score)} />
      </div>
      <Tabs label="Schema Management" tabs={[
        {
          id: "overview", label: "Overview", content: (
            <Card title="Schema Types">
              <ul className="am-list">
                {records.map((r) => (
                  <li key={r.type}>
                    <div className="am-list__main">
                      <p className="am-list__title">{r.type} <Badge tone={r.status === "active" ? "good" : "bad"}>{r.status}</Badge></p>
                      <p className="am-list__desc">{r.description}</p>
                    </div>
                    <div className="am-list__actions">
                      <span className="a-muted">{r.pages} {r.pages === 1 ? "page" : "pages"}</span>
                      <Badge tone={priorityTone(r.priority)}>{r.priority} priority</Badge>
                    </div>
                  </li>
                ))}
              </ul>
            </Card>
          ),
        },
        { id: "templates", label: "Schema Templates", content: <>{templates.map((t) => <TemplateCard key={t.type} t={t} />)}</> },
        {
          id: "validation", label: "Validation", content: (
            <Card title="Validation Results" description={validation.busy ? "Validating..." : "Results per schema type."}>
              {validation.data.length === 0 ? <p className="a-empty">Nothing to validate yet.</p> : (
                <ul className="am-list">
                  {validation.data.map((v) => (
                    <li key={v.type}>
                      <div className="am-list__main">
                        <p className="am-list__title">{v.type} <Badge tone={v.valid ? "good" : "bad"}>{v.valid ? "valid" : "invalid"}</Badge></p>
                        {v.errors.length > 0 && <ul className="am-msgs am-msgs--err" aria-label={`${v.type} errors`}>{v.errors.map((m) => <li key={m}>Error: {m}</li>)}</ul>}
                        {v.warnings.length > 0 && <ul className="am-msgs am-msgs--warn" aria-label={`${v.type} warnings`}>{v.warnings.map((m) => <li key={m}>Warning: {m}</li>)}</ul>}
                        {v.errors.length === 0 && v.warnings.length === 0 && <p className="am-list__desc">No errors or warnings.</p>}
                      </div>
                      <div className="am-list__actions a-muted">{v.errors.length} {v.errors.length === 1 ? "error" : "errors"}, {v.warnings.length} {v.warnings.length === 1 ? "warning" : "warnings"}</div>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          ),
        },
        { id: "generator", label: "Schema Generator", content: <Generator /> },
      ]} />
    </>
  );
}
