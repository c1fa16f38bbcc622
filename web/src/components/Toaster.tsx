import { X } from "lucide-react";
import { useEffect, useState } from "react";
import { dismissToast, useToasts, type Toast, type ToastTone } from "../lib/toast";

/** How long a toast stays while nobody points at it or focuses it. */
const SHOWN_MS: Record<ToastTone, number> = { success: 6_000, error: 12_000 };

const TONE_CLASS: Record<ToastTone, string> = {
  success: "border-emerald-700 text-emerald-900",
  error: "border-red-700 text-red-800",
};

/**
 * The app's notifications (lib/toast), top centre. Confirmations go into a polite live region
 * that is always in the page (so screen readers read what appears in it); a failure is its own
 * role="alert", read out at once. A toast goes after a while, not while hovered or focused, and
 * has a close button.
 */
export function Toaster() {
  const toasts = useToasts();
  const of = (tone: ToastTone) => toasts.filter((t) => t.tone === tone).map((t) => <ToastItem key={t.id} toast={t} />);
  return (
    <div data-toaster="" className="pointer-events-none fixed inset-x-0 top-4 z-[100] flex flex-col items-center gap-2 px-4">
      <div className="flex w-full max-w-sm flex-col gap-2">{of("error")}</div>
      <div aria-live="polite" className="flex w-full max-w-sm flex-col gap-2">
        {of("success")}
      </div>
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const [held, setHeld] = useState(0); // pointer over it or focus in it
  useEffect(() => {
    if (held > 0) return;
    const timer = window.setTimeout(() => dismissToast(toast.id), SHOWN_MS[toast.tone]);
    return () => window.clearTimeout(timer);
  }, [held, toast]);
  const hold = (on: boolean) => setHeld((n) => Math.max(0, n + (on ? 1 : -1)));
  return (
    <div
      role={toast.tone === "error" ? "alert" : undefined}
      data-tone={toast.tone}
      className={`pointer-events-auto flex items-start gap-3 rounded-md border bg-white p-3 text-sm shadow-lg ${TONE_CLASS[toast.tone]}`}
      onPointerEnter={() => hold(true)}
      onPointerLeave={() => hold(false)}
      onFocus={() => hold(true)}
      onBlur={() => hold(false)}
    >
      <div className="min-w-0 flex-1 break-words">
        <p className="font-semibold">{toast.title}</p>
        {toast.description && <p className="mt-1 text-gray-800">{toast.description}</p>}
      </div>
      <button
        type="button"
        aria-label="Close notification"
        onClick={() => dismissToast(toast.id)}
        className="-m-1 rounded p-1 text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-emerald-700"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
