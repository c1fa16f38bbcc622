import type { ButtonHTMLAttributes } from "react";

/** A text link that switches the popup's view (a button: it does not navigate). */
export function LinkButton(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className="font-medium text-emerald-800 underline hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      {...props}
    />
  );
}
