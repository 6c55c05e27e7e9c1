import { Layout } from "../components/layout";
import type { PageProps } from "../components/types";
import type { BookingData } from "../components/props.gen";
import { JobBooking } from "../components/job-booking";
import "../styles/booking.css";

/** Booking is a homeowner's inspection booking on a page of its own
 * (/my/{token}/booking): the same section the job page shows. */
export default function Booking(props: PageProps<BookingData>) {
  const { site, data: d } = props;
  return (
    <Layout props={props}>
      <div className="container container--narrow booking-page">
        <JobBooking site={site} v={d.booking} main />
      </div>
    </Layout>
  );
}
