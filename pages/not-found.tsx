import { Layout } from "../components/layout";
import type { PageProps } from "../components/types";
import type { NotFoundData } from "../components/props.gen";

/** NotFound is the 404 screen. The generic page shows '404' and 'Oops! Page
 * not found' with a link to '/'; the content routes pass their own texts. */
export default function NotFound(props: PageProps<NotFoundData>) {
  const d = props.data;
  return (
    <Layout props={props}>
      <section className="section notfound">
        <div className="container container--narrow center">
          {d.title ? (
            <>
              <h1 className="notfound__title">{d.title}</h1>
              {d.message && <p className="section__lead">{d.message}</p>}
            </>
          ) : (
            <>
              <h1 className="notfound__code">404</h1>
              <p className="notfound__title">Oops! Page not found</p>
            </>
          )}
          <p><a href={d.linkHref || "/"} className="btn btn--primary">{d.linkText || "Return to Home"}</a></p>
        </div>
      </section>
    </Layout>
  );
}
