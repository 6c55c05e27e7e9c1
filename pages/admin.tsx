import { Seo } from "../components/seo";
import { Toaster } from "../admin/toast";
import { AdminApp } from "../admin/app";
import type { PageProps } from "../components/types";
import type { AdminData } from "../components/props.gen";

/** Admin is every /admin route. The server always renders the locked gate
 * (noindex); the admin bundle, which public pages never load, unlocks it. */
export default function Admin(props: PageProps<AdminData>) {
  return (
    <>
      <Seo head={props.head} site={props.site} />
      <Toaster>
        <AdminApp initial={props.data.page} pages={props.data.pages} site={props.site} baseUrl={props.site.baseUrl} />
      </Toaster>
    </>
  );
}
