import type { ComponentType } from "react";

/** Island marks an interactive part of a public page. The server renders
 * it in place with everything else; the browser hydrates only islands, each
 * from its own props (client/islands.tsx), so a page's static bulk costs no
 * script time. The wrapper is display: contents and adds no box. */
export function Island<P extends object>({ name, component: C, props, markup }: { name: string; component: ComponentType<P>; props: P; markup?: string }) {
  // markup: C's server HTML for these props, rendered once and reused
  // (the navigation island, pages/server.tsx).
  if (markup != null) return <div className="island" data-island={name} data-props={JSON.stringify(props)} dangerouslySetInnerHTML={{ __html: markup }} />;
  return (
    <div className="island" data-island={name} data-props={JSON.stringify(props)}>
      <C {...props} />
    </div>
  );
}
