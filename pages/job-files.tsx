import { Layout } from "../components/layout";
import { JobFiles } from "../components/job-files";
import type { PageProps } from "../components/types";
import type { FilesPageData } from "../components/props.gen";
import "../styles/job-files.css";

/** JobFilesPage is the files section on a page of its own
 * (/my/{token}/files, /claim/{token}/files) until the private job pages
 * carry it (ADR 067). */
export default function JobFilesPage(props: PageProps<FilesPageData>) {
  const { site, data: d } = props;
  return (
    <Layout props={props}>
      <div className="job-files__page">
        <div className="container container--narrow">
          <JobFiles site={site} files={d.files} Title="h1" />
        </div>
      </div>
    </Layout>
  );
}
