import { createContext, useCallback, useContext, useState, type ReactNode } from "react";

export interface Toast { id: number; title: string; description?: string; variant?: "default" | "destructive"; at: number }
type ToastFn = (t: Omit<Toast, "id" | "at">) => void;

const ToastContext = createContext<ToastFn>(() => {});
const DismissContext = createContext<() => void>(() => {});

/** useToast returns toast({title, description, variant}). */
export function useToast() { return useContext(ToastContext); }

/** useDismissToasts returns a function that closes the toasts shown for
 * more than half a second. A modal dialog calls it as it opens: a toast
 * from before (the leads' 'Data Loaded', say) would otherwise sit over the
 * dialog's buttons for the rest of its 5 s. A toast raised by the same
 * action that opened the dialog, and any the dialog raises, still show. */
export function useDismissToasts() { return useContext(DismissContext); }

let nextId = 1;

/** Toaster shows toasts in a polite live region; destructive ones are
 * announced assertively. Each closes after 5 s or on its close button. */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const toast = useCallback<ToastFn>((t) => {
    const id = nextId++;
    setToasts((ts) => [...ts.slice(-3), { ...t, id, at: Date.now() }]);
    setTimeout(() => dismiss(id), 5000);
  }, [dismiss]);
  const dismissAll = useCallback(() => setToasts((ts) => {
    const old = Date.now() - 500;
    return ts.some((t) => t.at < old) ? ts.filter((t) => t.at >= old) : ts;
  }), []);
  return (
    <ToastContext.Provider value={toast}>
      <DismissContext.Provider value={dismissAll}>
      {children}
      <ol className="toasts" aria-live="polite" aria-label="Notifications">
        {toasts.map((t) => (
          <li key={t.id} className={"toast" + (t.variant === "destructive" ? " toast--destructive" : "")}>
            <div role={t.variant === "destructive" ? "alert" : "status"}>
              <p className="toast__title">{t.title}</p>
              {t.description && <p className="toast__desc">{t.description}</p>}
            </div>
            <button type="button" className="toast__close" aria-label="Close notification" onClick={() => dismiss(t.id)}>×</button>
          </li>
        ))}
      </ol>
      </DismissContext.Provider>
    </ToastContext.Provider>
  );
}
