import { useEffect, useId, useRef, useState } from "react";
import { judge, todayIn, verdictCookie } from "../lib/agecheck";
import { embedded } from "../lib/embed";

/**
 * The age check before commerce (docs/rules.md): a native modal <dialog> asking for a date of birth,
 * judged against minAge on today's date where the shopper is. Loaded only when a shopper first
 * follows "Go to online store". Passing keeps "ok" in a cookie for 30 days and calls onPass inside
 * the submit (a user gesture, so the shop may open in a new tab). An under-age date is first shown
 * back ("You were born in 2019?") so a mistyped year can be corrected; confirmed, it keeps "under"
 * for the browser session and shows a plain message: the store's facts stay where they are.
 */
export default function AgeDialog({ minAge, onPass, onClose }: { minAge: number; onPass: () => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState("");
  const [under, setUnder] = useState(false);
  // An under-age date waiting for the shopper to confirm it: a mistyped year is corrected here.
  const [confirming, setConfirming] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const title = useId();
  const input = useId();
  const hint = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const secure = window.location.protocol === "https:";
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem("birth");
    const value = field instanceof HTMLInputElement ? field.value : "";
    const verdict = judge(value, minAge, todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone, new Date()));
    if (verdict.kind === "invalid") {
      setError(verdict.message);
      return;
    }
    if (verdict.kind === "under") {
      setTyped(value);
      setConfirming(value);
      return;
    }
    // The widget keeps the verdict for this page only: it sets no cookie (docs/embed.md).
    if (!embedded) document.cookie = verdictCookie(verdict.kind, minAge, secure);
    onPass();
    onClose();
  };
  /** The shopper confirms an under-age date: kept for this browser session only (agecheck.ts). */
  const confirmUnder = () => {
    if (!embedded) document.cookie = verdictCookie("under", minAge, secure);
    setConfirming(null);
    setUnder(true);
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={title}
      onClose={onClose}
      className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-lg p-5 text-gray-900 shadow-xl backdrop:bg-black/40"
    >
      <h2 id={title} className="text-lg font-semibold">
        {under ? "Not available to you" : "Confirm your age"}
      </h2>
      {under ? (
        <>
          <p role="alert" className="mt-2 text-sm">
            You need to be {minAge} or older to buy tobacco or vape products here. The store&apos;s details stay open to you.
          </p>
          <div className="mt-4 flex justify-end">
            <button type="button" onClick={() => ref.current?.close()} className="rounded-md bg-emerald-700 px-3 py-2 text-sm font-medium text-white hover:bg-emerald-800">
              Back to the store
            </button>
          </div>
        </>
      ) : confirming ? (
        <>
          <p className="mt-2 text-sm">
            You were born in {confirming.slice(0, 4)}? The online store sells nicotine products to people {minAge} or older.
          </p>
          <div className="mt-4 flex justify-end gap-2">
            <button
              type="button"
              autoFocus
              onClick={() => setConfirming(null)}
              className="rounded-md px-3 py-2 text-sm font-medium text-gray-800 hover:bg-gray-100"
            >
              No, correct it
            </button>
            <button type="button" onClick={confirmUnder} className="rounded-md bg-emerald-700 px-3 py-2 text-sm font-medium text-white hover:bg-emerald-800">
              Yes
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate className="mt-2 space-y-3">
          <p id={hint} className="text-sm text-gray-700">
            The online store sells nicotine products to people {minAge} or older. We keep only the answer (a pass for 30 days, otherwise
            until you close the browser); your ID is checked at checkout and on delivery.
          </p>
          <div>
            <label htmlFor={input} className="block text-sm font-medium">
              Date of birth
            </label>
            <input
              id={input}
              name="birth"
              type="date"
              required
              autoComplete="bday"
              defaultValue={typed}
              autoFocus={typed !== ""}
              aria-describedby={hint}
              aria-invalid={error ? true : undefined}
              aria-errormessage={error ? `${input}-error` : undefined}
              onChange={() => setError("")}
              className="mt-1 w-full rounded-md border border-gray-400 px-3 py-2"
            />
            {error && (
              <p id={`${input}-error`} role="alert" className="mt-1 text-sm text-red-800">
                {error}
              </p>
            )}
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => ref.current?.close()} className="rounded-md px-3 py-2 text-sm font-medium text-gray-800 hover:bg-gray-100">
              Cancel
            </button>
            <button type="submit" className="rounded-md bg-emerald-700 px-3 py-2 text-sm font-medium text-white hover:bg-emerald-800">
              Continue
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
