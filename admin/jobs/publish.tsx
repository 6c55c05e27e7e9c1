import { useCallback, useState } from "react";
import { ApiError } from "../api";
import { useToast } from "../toast";
import { errorText } from "../use-resource";
import { Badge, Button, Card, ConfirmDialog } from "../ui";
import { jobsApi, type JobDetail } from "../data/jobs";

/** JobPublish puts a job on the site or takes it off (an editor or an
 * admin account: the server decides), and deletes it. */
export function JobPublish({ job, onChange, onDeleted, dirty }: { job: JobDetail; onChange: (j: JobDetail) => void; onDeleted: () => void; dirty: boolean }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const [confirm, setConfirm] = useState(false);
  const cancel = useCallback(() => setConfirm(false), []);
  const live = job.status === "published";

  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    setProblem("");
    try { await f(); } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setProblem(errorText(err));
    } finally { setBusy(false); }
  };

  const toggle = () => run(async () => {
    const next = live ? await jobsApi.unpublish(job.id, job.version) : await jobsApi.publish(job.id, job.version);
    onChange(next);
    toast({ title: live ? "Taken off the site" : "Published", description: live ? "The job is private again." : "Its city's page and the pages near it now show it." });
  });

  const remove = () => run(async () => {
    await jobsApi.remove(job.id);
    setConfirm(false);
    toast({ title: "Job deleted", description: "Its photos are still in the photo library." });
    onDeleted();
  });

  return (
    <Card title="On the site" description={live ? "Visitors see this job on its city's page and the pages near it." : "Private: only people signed in to the admin see it until it is published."}>
      <p>{live ? <Badge tone="good">On the site</Badge> : <Badge>Private</Badge>}</p>
      {!live && job.needs && <p className="aj-needs">{job.needs}</p>}
      {dirty && <p className="aj-needs">Save your changes first.</p>}
      <div className="aj-actions">
        {job.mayPublish ? (
          <Button type="button" variant={live ? "outline" : "primary"} disabled={busy || dirty || (!live && job.needs !== "")} onClick={toggle}>
            {busy ? "Working..." : live ? "Take off the site" : "Publish the job"}
          </Button>
        ) : <p className="a-muted">An editor or the owner's admin account publishes jobs.</p>}
        <Button type="button" variant="danger" disabled={busy} onClick={() => setConfirm(true)}>Delete the job</Button>
      </div>
      {problem && <p className="a-error" role="alert">{problem}</p>}
      <ConfirmDialog open={confirm} title="Delete this job?" confirmLabel="Delete" busy={busy}
        description={<p><strong>{job.title}</strong> will be gone from this list{live ? " and from the site" : ""}. Its photos stay in the photo library.</p>}
        onConfirm={remove} onCancel={cancel} />
    </Card>
  );
}
