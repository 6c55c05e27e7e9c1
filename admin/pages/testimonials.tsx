import "../../styles/admin-content.css";
import { useState } from "react";
import { ApiError } from "../api";
import { fmtDateTime } from "../listing";
import { DataTable } from "../data-table";
import { errorText, useResource } from "../use-resource";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LoadError, PageHeader, Tabs } from "../ui";
import { testimonialsApi, type TestimonialItem, type TestimonialState } from "../data/testimonials";
import { RequestSettings } from "../testimonials/settings";
import { EditDialog } from "../testimonials/edit";

const STATES: { id: TestimonialState; label: string }[] = [
  { id: "pending", label: "Waiting for you" }, { id: "approved", label: "Approved" }, { id: "hidden", label: "Hidden" },
];

/** Testimonials: what customers wrote on their feedback page, waiting
 * for the owner to approve it for their city's page or hide it, and the
 * review request's settings. */
export default function Testimonials(_: AdminPageProps) {
  const toast = useToast();
  const [state, setState] = useState<TestimonialState>("pending");
  const list = useResource(() => testimonialsApi.list(state), [state]);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<TestimonialItem | null>(null);
  const [editError, setEditError] = useState("");

  const act = async (t: TestimonialItem, to: TestimonialState, text?: string) => {
    setBusy(true);
    try {
      const r = await testimonialsApi.moderate(t.id, to, text);
      const where = r.shown ? `It now shows on the ${r.city} page.` : r.state === "approved" ? "It stays off the site: the customer did not agree to publication." : "It is not on the site.";
      toast({ title: text !== undefined ? "Saved" : to === "approved" ? "Approved" : to === "hidden" ? "Hidden" : "Moved back", description: where });
      setEditing(null);
      list.refresh();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      if (text !== undefined) setEditError(errorText(err));
      else toast({ title: "Not saved", description: errorText(err), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  const rows = list.data?.items || [];
  const count = (s: TestimonialState) => (list.data ? ` (${list.data[s]})` : "");
  const table = (
    list.error ? <LoadError error={list.error} onRetry={list.retry} prefix="Testimonials could not be loaded: " /> : !list.data ? <p role="status">Loading testimonials...</p> : rows.length === 0 ? (
      <p className="a-empty">{state === "pending" ? "Nothing waiting: new testimonials appear here as customers send them." : `No ${state} testimonials.`}</p>
    ) : (
      <DataTable rows={rows} rowKey={(t) => t.id} caption={`${STATES.find((s) => s.id === state)?.label} testimonials`} columns={[
        { key: "who", label: "From", rowHeader: true, cell: (t) => `${t.firstName || "A customer"}, ${t.city || "no city"}` },
        { key: "text", label: "Words", cell: (t) => t.text || <span className="a-muted">No words, only the feedback</span> },
        { key: "consent", label: "May we publish?", cell: (t) => t.consent ? <Badge tone="good">Yes</Badge> : <Badge tone="neutral">No</Badge> },
        { key: "when", label: "Sent", cell: (t) => <time dateTime={t.createdAt}>{fmtDateTime(t.createdAt)}</time> },
        { key: "lead", label: "Request number", cell: (t) => <span className="ar-path">{t.leadId}</span> },
        { key: "actions", label: "Actions", hideLabel: true, cell: (t) => (
          <span className="tm-actions">
            {t.state !== "approved" && <Button className="a-btn ac-btn-sm" disabled={busy || !t.text} onClick={() => act(t, "approved")}>Approve<span className="visually-hidden"> the words of {t.firstName}</span></Button>}
            {t.state !== "hidden" && <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" disabled={busy} onClick={() => act(t, "hidden")}>Hide<span className="visually-hidden"> the words of {t.firstName}</span></Button>}
            {t.text && <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" disabled={busy} onClick={() => { setEditError(""); setEditing(t); }}>Fix typos<span className="visually-hidden"> in the words of {t.firstName}</span></Button>}
          </span>
        ) },
      ]} />
    )
  );
  return (
    <>
      <PageHeader title="Testimonials" description="What customers wrote after their job. Approved words show on their city's page with their first name, only when they agreed." />
      <Card>
        <Tabs label="Testimonials by state" value={state} onChange={(id) => setState(id as TestimonialState)}
          tabs={STATES.map((s) => ({ id: s.id, label: s.label + count(s.id), content: table }))} />
      </Card>
      <RequestSettings />
      <EditDialog item={editing} busy={busy} error={editError} onSave={(text) => editing && act(editing, editing.state, text)} onClose={() => setEditing(null)} />
    </>
  );
}
