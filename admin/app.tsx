import "../styles/admin.css";
import { useCallback, useEffect, useState } from "react";
import { Head } from "../components/head";
import { lock as endSession, onSessionExpired } from "./api";
import { Gate } from "./gate";
import { AdminLayout, adminPath } from "./layout";
import { useToast } from "./toast";
import { ADMIN_PAGES } from "./pages";
import type { Site } from "../components/types";

export interface AdminPageInfo { slug: string; title: string }

const slugFrom = (path: string) => path.replace(/^\/admin\/?/, "").split("/")[0];

/** AdminApp is the admin area in the browser: locked on every load, then
 * client-side navigation between screens so the in-memory token survives. */
export function AdminApp({ initial, pages, site, baseUrl }: { initial: string; pages: AdminPageInfo[]; site: Site; baseUrl: string }) {
  const [unlocked, setUnlocked] = useState(false);
  const [slug, setSlug] = useState(initial);
  const toast = useToast();
  useEffect(() => {
    // Locked on every load: any earlier flag is cleared (spec 4).
    sessionStorage.removeItem("admin_authenticated");
    onSessionExpired(() => {
      setUnlocked(false);
      sessionStorage.removeItem("admin_authenticated");
      toast({ title: "Session expired", description: "Enter your PIN again to continue.", variant: "destructive" });
    });
    const onPop = () => setSlug(slugFrom(window.location.pathname));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [toast]);
  const navigate = useCallback((next: string) => {
    if (next !== slugFrom(window.location.pathname)) history.pushState(null, "", adminPath(next));
    setSlug(next);
    window.scrollTo({ top: 0, behavior: "instant" as ScrollBehavior });
  }, []);
  const lock = () => {
    endSession();
    sessionStorage.removeItem("admin_authenticated");
    setUnlocked(false);
  };
  const info = pages.find((p) => p.slug === slug) || pages[0];
  const title = slug === "indexnow" ? "SEO & IndexNow | Admin" : `${info.title} | Admin`;
  const Page = ADMIN_PAGES[slug] || ADMIN_PAGES[""];
  return (
    <>
      <Head tags={[
        { tag: "title", attrs: {}, text: title },
        { tag: "link", attrs: { rel: "canonical", href: baseUrl + adminPath(slug) } },
      ]} />
      {!unlocked ? <Gate onUnlock={() => setUnlocked(true)} /> : (
        <AdminLayout current={slug} navigate={navigate} onLock={lock}>
          <Page key={slug} navigate={navigate} site={site} />
        </AdminLayout>
      )}
    </>
  );
}
