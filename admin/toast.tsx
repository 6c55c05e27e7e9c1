import { createContext, useCallback, useContext, useState, type ReactNode } from "react";

export interface Toast { id: number; title: string; description?: string; variant?: "default" | "destructive" }
type ToastFn = (t: Omit<Toast, "id">) => void;

const ToastContext = createContext<ToastFn>(() => {});

/** useToast returns toast({title, description, variant}). */
export function useToast() { return useContext(ToastContext); }

let nextId = 1;

/** Toaster shows toasts in a polite live region; destructive ones are
 * announced assertively. Each closes after 5 s or on its close button. */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const toast = useCallback<ToastFn>((t) => {
    const id = nextId++;
    setToasts((ts) => [...ts.slice(-3), { ...t, id }]);
    setTimeout(() => dismiss(id), 5000);
  }, [dismiss]);
  return (
    <ToastContext.Provider value={toast}>
      {children}
      <ol className="toasts" aria-live="polite" aria-label="Notifications">
        {toasts.map((t) => (
          <li key={t.id} className={"toast" + (t.variant === "destructive" ? " toast--destructive" : "")} role={t.variant === "destructive" ? "alert" : "status"}>
            <div>
              <p className="toast__title">{t.title}</p>
              {t.description && <p className="toast__desc">{t.description}</p>}
            </div>
            <button type="button" className="toast__close" aria-label="Close notification" onClick={() => dismiss(t.id)}>×</button>
          </li>
        ))}
      </ol>
    </ToastContext.Provider>
  );
}
