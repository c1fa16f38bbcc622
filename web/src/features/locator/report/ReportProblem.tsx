import { Flag } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";

const ReportDialog = lazy(() => import("./ReportDialog"));

/** The "Report a problem" link of the store panel, its dialog and the confirmation it shows. */
export function ReportProblem({ storeId, storeName }: { storeId: number; storeName: string }) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState("");

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => setSent(""), 6000);
    return () => clearTimeout(timer);
  }, [sent]);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="inline-flex items-center gap-1 self-start text-sm text-gray-700 underline hover:text-gray-900"
      >
        <Flag aria-hidden="true" className="size-4" />
        Report a problem
      </button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog
            storeId={storeId}
            storeName={storeName}
            onClose={() => setOpen(false)}
            onSent={(message) => {
              setOpen(false);
              setSent(message);
            }}
          />
        </Suspense>
      )}
      <div
        role="status"
        className="fixed bottom-4 left-1/2 z-50 -translate-x-1/2 rounded-md bg-gray-900 px-4 py-2 text-sm text-white shadow-lg empty:hidden"
      >
        {sent}
      </div>
    </>
  );
}
