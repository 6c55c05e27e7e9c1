import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../api";
import { useToast } from "../toast";
import { errorText, useResource } from "../use-resource";
import { Button, Card, LoadError } from "../ui";
import { fieldsOf, jobsApi, type JobDetail, type JobFields } from "../data/jobs";
import { JobFieldsForm } from "./fields";
import { JobPhotos } from "./photos";
import { JobPublish } from "./publish";

/** JobEditor is one job: its fields, its photos and whether it is on
 * the site. Every change goes to the server, which answers the job as
 * it now is; a save based on an old version is refused there (409). */
export function JobEditor({ id, onClose }: { id: string; onClose: () => void }) {
  const toast = useToast();
  const job = useResource(() => jobsApi.get(id), [id]);
  const choices = useResource(jobsApi.choices, []);
  const [fields, setFields] = useState<JobFields | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const { setData } = job;

  useEffect(() => { if (job.data && fields === null) setFields(fieldsOf(job.data)); }, [job.data, fields]);

  /** answered puts the server's job on screen; with reset, its fields too. */
  const answered = useCallback((j: JobDetail, reset = false) => {
    setData(j);
    if (reset) setFields(fieldsOf(j));
  }, [setData]);

  const fail = (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) return;
    setProblem(errorText(err));
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!job.data || !fields) return;
    setBusy(true);
    setProblem("");
    try {
      answered(await jobsApi.save(id, job.data.version, fields), true);
      toast({ title: "Job saved", description: job.data.status === "published" ? "The pages that show it are updated." : "It stays private until it is published." });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const reload = () => { setFields(null); setProblem(""); job.refresh(); };

  if (job.error) return <Card><LoadError error={job.error} onRetry={job.retry} prefix="The job could not be loaded: " /><Button variant="outline" onClick={onClose}>Back to all jobs</Button></Card>;
  if (!job.data || !fields) return <p role="status">Loading the job...</p>;
  const j = job.data;
  return (
    <>
      <p><Button variant="outline" onClick={onClose}>Back to all jobs</Button></p>
      <Card title={j.title} description={j.status === "published" ? "On the site." : "Private: not on the site."}>
        <form className="aj-form" onSubmit={save} noValidate>
          <JobFieldsForm job={j} choices={choices.data} fields={fields} onChange={setFields} />
          <div className="aj-actions">
            <Button type="submit" disabled={busy}>{busy ? "Saving..." : "Save the job"}</Button>
          </div>
          {problem && (
            <div className="a-error" role="alert">
              <p>{problem}</p>
              {problem.includes("Someone else changed") && <Button type="button" variant="outline" onClick={reload}>Reload the job</Button>}
            </div>
          )}
        </form>
      </Card>
      <JobPhotos job={j} onChange={(next) => answered(next)} />
      <JobPublish job={j} onChange={(next) => answered(next, true)} onDeleted={onClose} dirty={JSON.stringify(fields) !== JSON.stringify(fieldsOf(j))} />
    </>
  );
}
