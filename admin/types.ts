import type { Site } from "../components/props.gen";

/** AdminPageProps are what every admin screen receives. */
export interface AdminPageProps {
  /** navigate moves to another admin screen without reloading (the token survives). */
  navigate: (slug: string) => void;
  site: Site;
}
