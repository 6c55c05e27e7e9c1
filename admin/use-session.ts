// The signed-in session and what a screen may ask of the app.
import { createContext, useContext } from "react";
import type { Session } from "./session";

/** SessionControls are what screens may ask of the app. */
export interface SessionControls {
  session: Session;
  /** update replaces the session (after a second factor is set up). */
  update: (s: Session) => void;
  /** signOut ends the session on the server and shows the gate. */
  signOut: () => void;
  /** toAccountSignIn leaves a PIN session for the gate's account form,
   * keeping the screen (and its ?lead= link) to return to. */
  toAccountSignIn: () => void;
}

const SessionContext = createContext<SessionControls | null>(null);
export const SessionProvider = SessionContext.Provider;

/** useSession returns the signed-in session and its controls. Screens are
 * only rendered once a session is in. */
export function useSession(): SessionControls {
  const c = useContext(SessionContext);
  if (!c) throw new Error("useSession outside the signed-in admin");
  return c;
}
