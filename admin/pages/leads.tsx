import "../../styles/admin-leads.css";
import { can } from "../capabilities";
import { LeadsManager } from "../leads/list";
import { PrivacyRequests } from "../leads/privacy";
import { PushDevices } from "../push-devices";
import type { AdminPageProps } from "../types";
import { Badge, PageHeader } from "../ui";
import { useSession } from "../use-session";

/** Leads is the Secure Leads Manager (spec 2.4, 4, 6, 8) for the signed-in
 * account: staff see masked leads, admins full data on request. The
 * router only opens it for a session with leads.read (a PIN session gets
 * spec 6's 'Authentication Required' instead, admin/unavailable.tsx). */
export default function Leads(_: AdminPageProps) {
  const { session } = useSession();
  const admin = session.role === "admin";
  return (
    <>
      <PageHeader title="Secure Leads Manager" description="Estimate requests from the website." actions={
        <div className="al-who">
          <Badge tone={admin ? "info" : "good"}>{admin ? "Admin Access" : "Staff Access"}</Badge>
          <span className="a-muted al-who__name">{session.name || session.email}</span>
        </div>
      } />
      <LeadsManager isAdmin={can(session, "leads.full")} canAssign={can(session, "leads.assign")} canErase={can(session, "leads.erase")} />
      {can(session, "leads.erase") && <PrivacyRequests />}
      {can(session, "push.subscribe") && <PushDevices isAdmin={can(session, "push.all")} />}
    </>
  );
}
