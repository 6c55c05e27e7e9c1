import "../../styles/admin-indexnow.css";
import { useCompliance, CompliancePanel } from "../indexnow/compliance";
import { HealthPanel, useHealth } from "../indexnow/health";
import { IndexNowPanel } from "../indexnow/submission";
import { useVerification, VerificationPanel } from "../indexnow/verification";
import type { AdminPageProps } from "../types";
import { PageHeader, Tabs } from "../ui";

/** IndexNowPage is SEO & IndexNow Management (spec 2.4): a compliance
 * audit, a verification audit and crawl, route health, and IndexNow
 * submission. State lives here so switching tabs keeps results. */
export default function IndexNowPage({ site, navigate }: AdminPageProps) {
  const compliance = useCompliance();
  const verification = useVerification();
  const health = useHealth();
  return (
    <>
      <PageHeader title="SEO & IndexNow Management" description="Audit pages against the SEO rules, watch every route's health, and tell search engines about new and changed pages." />
      <Tabs label="SEO & IndexNow tools" tabs={[
        { id: "compliance", label: "SEO Compliance", content: <CompliancePanel c={compliance} navigate={navigate} /> },
        { id: "verification", label: "SEO Verification", content: <VerificationPanel v={verification} navigate={navigate} /> },
        { id: "health", label: "Health Monitor", content: <HealthPanel h={health} navigate={navigate} /> },
        { id: "indexnow", label: "IndexNow Submission", content: <IndexNowPanel site={site} /> },
      ]} />
    </>
  );
}
