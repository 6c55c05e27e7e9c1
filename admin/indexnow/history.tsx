// The IndexNow submission history, newest first, a page at a time.
import { useState } from "react";
import { ApiError } from "../api";
import { liveSeo, type Submission } from "../data/indexnow";
import { Badge, Button, Card, LoadError } from "../ui";
import { useResource } from "../use-resource";

const TRIGGER_LABEL: Record<Submission["trigger"], string> = { auto: "Automatic: changed pages", all: "Submit All Site Pages", custom: "Custom URLs" };

/** HISTORY_PAGE is how many submissions the history shows at a time. */
const HISTORY_PAGE = 10;

/** SubmissionHistory lists what the server sent to IndexNow, newest first. */
export function SubmissionHistory({ reload }: { reload: number }) {
  const [page, setPage] = useState(0);
  // The answer keeps the page it is for: the pager names the page on
  // screen, not the one asked for while its answer is on the way; an
  // answer that arrives after a newer request was made is dropped
  // (useResource).
  const { data, error, retry } = useResource(() => liveSeo.submissions(HISTORY_PAGE, page * HISTORY_PAGE).then((d) => ({ ...d, page })), [page, reload]);
  const pages = data ? Math.max(1, Math.ceil(data.total / HISTORY_PAGE)) : 1;
  const shown = data ? data.page : page;
  return (
    <Card title="Submission history" description="Every submission the server made: automatic ones after content changes (when 'auto-submit to IndexNow' is on in System Settings) and the ones sent from this screen.">
      <LoadError error={error && (error instanceof ApiError ? error.message : "The submission history could not be loaded.")} onRetry={retry} />
      {!data ? (!error && <p role="status" className="a-muted">Loading...</p>) : data.submissions.length === 0 ? <p className="a-empty">No submissions yet.</p> : (
        <>
          <ul className="inx-history" aria-label="Submissions">
            {data.submissions.map((x) => (
              <li key={x.id} className="inx-sub">
                <div className="inx-sub__head">
                  <Badge tone={x.outcome === "ok" ? "good" : "bad"}>{x.statusCode ? `HTTP ${x.statusCode}` : "failed"}</Badge>
                  <strong>{TRIGGER_LABEL[x.trigger] || x.trigger}</strong>
                  <span className="a-muted">{x.urlCount} URL{x.urlCount === 1 ? "" : "s"}</span>
                  <time className="a-muted inx-sub__time" dateTime={x.createdAt}>{new Date(x.createdAt).toLocaleString("en-US")}</time>
                </div>
                {x.response && <p className="inx-sub__resp">{x.response}</p>}
                <details className="inx-sub__urls">
                  <summary>Submitted URLs</summary>
                  <ul>{x.urls.map((u) => <li key={u}>{u}</li>)}</ul>
                </details>
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <div className="a-row inx-pager">
              <Button variant="outline" onClick={() => setPage(shown - 1)} disabled={shown === 0}>Newer</Button>
              <span className="a-muted">Page {shown + 1} of {pages}</span>
              <Button variant="outline" onClick={() => setPage(shown + 1)} disabled={shown + 1 >= pages}>Older</Button>
            </div>
          )}
        </>
      )}
    </Card>
  );
}
