import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { EstimateForm } from "../components/estimate-form";
import { Icon } from "../components/icons";
import { CallButton, em } from "../components/emergency";
import { Island } from "../components/island";
import { leadContactOf, type PageProps } from "../components/types";
import type { EstimateData } from "../components/props.gen";
import { formWordsOf, word } from "../components/words";
import { FORM_ANCHOR } from "../components/estimate-target";

/** Estimate is /estimate: the native estimate form on its own page. After
 * a POST without JavaScript the server renders it again with the messages
 * and the values typed, or shows the thank-you state at /estimate/thanks. */
export default function Estimate(props: PageProps<EstimateData>) {
  const { site, data } = props;
  const done = !!data.state?.success;
  return (
    // The form is this page's estimate place (ADR 050): GET A QUOTE and
    // the footer's Free Estimate scroll to it instead of reloading the page.
    // The thank-you page holds no form, so its links open a fresh one.
    <Layout props={props} form={!done}>
      <PageHero site={site} title={done ? word(site, "estimate", "thanksHeadline") : word(site, "estimate", "headline")} estimateHref={null}
        lead={done ? "Your request is in. A member of our team will contact you shortly." : "Tell us what happened and where. Estimates are always free, and we bill insurance directly."} />
      <section className="section" id={done ? undefined : FORM_ANCHOR}>
        <div className="container quote">
          <div className="quote__form">
            <h2 className="section__title section__title--left">{done ? "Request Received" : "Request a Free Estimate"}</h2>
            <Island name="estimate" component={EstimateForm} props={{ site: leadContactOf(site), state: data.state || undefined, idPrefix: "estimate", words: formWordsOf(site) }} />
          </div>
          <aside className="quote__side" aria-label="Emergency help">
            <div className="card card--danger">
              <p className="card__title"><Icon name="alert-triangle" size={22} /> Emergency right now?</p>
              <p>{em(site, "Call us instead of filling in the form: a live person answers 24/7.", `Call us instead of filling in the form: a live person answers ${site.hours}.`)}</p>
              <CallButton site={site} className="btn btn--white btn--block" />
            </div>
            <div className="card">
              <p className="card__title"><Icon name="clock" size={20} /> When we reply</p>
              <p>{`Within ${word(site, "times", "emergency")} for emergencies and within ${word(site, "times", "general")} for general inquiries.`}</p>
            </div>
          </aside>
        </div>
      </section>
    </Layout>
  );
}
