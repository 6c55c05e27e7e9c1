import { useEffect } from "react";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Card, PageHeader } from "../ui";

/** Leads is the Secure Leads Manager's access check (spec 6). Lead data
 * needs a real staff or admin account; the PIN alone never grants it. No
 * account is signed in here, so the check resolves to "no user" and the
 * page keeps showing the Access Denied message, as the spec prescribes. */
export default function Leads(_: AdminPageProps) {
  const toast = useToast();
  useEffect(() => {
    toast({ title: "Authentication Required", description: "Please log in to access lead data", variant: "destructive" });
  }, [toast]);
  return (
    <>
      <PageHeader title="Secure Leads Manager" description="Estimate requests from the website." />
      <Card title={<>Access Denied <Badge tone="bad">No account</Badge></>}>
        <p>Insufficient permissions to view leads.</p>
        <p className="a-muted">Lead details are personal data: they are shown only to signed-in staff (masked) and admins (full). The admin PIN does not grant access to them.</p>
      </Card>
    </>
  );
}
