import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from "react";
import { cn } from "../../lib/cn";

/**
 * A labelled text input with its validation message underneath (role="alert", linked with
 * aria-describedby and aria-invalid). Works with react-hook-form's register().
 */
export const Field = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; error?: string; hint?: ReactNode }
>(function Field({ label, error, hint, id, className, ...props }, ref) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : undefined, hint ? hintId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="rounded-md border border-gray-400 px-3 py-2 text-gray-900 read-only:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-emerald-700 aria-invalid:border-red-700"
        {...props}
      />
      {hint && (
        <p id={hintId} className="text-xs text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
});

/** A form-level message (a failed call), announced to screen readers. */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </p>
  );
}

/** Blocks the space key (password fields: spaces are refused on key press). */
export function blockSpaces(event: { key: string; preventDefault: () => void }) {
  if (event.key === " ") event.preventDefault();
}
