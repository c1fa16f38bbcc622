import { X } from "lucide-react";
import { createContext, useContext, useEffect, useId, useRef, type ReactNode } from "react";

const TitleContext = createContext<string | undefined>(undefined);

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves in and is trapped, Escape and the close icon call onClose, and
 * focus returns to where it was when the dialog unmounts. Name it with <DialogTitle>.
 */
export function Dialog({ onClose, children, closeLabel = "Close" }: { onClose: () => void; children: ReactNode; closeLabel?: string }) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = panel.current;
    const first = node?.querySelector<HTMLElement>("[data-autofocus]") ?? node;
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key !== "Tab" || !node) return;
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
      if (items.length === 0) {
        event.preventDefault();
        node.focus();
        return;
      }
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      const active = document.activeElement;
      if (event.shiftKey && (active === firstItem || active === node)) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && (active === lastItem || !node.contains(active))) {
        event.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      previous?.focus();
    };
  }, []);

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/50 p-4" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="relative max-h-[90vh] w-full max-w-md overflow-y-auto rounded-lg bg-white p-6 shadow-xl outline-none"
      >
        <button
          type="button"
          onClick={onClose}
          aria-label={closeLabel}
          className="absolute top-3 right-3 rounded p-1 text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-emerald-700"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
        <TitleContext.Provider value={titleId}>{children}</TitleContext.Provider>
      </div>
    </div>
  );
}

/** The dialog's title; names the dialog for screen readers. */
export function DialogTitle({ children, className }: { children: ReactNode; className?: string }) {
  const id = useContext(TitleContext);
  return (
    <h2 id={id} className={className ?? "pr-8 text-xl font-semibold"}>
      {children}
    </h2>
  );
}
