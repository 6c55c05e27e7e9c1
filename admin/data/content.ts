// Content Management data. The screen only lists the site's editable
// pages; creating and editing are not wired (spec 2.4), so the list is a
// fixed sample. A real source (the repository's content/ folder through an
// API) can implement ContentSource later without touching the screen.

export interface ContentPage { name: string; path: string; description: string }
export interface ContentData { pages: ContentPage[]; blogPath: string }

export interface ContentSource { load(): ContentData }

/** NOT_WIRED is the note shown next to every disabled editing button. */
export const CONTENT_NOT_WIRED = "Editing pages from the admin is not available yet; content lives in the repository's content/ folder.";

export const sampleContent: ContentSource = {
  load: () => ({
    pages: [
      { name: "Homepage", path: "/", description: "Hero, services grid, portfolio, reviews, quote form and FAQ." },
      { name: "Services", path: "/services", description: "Service cards with features, FAQ and emergency banner." },
      { name: "Contact", path: "/contact", description: "Phone, service area and availability cards with the lead form." },
    ],
    blogPath: "/blog",
  }),
};
