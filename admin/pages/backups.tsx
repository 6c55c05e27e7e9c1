import { count } from "../../components/plural";
import "../../styles/admin-backups.css";
import { useEffect, useState } from "react";
import { bytes, ago } from "../data/dashboard";
import { liveBackups, type BackupEntry, type BackupList, type RunningBackup } from "../data/backups";
import { errorText, useResource } from "../use-resource";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LoadError, PageHeader } from "../ui";

/** POLL_MS is how often the screen asks how a running backup is going. */
const POLL_MS = 1500;

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
const clock = (iso: string) => new Date(iso).toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" });

/** kindLabel names a backup's kind for the owner. */
function kindLabel(b: BackupEntry, everyHours: number): string {
  switch (b.kind) {
    case "scheduled":
      return everyHours === 24 ? "Daily" : "Scheduled";
    case "manual":
      return b.requestedBy ? `Manual, by ${b.requestedBy}` : "Manual";
    case "command":
      return "Made on the server";
  }
  return "Kept from earlier";
}

function whoStarted(r: RunningBackup): string {
  if (r.requestedBy) return ` by ${r.requestedBy}`;
  if (r.triggeredBy === "schedule") return " by the schedule";
  return "";
}

/** Backups is the owner's Backups screen: the recent backups
 * with their check and a download each, 'Back up now' with its progress
 * and result, and the warning while backups sit on the website's own
 * disk. Admin accounts only; the server decides. */
export default function Backups(_: AdminPageProps) {
  const { data, error, refresh, retry } = useResource(liveBackups.list, []);
  const toast = useToast();
  const [pressing, setPressing] = useState(false);
  const [note, setNote] = useState("");
  // mine is the backup this screen started (or was told is running): its
  // result is shown when it appears among the finished ones.
  const [mine, setMine] = useState<string | null>(null);
  const running = data?.running || null;
  const result = mine ? data?.backups.find((b) => b.id === mine) : undefined;
  const waiting = !!running || (!!mine && !result);

  // While a backup runs (here or elsewhere), ask how it is going.
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => { refresh(); }, POLL_MS);
    return () => clearInterval(t);
  }, [waiting, refresh]);

  const press = async () => {
    setPressing(true);
    setNote("");
    try {
      const a = await liveBackups.run();
      if (a.backup) setMine(a.backup.id);
      // A start shows its progress below the button (no toast over it).
      if (!a.started) setNote(a.backup ? `A backup is already running, started ${clock(a.backup.startedAt)}${whoStarted(a.backup)}.` : a.message);
      await refresh();
    } catch (e) {
      toast({ title: "Backup not started", description: errorText(e), variant: "destructive" });
    } finally {
      setPressing(false);
    }
  };

  return (
    <>
      <PageHeader title="Backups" description="Copies of everything the website keeps: leads, accounts, settings, content, photos and videos. Each backup is checked before it counts as good." />
      {!data && <LoadError error={error} onRetry={retry} prefix="Backups could not be loaded: " />}
      {data?.warning && <p className="bk-warn" role="note" data-testid="same-disk">{data.warning}</p>}
      {data && (
        <>
          <Card title="Back up now" description={schedule(data)}>
            <p className="a-muted bk-now__where">{data.location.startsWith("s3://") ? `Backups are kept in cloud storage: ${data.location}.` : `Backups are kept on the server, in the folder ${data.location}.`}</p>
            <Button onClick={press} disabled={pressing || !!running} aria-describedby={running ? "bk-running-what" : undefined}>
              {running ? "Backing up…" : pressing ? "Starting…" : "Back up now"}
            </Button>
            {note && <p className="a-muted" role="status">{note}</p>}
            {running && <Running r={running} />}
            {!running && result && <Result b={result} />}
            {error && <p className="a-error" role="alert">The latest reading failed: {error.message}</p>}
          </Card>
          <Card title="Recent backups" description="Newest first. Download one to keep a copy of your own, for example on your computer.">
            {data.storageError && <p className="a-error" role="alert">{data.storageError}</p>}
            {data.backups.length === 0
              ? <p className="a-empty">No backup yet. Press Back up now to make the first one.</p>
              : <ul className="bk-list" aria-label="Recent backups">{data.backups.map((b) => <Item key={b.id} b={b} everyHours={data.everyHours} href={liveBackups.downloadUrl(b.name)} />)}</ul>}
          </Card>
        </>
      )}
    </>
  );
}

function schedule(d: BackupList): string {
  if (d.everyHours <= 0) return "No automatic backup is set up: backups are made when you press Back up now, or by your web host.";
  if (d.everyHours === 24) return "The website backs itself up every day. You can also back up now, for example before a big change.";
  return `The website backs itself up every ${d.everyHours === 1 ? "hour" : count(d.everyHours, "hour")}. You can also back up now, for example before a big change.`;
}

function Running({ r }: { r: RunningBackup }) {
  return (
    <div className="bk-running" role="status" aria-live="polite">
      <p className="bk-running__what" id="bk-running-what">
        Backing up, started {clock(r.startedAt)}{whoStarted(r)}. {r.progress && <span className="a-muted">{r.progress}.</span>}
      </p>
      <div className="a-progress" aria-hidden="true"><div className="a-progress__bar" /></div>
    </div>
  );
}

function Result({ b }: { b: BackupEntry }) {
  const ok = b.outcome === "ok";
  return (
    <p className={"bk-result" + (ok ? "" : " bk-result--bad")} role="status" data-id={b.id}>
      {ok
        ? <>Backup finished and checked: <span className="bk-nowrap">{bytes(b.bytes)}</span>, {when(b.finishedAt)}. It is listed below.</>
        : <>The backup failed: {b.summary || "no reason was given"}.</>}
    </p>
  );
}

function Item({ b, everyHours, href }: { b: BackupEntry; everyHours: number; href: string }) {
  const status = b.outcome === "ok" ? <Badge tone="good">Checked</Badge> : b.outcome === "failed" ? <Badge tone="bad">Failed</Badge> : <Badge tone="neutral">Complete</Badge>;
  const at = b.outcome ? b.finishedAt : b.startedAt;
  return (
    <li className="bk-item" data-id={b.id}>
      <div className="bk-item__main">
        <p className="bk-item__when"><time dateTime={at} title={ago(at)}>{when(at)}</time></p>
        <p className="bk-item__meta">
          {status}
          <span>{kindLabel(b, everyHours)}</span>
          {b.outcome !== "failed" && b.bytes > 0 && <span className="a-muted bk-nowrap">{bytes(b.bytes)}</span>}
        </p>
        {b.outcome === "failed" && <p className="bk-item__why a-muted">{b.summary}</p>}
        {b.outcome === "ok" && !b.available && <p className="bk-item__why a-muted">No longer kept (old backups are deleted as new ones are made).</p>}
      </div>
      {b.available && <a className="a-btn a-btn--outline bk-item__dl" href={href} download aria-label={`Download the backup of ${when(at)}`}>Download</a>}
    </li>
  );
}
