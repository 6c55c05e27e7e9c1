import type { ComponentType } from "react";

/** Island marks an interactive part of a public page. The server renders
 * it in place with everything else; the browser hydrates only islands, each
 * from its own props (client/islands.tsx), so a page's static bulk costs no
 * script time. The wrapper is display: contents and adds no box. */
export function Island<P extends object>({ name, component: C, props }: { name: string; component: ComponentType<P>; props: P }) {
  return (
    <div className="island" data-island={name} data-props={JSON.stringify(props)}>
      <C {...props} />
    </div>
  );
}
