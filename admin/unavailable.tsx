import { useEffect } from "react";
import type { Screen } from "./screens";
import { adminPath } from "./screens";
import { ACCOUNT_ONLY, howToGet } from "./capabilities";
import { useSession } from "./use-session";
import { useToast } from "./toast";
import { Button, Card, PageHeader } from "./ui";

/** NotAvailable is what a screen the session cannot open shows: which
 * sign-in opens it, and the button that leads there. The Secure Leads
 * Manager keeps spec 6's messages ('Authentication Required' for the PIN,
 * 'Access Denied' for an account without a lead role). */
export function NotAvailable({ screen, navigate }: { screen: Screen; navigate: (slug: string) => void }) {
  const { session, toAccountSignIn, signOut } = useSession();
  const toast = useToast();
  const pin = session.kind === "pin";
  const leads = screen.slug === "leads";
  const needsAccount = ACCOUNT_ONLY.has(screen.capability);
  // An account whose role list is empty (or has neither admin nor staff):
  // spec 6's 'Insufficient permissions' rather than 'Staff privileges'.
  const noRole = session.kind === "account" && session.role === "";
  useEffect(() => {
    if (!leads) return;
    toast(pin ? { title: "Authentication Required", description: "Please log in to access lead data", variant: "destructive" }
      : { title: "Access Denied", description: noRole ? "Insufficient permissions to view leads" : "Staff privileges required to view leads", variant: "destructive" });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once per visit
  const title = leads ? (pin ? "Authentication Required" : "Access Denied") : "Not available with your sign-in";
  const message = leads ? (pin ? "Please log in to access lead data." : noRole ? "Insufficient permissions to view leads." : "Staff privileges required to view leads.")
    : `${screen.title} needs ${howToGet(screen.capability)}.`;
  return (
    <>
      <PageHeader title={screen.title} />
      <Card title={title}>
        <p className="a-unavailable__msg">{message}</p>
        {leads && pin && (
          <p className="a-muted">Not available with your sign-in: lead details are personal data, shown only to staff (masked) and admins (full) who sign in with their own account. The admin PIN opens the website tools only.</p>
        )}
        {!leads && pin && needsAccount && <p className="a-muted">The admin PIN opens the website tools only. Sign in with your own account to open this screen.</p>}
        {!pin && !needsAccount && <p className="a-muted">Your account ({session.email}) cannot open it. Ask an admin, or sign out and use the admin PIN.</p>}
        {!pin && needsAccount && <p className="a-muted">Your account ({session.email}) cannot open it. Ask an admin for access.</p>}
        <div className="a-row">
          {pin && needsAccount && <Button onClick={toAccountSignIn}>Sign in with your account</Button>}
          {!pin && !needsAccount && <Button variant="outline" onClick={signOut}>Sign out</Button>}
          {screen.slug !== "" && (
            <a className="a-btn a-btn--outline" href={adminPath("")} onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              navigate("");
            }}>Back to the dashboard</a>
          )}
        </div>
      </Card>
    </>
  );
}
