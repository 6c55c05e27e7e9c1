import "../../styles/admin-jobs.css";
import { useState } from "react";
import type { AdminPageProps } from "../types";
import { PageHeader } from "../ui";
import { JobsList } from "../jobs/list";
import { JobEditor } from "../jobs/editor";

/** Jobs: the finished work the crews did, each with its photos before,
 * during and after, its city, month and damage type, and a short story.
 * A job is private until it is published; the city is suggested from
 * where the photos were taken, which never leaves the server. */
export default function Jobs(_: AdminPageProps) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="Jobs" description="Your finished work, with its photos before, during and after. A job shows on the site, on the pages of its city, only once it is published." />
      {open ? <JobEditor id={open} onClose={() => setOpen(null)} /> : <JobsList onOpen={setOpen} />}
    </>
  );
}
