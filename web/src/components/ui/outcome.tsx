import { useState } from "react";
import { failureText } from "../../api/client";
import { cn } from "../../lib/cn";
import { FormError } from "./field";

/** What a form's last action came to: a notice of what was done, or the failure to show. */
export function useOutcome() {
  const [notice, setNotice] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  /** Clears both before the next action. */
  const clear = () => {
    setNotice("");
    setFailure(null);
  };
  return { notice, failure, setNotice, setFailure, clear };
}

/** A button's action whose answer is a message: busy while it runs, then its notice or its failure. */
export function useAction(action: () => Promise<string>) {
  const outcome = useOutcome();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    outcome.clear();
    try {
      outcome.setNotice(await action());
    } catch (error) {
      outcome.setFailure(failureText(error));
    }
    setBusy(false);
  };
  return { ...outcome, busy, run };
}

/** The notice (a status line, announced) and the failure of useOutcome. */
export function Outcome({ notice, failure }: { notice: string; failure: string | null }) {
  return (
    <>
      <p role="status" className="text-sm text-emerald-900 empty:hidden">
        {notice}
      </p>
      {failure && <FormError>{failure}</FormError>}
    </>
  );
}

/** A screen's notice of what was done: a boxed status line while it has text, else kept for screen readers only. */
export function Notice({ notice, className }: { notice: string; className?: string }) {
  return (
    <p role="status" className={notice ? cn("rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900", className) : "sr-only"}>
      {notice}
    </p>
  );
}
