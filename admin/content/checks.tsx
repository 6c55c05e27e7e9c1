// The content editor's SEO checks: the SEO audit's page rules, run by
// the server on the draft's real render after each save.
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../api";
import { contentApi, type Guidance } from "../data/content";
import { errorText } from "../use-resource";
import { Badge, Card } from "../ui";

/** GuidanceState is "idle", "busy" (the checks run), or why they could not run. */
type GuidanceState = "idle" | "busy" | string;

/** useGuidance runs the checks of an item's draft. While another preview
 * or check is rendering the server answers 503, and the checks are asked
 * for again (the newest request wins; leaving the editor stops it). */
export function useGuidance() {
  const [guidance, setGuidance] = useState<Guidance | null>(null);
  const [state, setState] = useState<GuidanceState>("idle");
  const run = useRef(0);
  useEffect(() => () => { run.current++; }, []);
  const load = useCallback((itemId: string) => {
    const mine = ++run.current;
    setState("busy");
    const ask = () => contentApi.guidance(itemId).then((g) => {
      if (mine === run.current) { setGuidance(g); setState("idle"); }
    }, (e) => {
      if (mine !== run.current) return;
      if (e instanceof ApiError && e.status === 503) setTimeout(() => { if (mine === run.current) ask(); }, 2000);
      else setState(errorText(e));
    });
    ask();
  }, []);
  return { guidance, state, load };
}

const CHECK_TONE = { pass: "good", warning: "warn", fail: "bad" } as const;

/** SeoChecks is the card of the draft's checks. */
export function SeoChecks({ guidance, state }: { guidance: Guidance | null; state: GuidanceState }) {
  return (
    <Card title="SEO checks" className="ac-checks" description={guidance ? `On the draft's render of ${guidance.path}${guidance.words ? `: ${guidance.words} words` : ""}.` : "The SEO audit's page rules, run by the server on the draft."}>
      {state === "busy" && <p role="status">Checking the draft...</p>}
      {state !== "busy" && state !== "idle" && <p className="a-error">The checks could not be run: {state}</p>}
      {guidance?.renderError && <p className="ac-note--warn">{guidance.renderError}</p>}
      {guidance && guidance.checks.length > 0 && (
        <ul className="ac-checklist">
          {guidance.checks.map((c) => (
            <li key={c.check}>
              <span className="ac-status"><Badge tone={CHECK_TONE[c.status] || "neutral"}>{c.status}</Badge></span>{" "}
              <strong>{c.check}</strong>: {c.message}
              {c.fix && c.status !== "pass" && <span className="a-muted"> {c.fix}</span>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
