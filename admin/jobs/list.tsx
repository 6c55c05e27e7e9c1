import { useState } from "react";
import { ApiError } from "../api";
import { DataTable } from "../data-table";
import { Pager } from "../listing";
import { errorText, useResource } from "../use-resource";
import { Badge, Button, Card, LoadError } from "../ui";
import { jobsApi, monthName, type JobRow } from "../data/jobs";

/** JobsList is the list of jobs, newest first, and the form that starts
 * a new one (a title is all it needs; the rest is on the job's screen). */
export function JobsList({ onOpen }: { onOpen: (id: string) => void }) {
  const [page, setPage] = useState(1);
  const { data, error, retry } = useResource(() => jobsApi.list(page), [page]);
  const [title, setTitle] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem("");
    try {
      const j = await jobsApi.create({ title, cityId: "", month: "", service: "", story: "", leadId: "", customerName: "", nameConsent: false });
      onOpen(j.id);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const rows = data?.jobs || [];
  return (
    <>
      <Card title="Start a job" description="Name the job, then add its photos. The city and month are suggested from the photos.">
        <form className="aj-new" onSubmit={create}>
          <div className="a-field">
            <label className="a-label" htmlFor="aj-new-title">Job title</label>
            <input id="aj-new-title" className="a-input" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={120}
              placeholder="Burst pipe in a finished basement" />
          </div>
          <Button type="submit" disabled={busy}>{busy ? "Starting..." : "Start the job"}</Button>
        </form>
        {problem && <p className="a-error" role="alert">{problem}</p>}
      </Card>
      <Card title={data ? `Jobs (${data.total.toLocaleString("en-US")})` : "Jobs"}>
        {error ? <LoadError error={error} onRetry={retry} prefix="The jobs could not be loaded: " /> : !data ? <p role="status">Loading jobs...</p> : rows.length === 0 ? (
          <p className="a-empty">No jobs yet. Start one above, then add its photos.</p>
        ) : (
          <>
            <DataTable rows={rows} rowKey={(r) => r.id} caption="Jobs" columns={[
              { key: "title", label: "Job", rowHeader: true, cell: (r: JobRow) => <button type="button" className="a-link aj-open" onClick={() => onOpen(r.id)}>{r.title}</button> },
              { key: "city", label: "City", cell: (r: JobRow) => r.city || <span className="a-muted">Not chosen</span> },
              { key: "month", label: "Month", cell: (r: JobRow) => monthName(r.month) || <span className="a-muted">Not chosen</span> },
              { key: "status", label: "Status", cell: (r: JobRow) => r.status === "published" ? <Badge tone="good">On the site</Badge> : <Badge>Private</Badge> },
              { key: "photos", label: "Photos", cell: (r: JobRow) => r.photos.toLocaleString("en-US") },
            ]} />
            <Pager page={data.page} pages={data.pages} onPage={setPage} label="Job pages" />
          </>
        )}
      </Card>
    </>
  );
}
