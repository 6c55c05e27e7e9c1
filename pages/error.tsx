import { Layout } from "../components/layout";
import type { PageProps } from "../components/types";
import type { ErrorData } from "../components/props.gen";

/** ErrorPage is the 500 page, rendered once at boot so it can be served
 * even when rendering itself is what failed. */
export default function ErrorPage(props: PageProps<ErrorData>) {
  return (
    <Layout props={props}>
      <section className="section notfound">
        <div className="container container--narrow center">
          <h1 className="notfound__title">Something went wrong</h1>
          <p className="section__lead">We could not load this page. Please try again in a moment, or call us at <a href={props.site.tel}>{props.site.phone}</a> for immediate help.</p>
          {props.data.detail && <pre className="error-detail">{props.data.detail}</pre>}
          <p><a href="/" className="btn btn--primary">Return to Home</a></p>
        </div>
      </section>
    </Layout>
  );
}
